#include "hub/fleet.h"

#include <cctype>
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

bool IsFleetLanguage(std::string_view language) { return language == "pt-BR" || language == "en-US"; }

namespace {
std::string_view Trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}
// A q-value ("1", "0.8", "0.125") in thousandths; -1 when it is not one.
int Thousandths(std::string_view q) {
  if (q.empty() || (q[0] != '0' && q[0] != '1')) return -1;
  int value = (q[0] - '0') * 1000;
  if (q.size() == 1) return value;
  if (q[1] != '.' || q.size() > 5) return -1;
  int scale = 100;
  for (char c : q.substr(2)) {
    if (c < '0' || c > '9') return -1;
    value += (c - '0') * scale;
    scale /= 10;
  }
  return value > 1000 ? -1 : value;
}
}  // namespace

std::string FleetLanguage(std::string_view chosen, std::string_view accept_language) {
  if (IsFleetLanguage(chosen)) return std::string(chosen);
  std::string best = "pt-BR";
  int best_q = 0;
  for (std::size_t at = 0; at <= accept_language.size();) {
    std::size_t end = accept_language.find(',', at);
    if (end == std::string_view::npos) end = accept_language.size();
    std::string_view range = Trimmed(accept_language.substr(at, end - at));
    at = end + 1;
    int q = 1000;
    if (const std::size_t semi = range.find(';'); semi != std::string_view::npos) {
      const std::string_view parameter = Trimmed(range.substr(semi + 1));
      q = parameter.starts_with("q=") ? Thousandths(parameter.substr(2)) : -1;
      range = Trimmed(range.substr(0, semi));
    }
    std::string primary(range.substr(0, range.find('-')));
    for (char& c : primary) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const char* language = primary == "pt" ? "pt-BR" : primary == "en" ? "en-US" : nullptr;
    if (language != nullptr && q > best_q) {
      best = language;
      best_q = q;
    }
  }
  return best;
}

}  // namespace balcao::hub
