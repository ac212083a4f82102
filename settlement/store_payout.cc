#include "settlement/store_payout.h"

#include "common/money.h"
#include "settlement/store_run.h"

namespace balcao::settlement {
namespace {

// One more reason, after "; ".
void Add(Words& reasons, const Words& reason) {
  reasons.pt_br += (reasons.pt_br.empty() ? "" : "; ") + reason.pt_br;
  reasons.en_us += (reasons.en_us.empty() ? "" : "; ") + reason.en_us;
}
Words OfLane(const std::string& terminal, const Words& reasons) {
  return {"caixa " + terminal + ": " + reasons.pt_br, "lane " + terminal + ": " + reasons.en_us};
}

}  // namespace

std::vector<Words> LanesWithholding(const StoreDay& store, const StorePayoutRun& run) {
  std::vector<Words> why;
  const std::string items = std::to_string(run.lane_attention);
  const Words night{"o fechamento dele pede o operador (" + items + " item(ns))",
                    "its night needs the operator (" + items + " item(s))"};
  bool running_lane_named = false;
  for (const LaneDay& lane : store.lanes) {
    Words reasons;
    if (lane.awaiting_capture > 0) {
      const std::string n = std::to_string(lane.awaiting_capture);
      Add(reasons, {n + " compra(s) no cartão aprovada(s) e ainda não capturada(s)",
                    n + " card purchase(s) approved and not captured yet"});
    }
    if (lane.held != lane.total.net()) {
      const std::string held = FormatBrl(lane.held), lines = FormatBrl(lane.total.net());
      Add(reasons, {"os seus itens têm " + held + ", os seus lançamentos " + lines,
                    "its entities hold " + held + ", their ledger lines " + lines});
    }
    if (!lane.unexplained.empty()) {
      const std::string n = std::to_string(lane.unexplained.size());
      Add(reasons,
          {n + " item(ns) com as suas tags e de nenhuma venda", n + " entit(ies) with its tags and no sale's"});
    }
    if (lane.terminal == run.terminal && !run.lane_reconciled) {
      Add(reasons, night);
      running_lane_named = true;
    }
    if (!reasons.empty()) why.push_back(OfLane(lane.terminal, reasons));
  }
  if (!run.terminal.empty() && !run.lane_reconciled && !running_lane_named) why.push_back(OfLane(run.terminal, night));
  return why;
}

StatusOr<Payout> PayStore(const api::Bank& bank, const PayoutSettings& settings, const StoreDay& store,
                          const StorePayoutRun& run) {
  const std::vector<Words> withheld_for = LanesWithholding(store, run);
  PayoutInput input{run.day, withheld_for.empty(), run.dry_run, store.sum.day_ledger, run.balance_known, run.balance};
  if (!withheld_for.empty()) {
    const std::string n = std::to_string(withheld_for.size());
    input.withheld_why = {
        "o dia da loja não concilia em " + n + " caixa(s): nada é repassado até todos conciliarem",
        "the store's day does not reconcile on " + n + " lane(s): nothing is paid out until every lane's does"};
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
