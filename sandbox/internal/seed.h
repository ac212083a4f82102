// A seeded account: a deterministic history of the demo workspace over the 60 days before
// a given instant, written through the families' own create, patch, delete and simulation
// code at past sandbox times, with their scheduled jobs run in due order, so statuses,
// logs, ledger and events are those the live sandbox would have produced (docs/sandbox.md,
// "A seeded account"). The same seed on a fresh database gives the same ids and documents
// (with the same standard library: the random distributions are libstdc++'s).
// Thread-safety: runs inside Engine::RunHistory (under the engine's lock).
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"
#include "sandbox/internal/engine_core.h"

namespace balcao::sandbox::internal {

struct SeedPlan {
  std::uint64_t seed = 1;
  UnixMicros until = 0;  // the history ends before this instant
  int days = 60;
  int per_day = 4;  // operations of each kind per day: 240 of each listable resource
  std::string organization_id;
  std::string workspace_id;
  std::string project_id;
  std::string center_id;  // the cost center payment requests name
};

struct SeedResult {
  std::string card_id;  // an active saved merchant card (credentials.json `cardId`)
  std::int64_t entities = 0;
};

// Writes the history in one transaction (all or nothing).
StatusOr<SeedResult> SeedHistory(Engine& engine, const SeedPlan& plan);

}  // namespace balcao::sandbox::internal
