// A webhook receiver that never answers, and the sandbox's API beside it (docs/performance.md
// "## sandbox"): an in-process sandbox with one webhook registered at a socket that accepts and
// never reads; each round, `payments` customers pay a dynamic BR Code at once (POST
// /sandbox/dynamic-brcode/pay, each on its own connection) while a signed GET /v2/balance is
// timed again and again. The payments' deposits make webhook events whose deliveries hang
// until their 5 s timeout, on the sender's workers.
//   balcao_sandbox_webhook_stall [rounds=3] [payments=20]
// Prints the slowest and median answer of each kind; exit 1 when a payment took over 50 ms
// or a signed GET over 20 ms.
#include <curl/curl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "api/client.h"
#include "sandbox/sandbox.h"
#include "tests/testing/loopback.h"

namespace {

using Json = nlohmann::json;
using Millis = std::chrono::duration<double, std::milli>;

double Since(std::chrono::steady_clock::time_point start) {
  return Millis(std::chrono::steady_clock::now() - start).count();
}

std::size_t Discard(char*, std::size_t size, std::size_t n, void*) { return size * n; }

// One POST on a fresh connection; the HTTP status.
long Post(const std::string& url, const std::string& body) {
  CURL* h = curl_easy_init();
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &Discard);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 30'000L);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  long status = 0;
  if (curl_easy_perform(h) == CURLE_OK) curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_cleanup(h);
  return status;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 3;
  const int payments = argc > 2 ? std::atoi(argv[2]) : 20;
  curl_global_init(CURL_GLOBAL_DEFAULT);

  // The receiver that hangs: the kernel completes each handshake, nobody ever reads.
  const balcao::test_util::LoopbackListener hang(1024);
  if (!hang.ok()) return std::fprintf(stderr, "no loopback listener\n"), 2;

  balcao::sandbox::SandboxOptions options;
  options.https = false;
  auto sandbox = balcao::sandbox::Sandbox::Start(options);
  if (!sandbox.ok()) return std::fprintf(stderr, "%s\n", sandbox.status().ToString().c_str()), 2;
  auto client = balcao::api::Client::FromEnvironment((*sandbox)->credentials().credentials_path);
  if (!client.ok()) return std::fprintf(stderr, "%s\n", client.status().ToString().c_str()), 2;
  const std::string hook_url = hang.url("/hook");
  if (!client->Call("POST", "/v2/webhook", {}, Json{{"url", hook_url}, {"subscriptions", {"deposit"}}}.dump()).ok())
    return std::fprintf(stderr, "webhook not registered\n"), 2;
  const std::string pay_url = "http://127.0.0.1:" + std::to_string((*sandbox)->port()) + "/sandbox/dynamic-brcode/pay";

  std::vector<double> pays, gets;
  for (int round = 0; round < rounds; ++round) {
    Json brcodes = Json::array();
    for (int i = 0; i < payments; ++i) brcodes.push_back({{"amount", 100 + i}});
    auto made = client->Call("POST", "/v2/dynamic-brcode", {}, Json{{"brcodes", brcodes}}.dump());
    if (!made.ok()) return std::fprintf(stderr, "%s\n", made.status().ToString().c_str()), 2;
    std::vector<std::string> uuids;
    const Json answer = Json::parse(made->body);
    for (const Json& b : answer["brcodes"]) uuids.push_back(b["uuid"].get<std::string>());

    std::vector<double> round_pays(uuids.size());
    std::atomic<int> failed{0};
    std::atomic<bool> paying{true};
    std::vector<std::thread> customers;
    for (std::size_t i = 0; i < uuids.size(); ++i) {
      customers.emplace_back([&, i] {
        const auto start = std::chrono::steady_clock::now();
        if (Post(pay_url, Json{{"uuid", uuids[i]}, {"name", "Cliente"}}.dump()) != 200) ++failed;
        round_pays[i] = Since(start);
      });
    }
    // Signed GETs while the payments land and their deliveries hang.
    std::thread reader([&] {
      for (int i = 0; i < 10 || paying; ++i) {
        const auto start = std::chrono::steady_clock::now();
        if (!client->Call("GET", "/v2/balance").ok()) ++failed;
        gets.push_back(Since(start));
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
    for (std::thread& t : customers) t.join();
    paying = false;
    reader.join();
    if (failed > 0) return std::fprintf(stderr, "%d requests failed\n", failed.load()), 2;
    pays.insert(pays.end(), round_pays.begin(), round_pays.end());
  }
  if (pays.empty() || gets.empty()) return std::fprintf(stderr, "nothing measured\n"), 2;
  const double pay_max = *std::max_element(pays.begin(), pays.end());
  const double get_max = *std::max_element(gets.begin(), gets.end());
  std::printf("%d rounds of %d concurrent payments, webhook receiver hanging\n", rounds, payments);
  std::printf("  POST /sandbox/dynamic-brcode/pay: median %.1f ms, slowest %.1f ms (budget 50 ms)\n", Median(pays),
              pay_max);
  std::printf("  signed GET /v2/balance (%zu during them): median %.1f ms, slowest %.1f ms (budget 20 ms)\n",
              gets.size(), Median(gets), get_max);
  (*sandbox)->Stop();  // the hanging attempts end within their 5 s timeout (then `hang` closes)
  return pay_max <= 50 && get_max <= 20 ? 0 : 1;
}
