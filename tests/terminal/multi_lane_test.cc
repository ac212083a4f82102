// Several lanes of one store on one bank account (docs/stores.md): one sandbox, three
// `balcao serve` processes of store loja-1 (terminal ids caixa-1..3) and one of store loja-2,
// each with its own webhook. 300 sales across the three lanes (Pix, card, invoice; some
// refunded); caixa-2 is killed with invoices kept open and its customers pay while it is down
// (their events reach the other lanes, which must leave them alone), then restarted; caixa-3
// starts with the bank unreachable and queues invoices, then comes back and issues them.
// Payments arrive by webhook and, for the dead box's invoices kept open, by its catch-up
// alone: another lane that acknowledged them would leave those sales unpaid. Then every lane's own
// settlement, the store's and the account's. Prints one line:
//   lanes=3 sales=300 own=300 foreign_applied=0 lost=0 store_total_matches_ledger=yes
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include "api/bank.h"
#include "common/time.h"
#include "sandbox/sandbox.h"
#include "tests/terminal/serve_fixture.h"
#include "tests/testing/loopback.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/test_bank.h"

namespace balcao::terminal::testing {
namespace {

constexpr const char* kApproved = "5277696455399733";  // an SDK test card: approved
constexpr int kLanes = 3;
constexpr int kSales = 300;

Json Card() {
  return WithCardCustomer(
      {{"number", kApproved}, {"expiry", "12/34"}, {"security_code", "737"}, {"holder_name", "MARIA SOUZA"}});
}
Json Customer() { return {{"name", "Maria da Silva"}, {"tax_id", "337.451.076-08"}}; }

// One box: its data dir, config and port (kept across restarts: the webhook stays its own).
struct Lane {
  std::string store, terminal;
  std::filesystem::path dir;
  int port = 0;
  std::string config;
  ServeProcess serve;
  std::string root() const { return "store/" + store + "/lane/" + terminal; }
};

// What the test expects of one sale, to the cent.
struct Expected {
  int lane = 0;
  std::string id;
  std::string method;  // "pix", "card", "invoice"
  long long amount = 0;
  long long refunded = 0;
  std::string bank_id;  // brcode uuid or invoice id, to pay it
};

class MultiLane : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir("multi-lane");
    auto bank = test_util::StartTestBank(dir_ / "bank");
    ASSERT_OK(bank);
    bank_ = *std::move(bank);
    credentials_ = bank_->credentials().credentials_path;
    sandbox_url_ = "http://127.0.0.1:" + std::to_string(bank_->port());
    for (int i = 0; i < kLanes + 1; ++i) {
      auto lane = std::make_unique<Lane>();
      lane->store = i < kLanes ? "loja-1" : "loja-2";
      // loja-2's box names no terminal: it makes one up at its first start (Start reads it).
      if (i < kLanes) lane->terminal = "caixa-" + std::to_string(i + 1);
      lane->dir = dir_ / (lane->store + "-" + std::to_string(i + 1));
      lane->port = test_util::FreeLoopbackPort();
      std::filesystem::create_directories(lane->dir);
      lane->config = (lane->dir / "config.json").string();
      // No polls: a payment reaches the box by its webhook, or by its catch-up.
      Json config = {{"store_id", lane->store},
                     {"webhook_url", "http://127.0.0.1:" + std::to_string(lane->port) + "/bank/webhook"},
                     {"catch_up_interval_s", 1},
                     {"checkout", {{"poll_interval_s", 3600}}},
                     {"connectivity", test_util::FastConnectivity()}};
      if (!lane->terminal.empty()) config["terminal_id"] = lane->terminal;
      std::ofstream(lane->config) << config.dump(2);
      lanes_.push_back(std::move(lane));
    }
  }
  void TearDown() override {
    for (auto& lane : lanes_) lane->serve.Kill();
    if (bank_) bank_->Stop();
    if (!HasFailure()) std::filesystem::remove_all(dir_);  // kept to look at when it failed
  }

  void Start(Lane& lane, bool bank_reachable = true) {
    std::map<std::string, std::string> env = {{"BALCAO_CREDENTIALS", credentials_}};
    if (!bank_reachable) env["BALCAO_BANK_URL"] = unreachable_bank_.Url("/v2");
    lane.serve.Start(lane.dir / "data", {"--config", lane.config, "--port", std::to_string(lane.port)}, env);
    const Json status = lane.serve.Get("/api/status").json;
    EXPECT_EQ(status["store_id"], lane.store) << status.dump();
    if (lane.terminal.empty()) lane.terminal = status["terminal_id"].get<std::string>();
    EXPECT_EQ(status["terminal_id"], lane.terminal) << status.dump();
  }
  Reply Sim(const std::string& route, const Json& body) {
    return Http("POST", sandbox_url_ + "/sandbox/" + route, body.dump());
  }

