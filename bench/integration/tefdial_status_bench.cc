// TEF Dial: how long after a PDV renames its request into req/ the status file is in resp/
// (the PDV waits at most 7 s; the box's budget is 500 ms). The manager runs as in `balcao
// serve` (its watcher writes the status file before anything else); the PDV side renames an ATV
// request in and polls resp/IntPos.Sts every 50 us for its id, so the figure is the manager's,
// not a poll interval's. Arg 1: the manager watches with inotify; 0: it polls every 100 ms.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "integration/tefdial/manager.h"

namespace balcao::integration::tefdial {
namespace {

namespace fs = std::filesystem;

// ATV never reaches the counter; any other request is refused.
class NoCounter : public Counter {
 public:
  void Pay(const PaymentRequest&, std::chrono::milliseconds, std::function<void(PaymentOutcome)> done) override {
    PaymentOutcome o;
    o.result = Result::kNotAllowed;
    done(o);
  }
  void Abort(const AbortRequest&, std::function<void(Status)> done) override { done(OkStatus()); }
  void Reverse(const ReversalRequest&, std::function<void(ReversalOutcome)> done) override { done({}); }
  void Lookup(const RequestIdentity&, std::function<void(StatusLookup)> done) override { done({}); }
};

void BM_StatusFileLatency(benchmark::State& state) {
  std::string pattern = (fs::temp_directory_path() / "tefdial-bench-XXXXXX").string();
  const fs::path dir = ::mkdtemp(pattern.data());
  NoCounter counter;
  ManagerOptions options;
  options.folder = FolderOptions{(dir / "tef").string(), "", std::chrono::milliseconds(100), state.range(0) == 1};
  options.log_path = (dir / "exchange.jsonl").string();
  auto manager = Manager::Open(options, counter, SystemClock::Instance());
  if (!manager.ok()) return state.SkipWithError(manager.status().ToString().c_str());
  (*manager)->Start();
  long long id = 0;
  const fs::path sts = dir / "tef" / "resp" / "IntPos.Sts";
  for (auto _ : state) {
    state.PauseTiming();
    std::error_code ec;
    fs::remove(sts, ec);
    const std::string wanted = "001-000 = " + std::to_string(++id) + "\r\n";
    { std::ofstream(dir / "tef" / "req" / "IntPos.tmp") << "000-000 = ATV\r\n" << wanted << "999-999 = 0\r\n"; }
    state.ResumeTiming();
    const auto started = std::chrono::steady_clock::now();
    fs::rename(dir / "tef" / "req" / "IntPos.tmp", dir / "tef" / "req" / "IntPos.001");
    // The PDV's side, polling every 50 us instead of ACBr's 250 ms: the figure is the manager's.
    for (;;) {
      std::ifstream in(sts);
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (text.find(wanted) != std::string::npos) break;
      if (std::chrono::steady_clock::now() - started > std::chrono::seconds(7))
        return state.SkipWithError("no status file within 7 s");
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }
  (*manager)->Stop();
  fs::remove_all(dir);
}
BENCHMARK(BM_StatusFileLatency)->Arg(1)->Arg(0)->Unit(benchmark::kMicrosecond)->UseRealTime()->Iterations(200);

}  // namespace
}  // namespace balcao::integration::tefdial

BENCHMARK_MAIN();
