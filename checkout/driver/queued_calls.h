// The outbox side of the driver (docs/offline.md, "What queues while offline"): which bank
// calls may wait in the outbox while the bank cannot be reached, the exact request each one
// becomes (the bodies the direct call sends, from bank_calls.h), and the event a settled
// outbox row is for its sale.
// Everything else (card purchases, sessions, dynamic brcodes, reads) needs the bank now.
#pragma once

#include <optional>
#include <string>

#include "checkout/checkout.h"
#include "offline/outbox.h"

namespace balcao::checkout::internal {

// The outbox request for `call` when it may be queued: an invoice create (key: the attempt
// tag, which the body carries, so an unknown outcome is looked up by tag), an invoice cancel
// or a reversal of the payment (PATCHes: idempotent, checked by reading the entity), and the
// lookup of an invoice create whose outcome is unknown (then the create is queued, marked as
// possibly at the bank: the outbox looks it up first). nullopt for every other call. `now`
// stamps a create rebuilt from a lookup (its due date).
std::optional<offline::OutboxRequest> QueueableRequest(const Sale& sale, const BankCall& call, UnixMicros now);
// The event that tells the sale its call now waits in the outbox under `key`.
Queued QueuedEvent(const BankCall& call, const std::string& key, UnixMicros now);
// What a settled outbox row means for its sale: done -> the call's usual answer; refused by
// the bank (failed) or given up before it could reach the bank (dead) -> CallFailed. nullopt
// while the row is on its way, and for a dead row that may have reached the bank (an
// operator's retry makes the outbox look it up first; the sale keeps waiting).
std::optional<Event> OutboxOutcome(const Sale& sale, const offline::OutboxItem& item, UnixMicros now);
// The outbox key the sale's state is waiting for ("" when none).
std::string WaitedKey(const State& state);

}  // namespace balcao::checkout::internal
