// Where the hub sends a bank event (pure): to the NATS subject of the lane that owns its entity,
// named by the entity's tags (docs/stores.md, "Tags"), `balcao.events.<store>.<terminal>`; an
// entity no lane's tags name goes to `balcao.events.unclaimed`. A Pix deposit carries only
// `dynamic-brcode/<uuid>`: its lane is its brcode's, which the hub looks up at the bank.
// docs/hub.md, "Subjects".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/events.h"

namespace balcao::hub {

inline constexpr std::string_view kEventsPrefix = "balcao.events.";
inline constexpr std::string_view kUnclaimedSubject = "balcao.events.unclaimed";

// "balcao.events.<store>.<terminal>": ids as checkout::LaneIdRule allows (no '.', '*', '>').
std::string LaneSubject(std::string_view store, std::string_view terminal);
// The lane's durable consumer: "lane_<store>_<terminal>" ('_' is in no id, so no two lanes meet).
std::string ConsumerName(std::string_view store, std::string_view terminal);
// The lane's NATS user, and the prefix its replies (pull answers) come under.
std::string LaneUser(std::string_view store, std::string_view terminal);
std::string LaneInbox(std::string_view store, std::string_view terminal);
// What a lane's box publishes itself (heartbeats): "balcao.box.<store>.<terminal>.<kind>".
std::string BoxSubject(std::string_view store, std::string_view terminal, std::string_view kind);
// The kinds of a box's requests about its phone-card pages (phone_home.h): a session announced,
// and a session whose sale no longer waits on it.
inline constexpr const char* kPhoneKind = "phone";
inline constexpr const char* kPhoneEndedKind = "phone-ended";
// The lane and kind of a BoxSubject; false when `subject` is not one.
struct BoxSubjectParts {
  std::string store, terminal, kind;
};
bool ParseBoxSubject(std::string_view subject, BoxSubjectParts& parts);

struct Route {
  std::string subject;  // where it goes; empty while `brcode_uuid` waits for its lookup
  std::string store;    // the lane's ids; empty when unclaimed
  std::string terminal;
  std::string brcode_uuid;  // a deposit: its brcode's tags decide (RouteOfTags on them)
};
// The route of an entity's tags (a lane's tags, or none: unclaimed).
Route RouteOfTags(const std::vector<std::string>& tags);
// The route of a delivered event, from its log's entity tags.
Route RouteOfEvent(const api::Event& event);

}  // namespace balcao::hub
