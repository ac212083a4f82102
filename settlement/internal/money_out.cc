#include "settlement/internal/money_out.h"

#include "settlement/payout.h"
#include "settlement/report.h"
#include "settlement/store_payout.h"

namespace balcao::settlement::internal {
namespace {

// The store's payout (settlement/store_payout.h) when the box has a lane and payouts are per
// store; else this lane's (or a box's without lanes) own net under its own externalId.
StatusOr<Payout> DecidePayout(const api::Bank& bank, const SettleOptions& options, const MoneyOutInput& input,
                              const Report& report) {
  const bool has_lane = input.lane.starts_with(checkout::kStoreTagPrefix);
  if (options.payout.enabled && !options.payout.per_lane && has_lane) {
    const auto [store_id, terminal] = SplitLaneRoot(input.lane);
    StorePayoutRun run{options.day,         store_id,         terminal,
                       report.reconciled(), report.attention, options.dry_run,
                       input.balance_known, input.balance};
    run.connections = options.connections;
    return RunStorePayout(bank, options.payout, run);
  }
  PayoutInput payout_input{options.day,         report.reconciled(),
                           options.dry_run,     report.total.gross - report.total.refunds,
                           input.balance_known, input.balance};
  if (options.payout.per_lane && has_lane)
    payout_input.external_id = PayoutExternalId(options.payout.store, options.day, SplitLaneRoot(input.lane).second);
  return RunPayout(bank, options.payout, payout_input);
}

}  // namespace

MoneyOutInput MoneyOutOf(const DayInput& input) {
  MoneyOutInput out{{}, input.ledger.balance_known, input.ledger.balance, input.lane};
  // This lane's card purchases only: the day's bank read also holds the store's other lanes'
  // (each lane's report lists its own receivables; `settle --store` sums the store).
  for (const BankEntity& e : input.bank)
    if (e.kind == BankKind::kPurchase && !e.sale_id.empty() && (e.lane.empty() || e.lane == input.lane))
      out.purchases.push_back(e.id);
  return out;
}

Status AddMoneyOut(const api::Bank& bank, const SettleOptions& options, const MoneyOutInput& input,
                   const Report& report, UnixMicros from, Settlement& result) {
  const std::vector<std::string>& purchases = input.purchases;
  BALCAO_ASSIGN_OR_RETURN(std::vector<Receivable> receivables, ReadReceivables(bank, purchases, from));
  BALCAO_ASSIGN_OR_RETURN(Payout payout, DecidePayout(bank, options, input, report));
  result.json = WithMoneyOut(result.json, payout, receivables, report.lang);
  result.text += MoneyOutText(payout, receivables, report.lang);
  return OkStatus();
}

}  // namespace balcao::settlement::internal
