// The bank events this box has taken, by event id (table applied_events, migration
// 0006_applied_events.sql; docs/security.md, "Webhook deliveries"): what makes a replayed
// webhook delivery change nothing. An id is kept for a retention window counted from the
// event's own `created`; an event older than the window is refused by its age (OlderThanWindow)
// before its id is looked up, so an id is forgotten only once it could not be accepted anyway.
// Crash contract: Record is durable when it returns OK. The caller records after the event is
// applied (an event recorded but not applied would be lost), so a crash in between applies it
// once more on the next delivery: what it is applied to must take it twice without harm.
// Thread-safety: as Store; PruneIfDue may be called from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <string>

#include "common/status.h"
#include "common/time.h"
#include "offline/store.h"

namespace balcao::offline {

struct AppliedEvent {
  std::string event_id;
  std::string sale_id;        // the sale it was about; "" when none
  std::string outcome;        // "applied" or "ignored" (nothing of this box's)
  UnixMicros created = 0;     // the event's `created` (the bank's clock), kept to the millisecond
  UnixMicros applied_at = 0;  // when this box recorded it (the clock given), to the millisecond
};

class AppliedEvents {
 public:
  static constexpr std::chrono::hours kDefaultRetention{7 * 24};
  static constexpr std::chrono::hours kPruneInterval{1};

  // `clock` tells the window's edge and stamps applied_at; `retention` must be positive.
  AppliedEvents(Store& store, const Clock& clock, std::chrono::seconds retention = kDefaultRetention);

  std::chrono::seconds retention() const { return retention_; }
  // True when an event created at `created` is before the window (now - retention): its id
  // may have been pruned, so a delivery of it must be refused rather than looked up.
  bool OlderThanWindow(UnixMicros created) const;

  // The record of `event_id`, or nullopt when this box has not taken it (or pruned it).
  StatusOr<std::optional<AppliedEvent>> Find(const std::string& event_id);
  // Records a taken event; `applied_at` is set from the clock. Idempotent: recording an id
  // again keeps the first record and returns OK. kInvalidArgument: an empty id or an
  // outcome other than "applied"/"ignored"; else the store's errors.
  Status Record(const AppliedEvent& event);
  // Forgets the ids of events created before the window. Returns how many.
  StatusOr<int> Prune();
  // Prune, when the last one ran at least kPruneInterval ago (the first call always prunes).
  // Returns how many were forgotten (0 when not due).
  StatusOr<int> PruneIfDue();

 private:
  Store& store_;
  const Clock& clock_;
  const std::chrono::seconds retention_;
  std::atomic<UnixMicros> next_prune_at_{0};
};

}  // namespace balcao::offline
