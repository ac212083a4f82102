#include <benchmark/benchmark.h>

#include "printer/interpreter.h"
#include "printer/render.h"
#include "printer/samples.h"

namespace balcao::printer {
namespace {

// Arguments: sample kind index, profile (0 = 58mm raster QR, 1 = 80mm native QR).
const char* Kind(const benchmark::State& s) { return SampleKinds()[static_cast<size_t>(s.range(0))].c_str(); }
const PrinterProfile& Profile(const benchmark::State& s) { return *FindProfile(s.range(1) == 0 ? "58mm" : "80mm"); }

void Label(benchmark::State& s) { s.SetLabel(std::string(Kind(s)) + "/" + Profile(s).name); }

void BM_EscPos(benchmark::State& state) {
  const Document d = *SampleDocument(Kind(state));
  size_t bytes = 0;
  for (auto _ : state) {
    StatusOr<std::string> out = RenderEscPos(d, Profile(state));
    bytes = out->size();
    benchmark::DoNotOptimize(out);
  }
  state.counters["bytes"] = static_cast<double>(bytes);
  Label(state);
}

void BM_Png(benchmark::State& state) {
  const Document d = *SampleDocument(Kind(state));
  for (auto _ : state) benchmark::DoNotOptimize(RenderPng(d, Profile(state)));
  Label(state);
}

void BM_Text(benchmark::State& state) {
  const Document d = *SampleDocument(Kind(state));
  for (auto _ : state) benchmark::DoNotOptimize(RenderText(d, Profile(state)));
  Label(state);
}

void BM_Interpret(benchmark::State& state) {
  const std::string bytes = *RenderEscPos(*SampleDocument(Kind(state)), Profile(state));
  const InterpreterOptions o = InterpreterOptions::ForProfile(Profile(state));
  for (auto _ : state) benchmark::DoNotOptimize(Interpret(bytes, o));
  Label(state);
}

// card (0), pix (1), invoice (3), qr / 3-D Secure link (7), on both widths.
void Cases(benchmark::internal::Benchmark* b) {
  for (int kind : {0, 1, 3, 7}) {
    for (int profile : {0, 1}) b->Args({kind, profile});
  }
}

BENCHMARK(BM_EscPos)->Apply(Cases)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Png)->Apply(Cases)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Text)->Args({0, 1})->Args({1, 1})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Interpret)->Args({1, 0})->Args({1, 1})->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace balcao::printer

BENCHMARK_MAIN();
