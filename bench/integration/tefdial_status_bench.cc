// TEF Dial: how long after a PDV renames its request into req/ the status file is in resp/
// (the PDV waits at most 7 s; the box's budget is 500 ms). The manager runs as in `balcao
// serve` (its watcher writes the status file before anything else); the PDV side renames an ATV
// request in and waits for resp/IntPos.Sts with inotify, so the figure is the manager's, not a
// poll interval's. Arg 1: the manager watches with inotify; 0: it polls every 100 ms.
#include <benchmark/benchmark.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

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
  const int watch = ::inotify_init1(IN_CLOEXEC);
  ::inotify_add_watch(watch, (dir / "tef" / "resp").c_str(), IN_MOVED_TO);
  long long id = 0;
  for (auto _ : state) {
    state.PauseTiming();
    fs::remove(dir / "tef" / "resp" / "IntPos.Sts");
    {
      std::ofstream(dir / "tef" / "req" / "IntPos.tmp")
          << "000-000 = ATV\r\n001-000 = " << ++id << "\r\n999-999 = 0\r\n";
    }
    state.ResumeTiming();
    fs::rename(dir / "tef" / "req" / "IntPos.tmp", dir / "tef" / "req" / "IntPos.001");
    for (bool seen = false; !seen;) {
      alignas(inotify_event) char buffer[4096];
      const ssize_t n = ::read(watch, buffer, sizeof buffer);
      for (ssize_t at = 0; at < n;) {
        const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
        if (event->len > 0 && std::string(event->name) == "IntPos.Sts") seen = true;
        at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      }
    }
  }
  ::close(watch);
  (*manager)->Stop();
  fs::remove_all(dir);
}
BENCHMARK(BM_StatusFileLatency)->Arg(1)->Arg(0)->Unit(benchmark::kMicrosecond)->UseRealTime()->Iterations(200);

}  // namespace
}  // namespace balcao::integration::tefdial

BENCHMARK_MAIN();
