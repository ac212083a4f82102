#include "settlement/store_payout.h"

#include "common/money.h"
#include "settlement/store_run.h"

namespace balcao::settlement {

std::vector<std::string> LanesWithholding(const StoreDay& store, const StorePayoutRun& run) {
  std::vector<std::string> why;
  bool running_lane_named = false;
  for (const LaneDay& lane : store.lanes) {
    std::string reasons;
    const auto add = [&reasons](const std::string& reason) { reasons += (reasons.empty() ? "" : "; ") + reason; };
    if (lane.awaiting_capture > 0)
      add(std::to_string(lane.awaiting_capture) + " card purchase(s) approved and not captured yet");
    if (lane.held != lane.total.net())
      add("its entities hold " + FormatBrl(lane.held) + ", their ledger lines " + FormatBrl(lane.total.net()));
    if (!lane.unexplained.empty())
      add(std::to_string(lane.unexplained.size()) + " entit(ies) with its tags and no sale's");
    if (lane.terminal == run.terminal && !run.lane_reconciled) {
      add("its night needs the operator (" + std::to_string(run.lane_attention) + " item(s))");
      running_lane_named = true;
    }
    if (!reasons.empty()) why.push_back("lane " + lane.terminal + ": " + reasons);
  }
  if (!run.terminal.empty() && !run.lane_reconciled && !running_lane_named)
    why.push_back("lane " + run.terminal + ": its night needs the operator (" + std::to_string(run.lane_attention) +
                  " item(s))");
  return why;
}

StatusOr<Payout> PayStore(const api::Bank& bank, const PayoutSettings& settings, const StoreDay& store,
                          const StorePayoutRun& run) {
  const std::vector<std::string> withheld_for = LanesWithholding(store, run);
  PayoutInput input{run.day, withheld_for.empty(), run.dry_run, store.sum.day_ledger, run.balance_known, run.balance};
  if (!withheld_for.empty()) {
    input.withheld_why = "the store's day does not reconcile on " + std::to_string(withheld_for.size()) +
                         " lane(s): nothing is paid out until every lane's does";
  }
  BALCAO_ASSIGN_OR_RETURN(Payout payout, RunPayout(bank, settings, input));
  payout.scope = "store";
  payout.store_net = store.sum.day_ledger;
  payout.earlier_net = store.sum.earlier_net;
  payout.lanes = static_cast<int>(store.lanes.size());
  payout.lane = run.terminal;
  for (const LaneDay& lane : store.lanes)
    if (lane.terminal == run.terminal) payout.lane_share = lane.day_ledger;
  payout.withheld_for = withheld_for;
  return payout;
}

StatusOr<Payout> RunStorePayout(const api::Bank& bank, const PayoutSettings& settings, const StorePayoutRun& run) {
  if (!settings.enabled) return Payout{};
  StoreRunOptions options{run.day};
  options.connections = run.connections;
  BALCAO_ASSIGN_OR_RETURN(AccountDay account, ReadAccountDay(bank, options));
  const StoreDay* store = FindStore(account, run.store_id);
  StoreDay empty;
  empty.sum.store = run.store_id;
  for (const char* method : {"credit", "debit", "pix", "invoice"}) empty.sum.methods.push_back({method});
  return PayStore(bank, settings, store != nullptr ? *store : empty, run);
}

}  // namespace balcao::settlement
