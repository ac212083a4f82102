// Reconcile() and ReportJson() over a synthetic day of N Pix sales, each paid and matched by
// its deposit (the common case: every sale compared entity by entity, totalled).
#include <benchmark/benchmark.h>

#include <string>

#include "checkout/journal_codec.h"
#include "settlement/report.h"
#include "settlement/settlement.h"

namespace balcao::settlement {
namespace {

using namespace checkout;

DayInput SyntheticDay(int sales) {
  DayInput day;
  day.day = "2026-11-21";
  day.now = 1'763'700'000'000'000;
  for (int i = 0; i < sales; ++i) {
    const std::string id = "s-" + std::to_string(i), uuid = "b-" + std::to_string(i);
    const std::string deposit = "d-" + std::to_string(i);
    const Cents amount = 1000 + i;
    const Sale sale =
        Replay({Start{id, amount, Settings{}, 1}, ChooseMethod{Method::kPix, {}, 2},
                BrcodeCreated{1, uuid, "000201", 3'000'000'000, 3}, DepositSeen{deposit, uuid, amount, 4}});
    day.sales.push_back({sale, 1, true, false});
    day.journaled.insert(id);
    BankEntity e{BankKind::kDeposit, deposit, id, "created", amount};
    e.brcode_uuid = uuid;
    e.ledger_in = amount;
    day.bank.push_back(e);
  }
  return day;
}

void BM_Reconcile(benchmark::State& state) {
  const DayInput day = SyntheticDay(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(Reconcile(day));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Reconcile)->Arg(100)->Arg(10'000);

void BM_ReportJson(benchmark::State& state) {
  const Report report = Reconcile(SyntheticDay(static_cast<int>(state.range(0))));
  for (auto _ : state) benchmark::DoNotOptimize(ReportJson(report));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ReportJson)->Arg(10'000);

}  // namespace
}  // namespace balcao::settlement
