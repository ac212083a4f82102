// A business day at scale for the settlement benchmark (bench/settlement/day.sh; figures in
// docs/performance.md, "settlement"):
//   balcao_settlement_day seed DIR SALES   rings SALES sales up through the checkout driver
//       against a sandbox on DIR/bank (its own SQLite file, no latency), journaled in
//       DIR/box.db: card credit and debit, Pix, invoices, refunds (full and partial),
//       pay-later invoices left open, voided Pix QRs and late money (a QR paid after the
//       sale was voided). Prints what it made as JSON.
//   balcao_settlement_day pages CREDENTIALS DAY CONNECTIONS   fetches the pages the run reads
//       for DAY (the five range lists, the same arrangement on the same number of
//       connections, and the balance) and nothing else: the floor of the run's wall time.
//       Prints {"pages", "ms"} as JSON.
#include <curl/curl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "api/bank.h"
#include "checkout/checkout.h"
#include "checkout/driver/driver.h"
#include "common/log.h"
#include "offline/journal.h"
#include "offline/store.h"
#include "sandbox/sandbox.h"

namespace balcao::bench {
namespace {

using checkout::Method;
using nlohmann::json;

// POST to the sandbox's simulation API (plain HTTP, unsigned).
bool Simulate(const std::string& base, const std::string& path, const json& body) {
  CURL* curl = curl_easy_init();
  const std::string url = base + path, text = body.dump();
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, text.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(
      curl, CURLOPT_WRITEFUNCTION, +[](char*, size_t size, size_t n, void*) { return size * n; });
  long status = 0;
  const bool sent = curl_easy_perform(curl) == CURLE_OK;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return sent && status == 200;
}

// What one sale of the day does.
struct Plan {
  Method method = Method::kPix;
  bool debit = false;
  checkout::Cents amount = 0;
  checkout::Cents reverse = 0;  // given back after payment
  bool pay_later = false;       // an invoice the customer leaves with
  bool cancel = false;          // a Pix QR voided by the cashier
  bool late = false;            // ... and paid anyway afterwards
};

Plan PlanOf(int i) {
  Plan p;
  p.amount = 500 + (i * 37) % 20'000;
  const int slot = i % 20;
  if (slot < 8) {
    p.method = Method::kCard;
    p.debit = slot >= 6;
    if (i % 40 == 1) p.reverse = p.amount;
  } else if (slot < 15) {
    p.method = Method::kPix;
    if (i % 40 == 9) p.reverse = p.amount / 2;
  } else if (slot < 19) {
    p.method = Method::kInvoice;
    p.pay_later = i % 100 == 15;
  } else {
    p.method = Method::kPix;
    p.cancel = true;
    p.late = i % 40 == 19;
  }
  return p;
}

// Plays one sale to its end, as the customer and the cashier would.
std::string Play(checkout::Driver& driver, const std::string& sim, const std::string& id, const Plan& plan,
                 const checkout::Settings& settings) {
  using namespace checkout;
  const Customer customer{"Maria da Silva", "337.451.076-08"};
  if (!driver.Open(id, plan.amount, settings).ok()) return "not opened";
  const auto now = [] { return SystemClock::Instance().Now(); };
  const auto poll = [&] {
    (void)driver.Feed(id, TimerFired{Timer::kPoll, now()});
    (void)driver.RunUntilSettled(id, now() + kMicrosPerSecond / 10);
  };
  for (int step = 0; step < 40; ++step) {
    auto sale = driver.Get(id);
    if (!sale.ok()) return "lost";
    const State& state = sale->state;
    if (std::holds_alternative<ChoosingMethod>(state)) {
      (void)driver.Feed(id, ChooseMethod{plan.method, customer, now()});
    } else if (std::holds_alternative<AwaitingCard>(state)) {
      (void)driver.SubmitCard(id, {"4242424242424242", "123", "2035-01", "MARIA SILVA"},
                              plan.debit ? FundingType::kDebit : FundingType::kCredit, 1);
    } else if (const auto* pix = std::get_if<ShowingPix>(&state)) {
      if (plan.cancel) {
        const std::string uuid = pix->brcode.uuid;
        (void)driver.Feed(id, Cancel{"op-7", "customer left", now()});
        (void)driver.RunUntilSettled(id, now() + kMicrosPerSecond / 10);
        if (plan.late) Simulate(sim, "/dynamic-brcode/pay", {{"uuid", uuid}});
        continue;
      }
      Simulate(sim, "/dynamic-brcode/pay", {{"uuid", pix->brcode.uuid}});
      poll();
    } else if (const auto* invoice = std::get_if<ShowingInvoice>(&state)) {
      if (plan.pay_later) {
        (void)driver.Feed(id, KeepOpen{now()});
        continue;
      }
      Simulate(sim, "/invoice/pay", {{"id", invoice->invoice.id}});
      poll();
    } else if (std::holds_alternative<Paid>(state)) {
      if (plan.reverse == 0 || sale->collected() != plan.amount) return "Paid";
      (void)driver.Feed(id, Reverse{plan.reverse, "op-7", "goods returned", now()});
      (void)driver.RunUntilSettled(id, now() + kMicrosPerSecond / 10);
    } else if (std::holds_alternative<Refunded>(state) || std::holds_alternative<Voided>(state) ||
               std::holds_alternative<PayLater>(state)) {
      return StateName(static_cast<int>(state.index()));
    } else {
      poll();
    }
  }
  return "unfinished";
}

int Seed(const std::string& dir, int sales) {
  logging::SetMinLevel(logging::Level::kWarning);  // a line per sale move would be most of the work
  sandbox::SandboxOptions options;
  options.data_dir = dir + "/bank";
  options.https = false;
  options.threads = 4;
  std::filesystem::create_directories(options.data_dir);
  auto sb = sandbox::Sandbox::Start(options);
  if (!sb.ok()) return std::fprintf(stderr, "sandbox: %s\n", sb.status().ToString().c_str()), 2;
  auto client = api::Client::FromEnvironment((*sb)->credentials().credentials_path);
  if (!client.ok()) return std::fprintf(stderr, "client: %s\n", client.status().ToString().c_str()), 2;
  auto store = offline::Store::Open(dir + "/box.db");
  if (!store.ok()) return std::fprintf(stderr, "store: %s\n", store.status().ToString().c_str()), 2;
  offline::Journal journal(**store);
  checkout::Driver driver(api::Bank(*client), journal, SystemClock::Instance());
  checkout::Settings settings;
  settings.challenge_enabled = false;
  settings.poll_interval_s = 1;
  settings.lookup_retry_s = 1;
  const std::string sim = "http://127.0.0.1:" + std::to_string((*sb)->port()) + "/sandbox";
  std::map<std::string, int> outcomes;
  const auto started = std::chrono::steady_clock::now();
  for (int i = 0; i < sales; ++i) {
    ++outcomes[Play(driver, sim, "bench-" + std::to_string(i), PlanOf(i), settings)];
    if ((i + 1) % 500 == 0) std::fprintf(stderr, "%d sales rung up\n", i + 1);
  }
  Simulate(sim, "/clock", {{"advance", 31}});  // the bank captures the approved card purchases
  (*sb)->Flush();
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started).count();
  json out = {{"sales", sales}, {"seconds", seconds}, {"outcomes", outcomes}};
  for (const char* resource : {"merchant-purchase", "invoice", "dynamic-brcode", "deposit", "transaction"}) {
    out["bank"][resource] = (*sb)->CountForTest(resource);
  }
  std::printf("%s\n", out.dump().c_str());
  return 0;
}

int Pages(const std::string& credentials, const std::string& day, int connections) {
  auto client = api::Client::FromEnvironment(credentials);
  if (!client.ok()) return std::fprintf(stderr, "client: %s\n", client.status().ToString().c_str()), 2;
  const api::Bank bank(*client);
  const api::ListParams range = api::ListParams().Filter("after", day);
  std::atomic<int> pages{0};
  std::atomic<bool> failed{false};
  const auto drain = [&](auto resource) {
    auto items = resource.List(range);
    for (auto& item : items) {
      if (!item.ok()) failed = true;
    }
    pages += items.pages_loaded();
  };
  // The run's arrangement: the largest list first, each list on one connection.
  const std::vector<std::function<void()>> lists = {
      [&] { drain(bank.transaction()); },    [&] { drain(bank.merchant_purchase()); }, [&] { drain(bank.invoice()); },
      [&] { drain(bank.dynamic_brcode()); }, [&] { drain(bank.deposit()); },
  };
  const auto started = std::chrono::steady_clock::now();
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < lists.size(); i = next++) lists[i]();
  };
  std::vector<std::thread> readers;
  for (int i = 1; i < std::clamp(connections, 1, 5); ++i) readers.emplace_back(work);
  work();
  for (std::thread& reader : readers) reader.join();
  failed = failed || !bank.GetBalance().ok();
  ++pages;
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  std::printf("%s\n", json{{"pages", pages.load()}, {"ms", ms}, {"failed", failed.load()}}.dump().c_str());
  return failed ? 1 : 0;
}

}  // namespace
}  // namespace balcao::bench

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 3 && args[0] == "seed") return balcao::bench::Seed(args[1], std::stoi(args[2]));
  if (args.size() == 4 && args[0] == "pages") return balcao::bench::Pages(args[1], args[2], std::stoi(args[3]));
  std::fprintf(stderr,
               "usage: balcao_settlement_day seed DIR SALES\n"
               "       balcao_settlement_day pages CREDENTIALS YYYY-MM-DD CONNECTIONS\n");
  return 2;
}