  // Opens a sale on `lane` and chooses its method; card sales are paid at once.
  Expected Sell(int lane_index, int n, const std::string& method) {
    Lane& lane = *lanes_[lane_index];
    Expected e{lane_index, "", method, 1000 + 7 * n + lane_index};
    e.id = lane.serve.NewSale(e.amount)["id"].get<std::string>();
    Json body = {{"method", method}};
    if (method == "invoice") body["customer"] = Customer();
    const Reply chosen = lane.serve.Post("/api/sales/" + e.id + "/method", body);
    EXPECT_EQ(chosen.status, 200) << chosen.body;
    if (method == "pix") e.bank_id = BankId(chosen.json, "brcode");
    if (method == "invoice") e.bank_id = BankId(chosen.json, "invoice");
    if (method == "card") {
      const Reply paid = lane.serve.Post("/api/sales/" + e.id + "/card", Card());
      EXPECT_EQ(paid.json["status"], "paid") << paid.body;
    }
    return e;
  }
  void Pay(const Expected& e) {
    if (e.method == "pix") {
      EXPECT_EQ(Sim("dynamic-brcode/pay", {{"uuid", e.bank_id}}).status, 200) << e.id;
    } else if (e.method == "invoice") {
      EXPECT_EQ(Sim("invoice/pay", {{"id", e.bank_id}}).status, 200) << e.id;
    }
  }
  void Refund(Expected& e) {
    const Reply refunded = lanes_[e.lane]->serve.Post("/api/sales/" + e.id + "/refund",
                                                      ServeProcess::Approved({{"reason", "cliente desistiu"}}));
    EXPECT_EQ(refunded.status, 200) << refunded.body;
    if (refunded.status == 200) e.refunded = e.amount;
  }
  // The box's own settlement of `day`, as JSON (dry run: the record stays for the night).
  Json SettleLane(const Lane& lane, const std::string& day) {
    return RunJson("BALCAO_CREDENTIALS='" + credentials_ + "' " + BALCAO_CLI + " settle --dry-run --json --day " + day +
                   " --config '" + lane.config + "' --db '" + (lane.dir / "data" / "balcao.db").string() + "'");
  }
  Json SettleStores(const std::string& flags, const std::string& day) {
    return RunJson("BALCAO_CREDENTIALS='" + credentials_ + "' " + BALCAO_CLI + " settle " + flags + " --json --day " +
                   day);
  }
  // Today in Sao Paulo (UTC-3), the settlement's day.
  static std::string BusinessDay() {
    return FormatDate(std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::system_clock::now().time_since_epoch() - std::chrono::hours(3))
                          .count());
  }
  static Json RunJson(const std::string& command) {
    std::string out;
    if (FILE* pipe = ::popen((command + " 2>/dev/null").c_str(), "r")) {
      char buffer[4096];
      for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
      ::pclose(pipe);
    }
    return Json::parse(out, nullptr, false);
  }

  std::filesystem::path dir_;
  std::unique_ptr<sandbox::Sandbox> bank_;
  std::string credentials_, sandbox_url_;
  test_util::RefusingLoopbackPort unreachable_bank_;  // the bank of a lane started offline
  std::vector<std::unique_ptr<Lane>> lanes_;
};

