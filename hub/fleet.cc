#include "hub/fleet.h"

#include <map>
#include <nlohmann/json.hpp>

namespace balcao::hub {
namespace {

using nlohmann::json;

bool Silent(const FleetLane& lane, UnixMicros now) {
  return lane.heartbeat_json.empty() || now - lane.last_seen > kSilentAfter;
}

// A health item of the heartbeat ({"ok", "message"}) as two fields of the lane.
void Check(const json& health, const char* name, json& out) {
  const json item = health.is_object() && health.contains(name) ? health[name] : json();
  out[std::string(name) + "_ok"] = item.is_object() ? item.value("ok", false) : false;
  out[name] = item.is_object() ? item.value("message", "") : "unknown";
}

json LaneJson(const FleetLane& lane, UnixMicros now, const std::string& day) {
  json out = {{"terminal", lane.terminal},
              {"seen", !lane.heartbeat_json.empty()},
              {"last_seen", lane.heartbeat_json.empty() ? "" : FormatTimestamp(lane.last_seen)},
              {"silent", Silent(lane, now)},
              {"events_routed", lane.events_routed},
              {"tampered", !lane.chain_alarm.empty()},
              {"chain", lane.chain_alarm.empty() ? "ok" : lane.chain_alarm}};
  const json beat = json::parse(lane.heartbeat_json.empty() ? "{}" : lane.heartbeat_json, nullptr, false);
  const json health = beat.is_object() ? beat.value("health", json::object()) : json::object();
  out["version"] = beat.is_object() ? beat.value("version", "") : "";
  for (const char* name : {"bank", "clock", "disk", "printer"}) Check(health, name, out);
  out["clock_offset_s"] =
      health.contains("clock") && health["clock"].is_object() ? health["clock"].value("offset_s", 0LL) : 0LL;
  out["disk_free_bytes"] = beat.is_object() ? beat.value("disk_free_bytes", -1LL) : -1LL;
  const json queue = beat.is_object() ? beat.value("queue", json::object()) : json::object();
  out["queue_depth"] = queue.is_object() ? queue.value("depth", 0LL) : 0LL;
  out["queue_oldest_age_s"] = queue.is_object() ? queue.value("oldest_age_s", 0LL) : 0LL;
  out["open_sales"] = beat.is_object() ? beat.value("open_sales", 0LL) : 0LL;
  out["last_sale_at"] = beat.is_object() ? beat.value("last_sale_at", "") : "";
  const json today = beat.is_object() ? beat.value("today", json::object()) : json::object();
  const bool of_today = today.is_object() && today.value("day", "") == day;
  out["today"] = {{"sales", of_today ? today.value("sales", 0LL) : 0LL},
                  {"collected", of_today ? today.value("collected", 0LL) : 0LL}};
  return out;
}

void AddToday(json& into, const json& lane_today) {
  into["sales"] = into.value("sales", 0LL) + lane_today.value("sales", 0LL);
  into["collected"] = into.value("collected", 0LL) + lane_today.value("collected", 0LL);
}

}  // namespace

FleetCounts CountFleet(const std::vector<FleetLane>& lanes, UnixMicros now) {
  FleetCounts counts;
  for (const FleetLane& lane : lanes) {
    ++counts.lanes;
    counts.silent += Silent(lane, now);
    counts.tampered += !lane.chain_alarm.empty();
  }
  return counts;
}

std::string FleetJson(const std::vector<FleetLane>& lanes, UnixMicros now, const std::string& day) {
  std::map<std::string, json> stores;
  json total = {{"sales", 0}, {"collected", 0}};
  for (const FleetLane& lane : lanes) {
    json& store = stores[lane.store];
    if (store.is_null())
      store = {{"store", lane.store}, {"today", {{"sales", 0}, {"collected", 0}}}, {"lanes", json::array()}};
    json row = LaneJson(lane, now, day);
    AddToday(store["today"], row["today"]);
    AddToday(total, row["today"]);
    store["lanes"].push_back(std::move(row));
  }
  const FleetCounts counts = CountFleet(lanes, now);
  json doc = {{"now", FormatTimestamp(now)}, {"day", day},     {"lanes", counts.lanes},  {"silent", counts.silent},
              {"tampered", counts.tampered}, {"today", total}, {"stores", json::array()}};
  for (auto& [id, store] : stores) doc["stores"].push_back(std::move(store));
  return doc.dump();
}

}  // namespace balcao::hub
