// One unit of the drainer's work, synchronous: send a claimed row, or look up a row
// whose outcome is unknown, and record what happened in the outbox. Shared by the
// Asio drainer and `balcao queue drain`.
#pragma once

#include <string>

#include "common/status.h"
#include "offline/bank_gateway.h"
#include "offline/outbox.h"

namespace balcao::offline::internal {

enum class StepResult { kDone, kNotSent, kUnknown, kFailed, kAbsent, kLookupFailed };

// How the bank answered a lookup.
struct LookupAnswer {
  bool found = false;
  std::string bank_id;
  std::string entity;  // JSON of the entity found
};

// Asks the bank whether `item` took effect (see LookupBy). Errors: the lookup failed.
StatusOr<LookupAnswer> Lookup(BankGateway& bank, const OutboxItem& item);

// The entity id in a create/patch answer ({"invoices":[{"id":..}]}, {"session":{..}}).
std::string ExtractBankId(const std::string& response_body);

// Runs `work` against the bank and records the outcome. `jitter_unit` in [0, 1).
// An error means the outbox could not record it (the row stays as claimed and is
// recovered as unknown on the next start).
StatusOr<StepResult> RunStep(Outbox& outbox, BankGateway& bank, const OutboxWork& work, double jitter_unit);

}  // namespace balcao::offline::internal