TEST_F(MultiLane, EachLaneSeesItsOwnSalesAndTheStoreClosesToTheCent) {
  Lane& killed = *lanes_[1];
  Lane& offline = *lanes_[2];
  for (int i : {0, 1, 3}) Start(*lanes_[i]);
  Start(offline, /*bank_reachable=*/false);
  const std::string first_day = BusinessDay();
  const std::array<const char*, 3> methods = {"pix", "card", "invoice"};
  std::vector<Expected> sales;

  // The morning: caixa-3 has no bank; its sales are invoices, queued with a provisional receipt.
  for (int n = 0; n < 20; ++n) {
    Expected e{2, "", "invoice", 2000 + 11 * n};
    e.id = offline.serve.NewSale(e.amount)["id"].get<std::string>();
    const Reply queued =
        offline.serve.Post("/api/sales/" + e.id + "/method", {{"method", "invoice"}, {"customer", Customer()}});
    EXPECT_EQ(queued.json["status"], "queued") << queued.body;
    sales.push_back(e);
  }
  // caixa-1 and caixa-2 sell; caixa-2's last ten invoices are kept open (the customer pays
  // later, at home): nothing but the bank's events can tell the box they were paid.
  std::vector<std::size_t> waiting;
  for (int n = 0; n < 100; ++n) {
    for (int lane : {0, 1}) {
      sales.push_back(Sell(lane, n, methods[n % 3]));
      if (lane == 1 && n >= 70 && sales.back().method == std::string("invoice")) {
        const Reply kept = killed.serve.Post("/api/sales/" + sales.back().id + "/keep-open", Json::object());
        EXPECT_EQ(kept.json["status"], "pay-later") << kept.body;
        waiting.push_back(sales.size() - 1);
      } else {
        Pay(sales.back());
      }
    }
  }
  ASSERT_EQ(waiting.size(), 10u);
  killed.serve.Kill();  // a power cut on caixa-2
  // Its customers pay: the events reach caixa-1 and loja-2's box, which must leave them alone.
  for (std::size_t i : waiting) Pay(sales[i]);
  EXPECT_EQ(Sim("flush", Json::object()).status, 200);  // every delivery attempted now
  // caixa-3 gets its bank back: restarted online, its outbox issues the queued invoices.
  offline.serve.Stop();
  Start(offline);
  for (Expected& e : sales) {
    if (e.lane != 2) continue;
    const Json issued = offline.serve.WaitFor(e.id, "pay-later");
    e.bank_id = BankId(issued, "invoice");
    Pay(e);
  }
  for (int n = 20; n < 100; ++n) {
    sales.push_back(Sell(2, n, methods[n % 3]));
    Pay(sales.back());
  }
  // caixa-2 comes back: its catch-up finds its undelivered events (nobody acknowledged them).
  Start(killed);
  // The second store sells too.
  std::vector<Expected> other_store;
  for (int n = 0; n < 10; ++n) {
    other_store.push_back(Sell(3, n, methods[n % 2]));
    Pay(other_store.back());
  }

  // Every sale paid on its own box; then refunds (card and Pix) on each lane.
  for (const Expected& e : sales) lanes_[e.lane]->serve.WaitFor(e.id, "paid");
  for (const Expected& e : other_store) lanes_[3]->serve.WaitFor(e.id, "paid");
  int refunds = 0, candidates = 0;
  for (Expected& e : sales) {
    if (e.method != "invoice" && ++candidates % 9 == 0) {  // every ninth card or Pix sale
      Refund(e);
      ++refunds;
    }
  }
  EXPECT_GE(refunds, 10);

  // own: sales whose own box shows them final with their money; foreign: sales a box shows
  // that another box opened.
  int own = 0, foreign_applied = 0, lost = 0;
  std::map<int, std::set<std::string>> opened;
  long long expected_store = 0;
  std::map<int, long long> expected_lane;
  for (const Expected& e : sales) {
    opened[e.lane].insert(e.id);
    const Json view = lanes_[e.lane]->serve.WaitFor(e.id, e.refunded > 0 ? "refunded" : "paid");
    const bool settled = view.value("collected", -1LL) == e.amount - e.refunded;
    own += settled;
    lost += !settled;
    expected_store += e.amount - e.refunded;
    expected_lane[e.lane] += e.amount - e.refunded;
  }
  long long expected_other_store = 0;
  for (const Expected& e : other_store) {
    opened[3].insert(e.id);
    expected_other_store += e.amount;
  }
  for (int i = 0; i < kLanes + 1; ++i) {
    for (const Json& listed : lanes_[i]->serve.Get("/api/sales").json["sales"])
      foreign_applied += !opened[i].count(listed["id"].get<std::string>());
  }
  // A delivery a box answered 200 for another lane's entity would have acknowledged it.
  std::map<std::string, std::string> brcode_lane;
  for (const Expected& e : sales)
    if (e.method == "pix") brcode_lane[e.bank_id] = lanes_[e.lane]->root();
  const Reply deliveries = Http("GET", sandbox_url_ + "/sandbox/webhook-deliveries");
  int refused_as_other_lane = 0;
  for (const Json& d : deliveries.json["deliveries"]) {
    refused_as_other_lane += d["lastStatus"] == 421;
    if (d["lastStatus"] != 200) continue;
    const std::string body = d["body"].get<std::string>();
    std::string lane_of_event;
    for (const auto& [uuid, lane] : brcode_lane)
      if (body.find(uuid) != std::string::npos) lane_of_event = lane;
    for (const auto& lane : lanes_)
      if (body.find(lane->root() + "/sale/") != std::string::npos) lane_of_event = lane->root();
    for (const auto& lane : lanes_) {
      if (d["url"] == "http://127.0.0.1:" + std::to_string(lane->port) + "/bank/webhook" && !lane_of_event.empty() &&
          lane_of_event != lane->root())
        ++foreign_applied;
    }
  }

  // The bank captures the approved card purchases 30 seconds (its clock) after approval.
  ASSERT_EQ(Http("POST", sandbox_url_ + "/sandbox/clock", Json{{"advance", 31}}.dump()).status, 200);
  // The bank delivers webhooks from its own workers: every capture's delivery attempted now.
  EXPECT_EQ(Sim("flush", Json::object()).status, 200);

  EXPECT_GT(refused_as_other_lane, 0) << "every box sees every event: the others' are answered 421";
  EXPECT_GT(lanes_[0]->serve.Get("/api/status").json["webhooks"]["applied"].get<int>(), 0) << "payments by webhook";

  // Each lane's own settlement counts exactly its sales; the others' are "other lanes".
  const std::string day = BusinessDay();
  if (day != first_day) GTEST_SKIP() << "the business day changed during the run: its sales are on two days";
  for (int i = 0; i < kLanes; ++i) {
    const Json report = SettleLane(*lanes_[i], day);
    ASSERT_TRUE(report.is_object()) << "balcao settle gave no JSON for " << lanes_[i]->root();
    EXPECT_EQ(report["sales"].size(), opened[i].size()) << lanes_[i]->root();
    EXPECT_EQ(report["total"]["net"], expected_lane[i]) << lanes_[i]->root();
    EXPECT_TRUE(report["orphans"].empty()) << report["orphans"].dump();
    std::set<std::string> others;
    for (const Json& other : report["other_lanes"]) others.insert(other["lane"].get<std::string>());
    for (int j = 0; j < kLanes + 1; ++j)
      EXPECT_EQ(others.count(lanes_[j]->root()), i == j ? 0u : 1u)
          << lanes_[i]->root() << " sees " << lanes_[j]->root();
  }
  // The store: the sum of its lanes and its ledger, to the cent; loja-2 never in it.
  const Json store = SettleStores("--store loja-1", day);
  ASSERT_TRUE(store.is_object()) << "balcao settle --store gave no JSON";
  long long lanes_sum = 0;
  for (const Json& lane : store["store"]["lanes"]) {
    const int index = std::stoi(lane["terminal"].get<std::string>().substr(6)) - 1;
    EXPECT_EQ(lane["sales"], opened[index].size()) << lane.dump();
    EXPECT_EQ(lane["total"]["net"], expected_lane[index]) << lane.dump();
    lanes_sum += lane["total"]["net"].get<long long>();
  }
  EXPECT_EQ(store["store"]["lanes"].size(), static_cast<std::size_t>(kLanes));
  const long long store_net = store["store"]["sum"]["total"]["net"].get<long long>();
  const bool store_matches = store["store"]["matches_ledger"] == true && lanes_sum == store_net &&
                             store_net == expected_store && store["store"]["ledger_net"] == expected_store;
  EXPECT_TRUE(store_matches) << store.dump(2);
  // The account: both stores, each its own.
  const Json account = SettleStores("--account", day);
  ASSERT_TRUE(account.is_object()) << "balcao settle --account gave no JSON";
  ASSERT_EQ(account["stores"].size(), 2u) << account.dump(2);
  EXPECT_EQ(account["stores"][0]["sum"]["total"]["net"], expected_store);
  EXPECT_EQ(account["stores"][1]["store"], "loja-2");
  EXPECT_EQ(account["stores"][1]["sum"]["total"]["net"], expected_other_store);
  EXPECT_TRUE(account["stores"][1]["matches_ledger"].get<bool>());

  // Nothing of the three lanes left undelivered at the bank: each box took (and marked) its own.
  auto client = api::Client::FromEnvironment(credentials_);
  ASSERT_OK(client);
  const api::Bank bank(*client);
  for (auto& event : bank.event().List(api::ListParams().Filter("isDelivered", "false"))) {
    ASSERT_OK(event);
    const std::string text = api::ToJsonText(*event);
    bool of_the_store = text.find("store/loja-1/lane/") != std::string::npos;
    for (const auto& [uuid, lane] : brcode_lane) of_the_store = of_the_store || text.find(uuid) != std::string::npos;
    if (of_the_store) {
      ADD_FAILURE() << "left undelivered: " << text;
    }
    lost += of_the_store;
  }

  const int total = static_cast<int>(sales.size());
  std::printf("lanes=%d sales=%d own=%d foreign_applied=%d lost=%d store_total_matches_ledger=%s\n", kLanes, total, own,
              foreign_applied, lost, store_matches ? "yes" : "no");
  EXPECT_EQ(total, kSales);
  EXPECT_EQ(own, kSales);
  EXPECT_EQ(foreign_applied, 0);
  EXPECT_EQ(lost, 0);
  // loja-2's box made its terminal id up and sees other lanes' events: it asks for a name.
  std::ifstream log(lanes_[3]->dir / "data" / "balcao.log");
  const std::string logged((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_NE(logged.find("other lanes share this bank account: set terminal_id"), std::string::npos);
  for (auto& lane : lanes_) lane->serve.Stop();
}

}  // namespace
}  // namespace balcao::terminal::testing
