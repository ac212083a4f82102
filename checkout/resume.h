// What a restarted driver must do for a sale replayed from its journal: the journal holds
// the events up to the crash, but not what happened to the effect that was running. Pure.
//  - a create (session, purchase, brcode, invoice) may have reached the bank: it is treated
//    as an outcome-unknown failure, so the sale looks it up by its attempt tag before
//    anything is sent again (never a blind re-send);
//  - a lookup, final read, cancel or reversal that was in flight is treated as failed, so it
//    is retried after the retry timer (reads and PATCHes are idempotent);
//  - a request waiting in the outbox (InvoiceQueued, a queued cancel or reversal) is not in
//    flight here: only the outbox sends it, and the driver asks the outbox (Reconcile);
//  - timers (polls, countdowns, retries) are not journaled: they are re-armed from the state.
// Thread-safety: pure functions.
#pragma once

#include <vector>

#include "checkout/checkout.h"

namespace balcao::checkout {

// Events to feed (and journal) right after the replay, in order. `now` stamps them.
std::vector<Event> ResumeEvents(const Sale& sale, UnixMicros now);
// Timers the state needs armed after the replay (and after ResumeEvents).
std::vector<SetTimer> TimersFor(const Sale& sale, UnixMicros now);

}  // namespace balcao::checkout
