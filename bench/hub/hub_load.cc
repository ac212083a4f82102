// The hub under load (docs/performance.md, "## hub"): `balcao hub serve` on real PostgreSQL and
// nats-server -js, N lanes connected (one NATS connection and durable pull consumer each, as
// boxes), and signed webhook deliveries POSTed at R per second spread over the lanes, as the
// bank would. Measures, per delivery, the bank's POST to the hub's 200 and the bank's POST to
// the lane's ack; the hub's CPU and peak RSS; PostgreSQL rows written per event. Not a Google
// Benchmark: it drives live servers. No Caddy in front (its cost is its own).
//   balcao_hub_load [--lanes 1000] [--rate 200] [--seconds 15]
#include <curl/curl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <vector>

#include "api/crypto.h"
#include "hub/hub_store.h"
#include "hub/nats.h"
#include "hub/routing.h"
#include "sandbox/sandbox.h"
#include "tests/hub/engines.h"
#include "tests/testing/loopback.h"

namespace {

using Steady = std::chrono::steady_clock;
using namespace balcao;

struct Samples {
  std::mutex mu;
  std::vector<double> post_ms, ack_ms;
  std::map<std::string, Steady::time_point> posted;  // event id -> when the bank POSTed it
};

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

// utime + stime of `pid` in seconds, and its peak RSS in MiB.
std::pair<double, double> CpuAndPeak(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string skip;
  long utime = 0, stime = 0;
  for (int i = 3; i < 14; ++i) fields >> skip;
  fields >> utime >> stime;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  double peak = 0;
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) peak = std::stod(line.substr(6)) / 1024.0;
  return {static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK)), peak};
}

std::string EventBody(const std::string& id, int lane) {
  const std::string store = "loja-" + std::to_string(lane / 10), terminal = "caixa-" + std::to_string(lane % 10);
  const std::string root = "store/" + store + "/lane/" + terminal;
  const std::string now = "2030-01-01T12:00:00.000000+00:00";
  const nlohmann::json invoice = {
      {"id", "inv-" + id},
      {"status", "paid"},
      {"amount", 1000},
      {"tags", {"store/" + store, root, root + "/sale/v" + id, root + "/sale/v" + id + "/a1"}}};
  return nlohmann::json{{"event",
                         {{"id", id},
                          {"created", now},
                          {"subscription", "invoice"},
                          {"log", {{"id", "log-" + id}, {"type", "paid"}, {"created", now}, {"invoice", invoice}}}}}}
      .dump();
}

size_t Discard(char*, size_t size, size_t count, void*) { return size * count; }

// One poster: `count` deliveries at `interval`, each signed with the bank's webhook key.
void Post(const std::string& url, const api::PrivateKey& key, int first, int count, int lanes,
          std::chrono::microseconds interval, Samples& samples, std::atomic<int>& refused) {
  CURL* curl = curl_easy_init();
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, Discard);
  auto next = Steady::now();
  for (int n = first; n < first + count; ++n) {
    std::this_thread::sleep_until(next);
    next += interval;
    const std::string id = "ev" + std::to_string(n) + "-" + std::to_string(::getpid());
    const std::string body = EventBody(id, n % lanes);
    const std::string signature = "Digital-Signature: " + key.Sign(body);
    curl_slist* headers =
        curl_slist_append(curl_slist_append(nullptr, signature.c_str()), "Content-Type: application/json");
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
    const auto start = Steady::now();
    {
      std::lock_guard lock(samples.mu);
      samples.posted[id] = start;
    }
    const CURLcode sent = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(headers);
    if (sent != CURLE_OK || status != 200) {
      ++refused;
      continue;
    }
    std::lock_guard lock(samples.mu);
    samples.post_ms.push_back(std::chrono::duration<double, std::milli>(Steady::now() - start).count());
  }
  curl_easy_cleanup(curl);
}

// A box's pull: 16 at a time, each pull request open for a second (terminal/service/hub_link.cc's
// kFetchWait). Shorter, 1,000 idle lanes renew their requests so often that nats-server and the
// load generator spend the two cores on it: at 500 ms the lane's ack had a tail at the expiry.
constexpr std::chrono::milliseconds kBoxFetchWait{1000};

