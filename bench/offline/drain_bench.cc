// Drain throughput: invoice creates sent by DrainNow through the api client to the
// in-process sandbox over loopback HTTP (no faults), 4 lanes.
#include <benchmark/benchmark.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "offline/api_gateway.h"
#include "offline/drainer.h"
#include "sandbox/sandbox.h"

namespace balcao::offline {
namespace {

void BM_DrainToSandbox(benchmark::State& state) {
  std::string pattern = (std::filesystem::temp_directory_path() / "offline-drain-XXXXXX").string();
  const std::string dir = ::mkdtemp(pattern.data());
  sandbox::SandboxOptions options;
  options.https = false;
  options.data_dir = dir + "/sandbox";
  options.db = ":memory:";
  options.threads = 4;
  auto sandbox = sandbox::Sandbox::Start(options);
  if (!sandbox.ok()) return state.SkipWithError(sandbox.status().ToString().c_str());
  auto client = DrainerClient((*sandbox)->credentials().credentials_path);
  if (!client.ok()) return state.SkipWithError(client.status().ToString().c_str());
  ApiGateway bank(*client);
  auto store = std::move(*Store::Open(dir + "/box.db"));
  Outbox outbox(*store);
  const int rows = static_cast<int>(state.range(0));
  std::int64_t total = 0, n = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<OutboxRequest> requests;
    for (int i = 0; i < rows; ++i) {
      OutboxRequest r;
      r.key = "bench-" + std::to_string(n++);
      r.kind = "invoice.create";
      r.method = "POST";
      r.path = "/v2/invoice";
      r.body = nlohmann::json{{"invoices",
                               {{{"amount", 1000}, {"name", "Ana Lima"}, {"taxId", "33745107608"}, {"tags", {r.key}}}}}}
                   .dump();
      r.sale_id = r.key;
      requests.push_back(std::move(r));
    }
    if (!outbox.EnqueueAll(requests).ok()) return state.SkipWithError("enqueue failed");
    state.ResumeTiming();
    auto stats =
        DrainNow(outbox, bank, {.concurrency = 4}, true, std::chrono::steady_clock::now() + std::chrono::minutes(5));
    if (!stats.ok() || stats->done != rows) return state.SkipWithError("drain failed");
    total += rows;
  }
  state.SetItemsProcessed(total);
  store.reset();
  sandbox->reset();
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_DrainToSandbox)->Arg(200)->Iterations(3)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace balcao::offline
