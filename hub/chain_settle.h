// `balcao hub settle --day D` (docs/hub.md, "The chain's night"): the I/O edge of hub/night.h.
// Reads the boxes' nights and the events routed from PostgreSQL, the enrolled lanes, and the
// bank's day by pages (settlement::ReadAccountDay: the same few calls for 1 lane or 1,000),
// then reconciles. Reads only. Thread-safety: one run at a time per store and bank client.
#pragma once

#include <string>

#include "api/bank.h"
#include "common/status.h"
#include "hub/hub_store.h"
#include "hub/night.h"

namespace balcao::hub {

struct ChainSettleOptions {
  std::string day;             // "YYYY-MM-DD", America/Sao_Paulo
  int replay_window_days = 7;  // routed events older than this are pruned (HubOptions')
  int connections = 4;         // the bank's range lists read at once
  UnixMicros now = 0;
};

StatusOr<ChainNight> SettleChain(HubStore& store, const api::Bank& bank, const ChainSettleOptions& options);

}  // namespace balcao::hub