// One lane: pulls its consumer and acks, timing each event from its POST.
void Pull(hub::NatsLink& link, Samples& samples, std::atomic<bool>& stop, std::atomic<long>& acked) {
  while (!stop) {
    auto batch = link.Fetch(16, kBoxFetchWait);
    if (!batch.ok()) continue;
    for (hub::PulledMsg& msg : *batch) {
      const std::string id = msg.header("Nats-Msg-Id");
      if (!msg.Ack().ok()) continue;
      ++acked;
      std::lock_guard lock(samples.mu);
      const auto found = samples.posted.find(id);
      if (found != samples.posted.end())
        samples.ack_ms.push_back(std::chrono::duration<double, std::milli>(Steady::now() - found->second).count());
    }
  }
}

// The 1-minute load average of the machine (/proc/loadavg): the figures are read beside it.
std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one;
  in >> one;
  return one.empty() ? "?" : one;
}

size_t Collect(char* data, size_t size, size_t count, void* into) {
  static_cast<std::string*>(into)->append(data, size * count);
  return size * count;
}

// The hub's own account of where each routed delivery's time went: its /metrics stage counters
// (balcao_hub_delivery_stage_seconds_total), in ms per delivery.
void PrintStages(const std::string& metrics_url, std::size_t deliveries) {
  std::string text;
  CURL* curl = curl_easy_init();
  curl_easy_setopt(curl, CURLOPT_URL, metrics_url.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, Collect);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &text);
  const CURLcode got = curl_easy_perform(curl);
  curl_easy_cleanup(curl);
  if (got != CURLE_OK || deliveries == 0) return;
  std::printf("  in the hub, per delivery:");
  const std::string prefix = "balcao_hub_delivery_stage_seconds_total{stage=\"";
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    const std::size_t quote = line.find('"', prefix.size());
    const double seconds = std::atof(line.substr(line.find(' ', quote) + 1).c_str());
    std::printf(" %s %.1f ms", line.substr(prefix.size(), quote - prefix.size()).c_str(),
                1000.0 * seconds / static_cast<double>(deliveries));
  }
  std::printf("\n");
}

// Each lane as a box connects: its own connection, bound to its durable consumer (made here).
std::vector<std::unique_ptr<hub::NatsLink>> ConnectLanes(const std::string& url, int lanes) {
  std::vector<std::unique_ptr<hub::NatsLink>> links;
  auto admin = hub::NatsLink::Connect({url});
  if (!admin.ok()) return links;
  for (int lane = 0; lane < lanes; ++lane) {
    const std::string store = "loja-" + std::to_string(lane / 10), terminal = "caixa-" + std::to_string(lane % 10);
    auto link = hub::NatsLink::Connect({url});
    if (!link.ok() ||
        !(*admin)
             ->EnsureConsumer(hub::kStreamName, hub::ConsumerName(store, terminal), hub::LaneSubject(store, terminal))
             .ok() ||
        !(*link)->Bind(hub::kStreamName, hub::ConsumerName(store, terminal)).ok())
      break;
    links.push_back(*std::move(link));
  }
  return links;
}

}  // namespace

