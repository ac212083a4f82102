// The ids of the bank events taken, on the store.
#include "offline/applied_events.h"

#include "offline/internal/db.h"

namespace balcao::offline {
namespace {

using internal::Stmt;
using internal::Txn;

constexpr std::int64_t kMicrosPerMilli = 1000;

}  // namespace

AppliedEvents::AppliedEvents(Store& store, const Clock& clock, std::chrono::seconds retention)
    : store_(store), clock_(clock), retention_(retention.count() > 0 ? retention : kDefaultRetention) {}

bool AppliedEvents::OlderThanWindow(UnixMicros created) const {
  return created < clock_.Now() - retention_.count() * kMicrosPerSecond;
}

StatusOr<std::optional<AppliedEvent>> AppliedEvents::Find(const std::string& event_id) {
  Txn txn(store_.impl(), Txn::kRead);
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt stmt(txn, "SELECT sale_id, outcome, created_at, applied_at FROM applied_events WHERE event_id = ?1");
  BALCAO_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, event_id).Step());
  if (!found) return std::optional<AppliedEvent>();
  return std::optional<AppliedEvent>(
      AppliedEvent{event_id, stmt.Text(0), stmt.Text(1), stmt.Int(2) * kMicrosPerMilli, stmt.Int(3) * kMicrosPerMilli});
}

Status AppliedEvents::Record(const AppliedEvent& event) {
  if (event.event_id.empty()) return InvalidArgumentError("event_id: must not be empty");
  if (event.outcome != "applied" && event.outcome != "ignored")
    return InvalidArgumentError("outcome: must be applied or ignored, not '" + event.outcome + "'");
  // The first record stands: a second one (a crash between applying and recording, then the
  // same event applied again) says nothing new.
  return internal::RunWrite(store_.impl(),
                            "INSERT INTO applied_events (event_id, sale_id, outcome, created_at, applied_at) "
                            "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (event_id) DO NOTHING",
                            event.event_id, event.sale_id, event.outcome, event.created / kMicrosPerMilli,
                            clock_.Now() / kMicrosPerMilli)
      .status();
}

StatusOr<int> AppliedEvents::Prune() {
  // A row goes when its whole millisecond lies before the window's edge: a delivery of its
  // event is then refused by OlderThanWindow, whatever its microseconds.
  const std::int64_t edge_ms = (clock_.Now() - retention_.count() * kMicrosPerSecond) / kMicrosPerMilli;
  Txn txn(store_.impl(), Txn::kWrite);
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt prune(txn, "DELETE FROM applied_events WHERE created_at < ?1");
  BALCAO_RETURN_IF_ERROR(prune.Bind(1, edge_ms).Run());
  const int forgotten = prune.Changes();
  BALCAO_RETURN_IF_ERROR(txn.Commit());
  return forgotten;
}

StatusOr<int> AppliedEvents::PruneIfDue() {
  const UnixMicros now = clock_.Now();
  UnixMicros due = next_prune_at_.load();
  if (now < due) return 0;
  // One caller wins the slot; the others see it taken.
  const UnixMicros next = now + std::chrono::duration_cast<std::chrono::microseconds>(kPruneInterval).count();
  if (!next_prune_at_.compare_exchange_strong(due, next)) return 0;
  auto pruned = Prune();
  if (!pruned.ok()) next_prune_at_.store(0);  // tried again at the next call
  return pruned;
}

}  // namespace balcao::offline
