// The fleet as the hub's web page and /metrics show it (docs/hub.md, "The fleet page"), pure:
// every enrolled lane with its last heartbeat (version, clock offset, disk, queue, printer,
// bank, last sale, today's sales), silent when no heartbeat came for kSilentAfter, its journal
// flagged when a head contradicted what the hub saw (chain_watch.h); grouped by store with
// today's totals. Thread-safety: pure functions over values.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/time.h"

namespace balcao::hub {

// Ten heartbeats of 30 s missed.
inline constexpr UnixMicros kSilentAfter = 5 * 60 * kMicrosPerSecond;

struct FleetLane {
  std::string store, terminal;
  std::string heartbeat_json;  // "" when none came yet
  UnixMicros last_seen = 0;
  std::string chain_alarm;  // "" when its journal extends every head seen
  long long events_routed = 0;
};

struct FleetCounts {
  int lanes = 0, silent = 0, tampered = 0;
};
FleetCounts CountFleet(const std::vector<FleetLane>& lanes, UnixMicros now);

// {"now", "lanes", "silent", "tampered", "today": {"sales", "collected"}, "stores": [{"store",
//  "today", "lanes": [{"terminal", "seen", "last_seen", "silent", "version", "clock_offset_s",
//  "clock_ok", "disk_free_bytes", "disk_ok", "disk", "queue_depth", "queue_oldest_age_s",
//  "printer_ok", "printer", "bank_ok", "bank", "last_sale_at", "today", "open_sales",
//  "events_routed", "tampered", "chain"}]}]}; a lane's today counts only when its heartbeat is
// of today (`day`).
std::string FleetJson(const std::vector<FleetLane>& lanes, UnixMicros now, const std::string& day);

// The page's languages: pt-BR, the one it is written in, and en-US (hub/web/i18n.js).
bool IsFleetLanguage(std::string_view language);
// The language the page is served in: the user's choice (`chosen`, its cookie) when it names
// one, else the Portuguese or English of Accept-Language with the highest q (the first of equal
// ones; q=0 refuses), else pt-BR.
std::string FleetLanguage(std::string_view chosen, std::string_view accept_language);

}  // namespace balcao::hub
