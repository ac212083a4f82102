// The journaled form of checkout events: one JSON object per event, {"type": "<Event>",
// ...fields}, so the driver can store each event in the sale journal before running its
// effects and replay the journal after a crash. Only events are journaled (never states or
// effects), and no event holds card data.
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "checkout/checkout.h"
#include "common/status.h"

namespace balcao::checkout {

// {"type":"DepositSeen","deposit_id":"...","brcode_uuid":"...","amount":1000,"at":...}
std::string EventToJson(const Event& event);
// kInvalidArgument naming the field and the rule when `text` is not a journaled event.
StatusOr<Event> EventFromJson(std::string_view text);

// Replays events through Next() from a fresh Sale. Rejected events are kept in the journal
// on purpose (they are part of the record) and replay to the same rejection, so they are
// skipped here too. Returns the sale after the last event.
Sale Replay(const std::vector<Event>& events);

}  // namespace balcao::checkout
