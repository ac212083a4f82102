#include "hub/chain_settle.h"

#include "settlement/store_run.h"

namespace balcao::hub {

StatusOr<ChainNight> SettleChain(HubStore& store, const api::Bank& bank, const ChainSettleOptions& options) {
  BALCAO_ASSIGN_OR_RETURN(const UnixMicros from, BusinessDayStart(options.day));
  const UnixMicros to = from + 86400 * kMicrosPerSecond;
  ChainNightInput input;
  input.day = options.day;
  BALCAO_ASSIGN_OR_RETURN(input.nights, store.Nights(options.day));
  // When the lanes' nights of the day before ran: what they counted is not this night's.
  BALCAO_ASSIGN_OR_RETURN(input.previous_nights, store.Nights(BusinessDayOf(from - 1)));
  BALCAO_ASSIGN_OR_RETURN(std::vector<EnrolledLane> lanes, store.ActiveLanes());
  for (const EnrolledLane& lane : lanes)
    if (lane.enrolled < to) input.enrolled.insert({lane.store, lane.terminal});
  BALCAO_ASSIGN_OR_RETURN(input.routed, store.RoutedSince(from));
  // Pruned past the replay window (hub.cc): an older day's events cannot be counted.
  input.events_kept = from >= options.now - options.replay_window_days * 86400 * kMicrosPerSecond;
  settlement::StoreRunOptions read{options.day};
  read.connections = options.connections;
  BALCAO_RETURN_IF_ERROR(settlement::ReadAccountDay(bank, read, &input.entities, &input.ledger).status());
  return ReconcileChain(input);
}

}  // namespace balcao::hub
