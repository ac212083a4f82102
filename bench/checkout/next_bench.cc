// Next() on typical steps of a sale, and a whole Pix sale from Start to Paid replayed from
// its journal (what a restarted driver pays per open sale).
#include <benchmark/benchmark.h>

#include <vector>

#include "checkout/checkout.h"
#include "checkout/journal_codec.h"

namespace balcao::checkout {
namespace {

constexpr UnixMicros kT0 = 1'763'700'000'000'000;

std::vector<Event> PixSale() {
  return {Start{"bench-1", 1000, Settings{}, kT0},
          ChooseMethod{Method::kPix, {}, kT0 + 1},
          BrcodeCreated{1, "u1", "000201...", kT0 + 600'000'000, kT0 + 2},
          TimerFired{Timer::kPoll, kT0 + 3'000'000},
          NothingFound{EntityKind::kDeposit, 1, kT0 + 3'100'000},
          DepositSeen{"d1", "u1", 1000, kT0 + 5'000'000}};
}

void BM_NextDepositPaysPix(benchmark::State& state) {
  std::vector<Event> events = PixSale();
  const Event deposit = events.back();
  events.pop_back();
  const Sale showing = Replay(events);
  for (auto _ : state) benchmark::DoNotOptimize(Next(showing, deposit));
}
BENCHMARK(BM_NextDepositPaysPix);

void BM_NextRejected(benchmark::State& state) {
  const Sale showing = Replay({Start{"bench-1", 1000, Settings{}, kT0}});
  const Event stray = Reversed{"x", 0, kT0};
  for (auto _ : state) benchmark::DoNotOptimize(Next(showing, stray));
}
BENCHMARK(BM_NextRejected);

void BM_ReplayPixSaleFromJournalText(benchmark::State& state) {
  std::vector<std::string> journal;
  for (const Event& e : PixSale()) journal.push_back(EventToJson(e));
  for (auto _ : state) {
    std::vector<Event> events;
    for (const std::string& line : journal) events.push_back(*EventFromJson(line));
    benchmark::DoNotOptimize(Replay(events));
  }
}
BENCHMARK(BM_ReplayPixSaleFromJournalText);

}  // namespace
}  // namespace balcao::checkout