int main(int argc, char** argv) {
  int lanes = 1000, rate = 200, seconds = 15;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const int value = std::atoi(argv[i + 1]);
    if (flag == "--lanes") lanes = std::max(1, value);
    if (flag == "--rate") rate = std::max(1, value);
    if (flag == "--seconds") seconds = std::max(1, value);
  }
  if (std::string missing = hub::testing::Missing(); !missing.empty())
    return std::fprintf(stderr, "%s\n", missing.c_str()), 2;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("balcao-hub-load-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  sandbox::SandboxOptions bank_options;
  bank_options.data_dir = (dir / "bank").string();
  bank_options.https = false;
  auto bank = sandbox::Sandbox::Start(bank_options);
  auto key = api::PrivateKey::FromFile((dir / "bank" / "sandbox-webhook-private-key.pem").string());
  hub::testing::Postgres postgres;
  hub::testing::Nats nats;
  if (!bank.ok() || !key.ok() || !postgres.Start(dir / "pg") || !nats.Start(dir / "nats"))
    return std::fprintf(stderr, "engines did not start (see %s)\n", dir.c_str()), 2;
  const int hub_port = test_util::FreeLoopbackPort();
  hub::testing::Child hub_process;
  hub_process.Start({BALCAO_CLI, "hub", "serve", "--postgres", postgres.conninfo(), "--nats", nats.url(), "--port",
                     std::to_string(hub_port), "--credentials", (*bank)->credentials().credentials_path},
                    dir / "hub.log");
  if (!hub::testing::WaitForPort(hub_port, 30)) return std::fprintf(stderr, "the hub did not start\n"), 2;
  std::vector<std::unique_ptr<hub::NatsLink>> links = ConnectLanes(nats.url(), lanes);
  if (links.size() != static_cast<std::size_t>(lanes)) return std::fprintf(stderr, "lanes did not connect\n"), 2;
  Samples samples;
  std::atomic<bool> stop{false};
  std::atomic<long> acked{0};
  std::atomic<int> refused{0};
  std::vector<std::thread> pullers;
  for (auto& link : links)
    pullers.emplace_back(Pull, std::ref(*link), std::ref(samples), std::ref(stop), std::ref(acked));
  const std::string load_before = LoadAverage();
  const auto [cpu_before, peak_before] = CpuAndPeak(hub_process.pid());
  (void)peak_before;
  const int posters = 4, total = rate * seconds;
  const auto interval = std::chrono::microseconds(1'000'000LL * posters / rate);
  const auto started = Steady::now();
  std::vector<std::thread> threads;
  const std::string url = "http://127.0.0.1:" + std::to_string(hub_port) + "/bank/webhook";
  for (int p = 0; p < posters; ++p)
    threads.emplace_back(Post, url, std::cref(*key), p * (total / posters), total / posters, lanes, interval,
                         std::ref(samples), std::ref(refused));
  for (auto& t : threads) t.join();
  const double wall = std::chrono::duration<double>(Steady::now() - started).count();
  const auto [cpu_after, peak] = CpuAndPeak(hub_process.pid());
  for (int i = 0; i < 100 && acked < static_cast<long>(samples.post_ms.size()); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  stop = true;
  for (auto& t : pullers) t.join();
  auto store = hub::HubStore::Open(postgres.conninfo());
  StatusOr<long long> routed = store.ok() ? (*store)->CountRouted("") : StatusOr<long long>(store.status());
  const long long rows = routed.ok() ? *routed : -1;
  std::printf("hub load: lanes=%d rate=%d/s deliveries=%zu refused=%d acked=%ld (machine load %s -> %s)\n", lanes, rate,
              samples.post_ms.size(), refused.load(), acked.load(), load_before.c_str(), LoadAverage().c_str());
  std::printf("  bank POST -> hub 200: p50 %.1f ms, p99 %.1f ms\n", Percentile(samples.post_ms, 0.5),
              Percentile(samples.post_ms, 0.99));
  std::printf("  bank POST -> lane ack: p50 %.1f ms, p99 %.1f ms\n", Percentile(samples.ack_ms, 0.5),
              Percentile(samples.ack_ms, 0.99));
  std::printf("  hub CPU %.0f%% of one core, peak RSS %.0f MiB; PostgreSQL routed_event rows per event %.2f\n",
              100.0 * (cpu_after - cpu_before) / wall, peak,
              samples.post_ms.empty() ? 0.0 : static_cast<double>(rows) / static_cast<double>(samples.post_ms.size()));
  PrintStages("http://127.0.0.1:" + std::to_string(hub_port) + "/metrics", samples.post_ms.size());
  links.clear();
  hub_process.Terminate();
  nats.Stop();
  postgres.Stop();
  (*bank)->Stop();
  std::filesystem::remove_all(dir);
  return 0;
}
