// The store's payout end to end (settlement/store_payout.h): three lanes of one store, each its
// own journal file, settle one business day against the sandbox
// - in every order, in process, the first lane of half the orders dying between the transfer
//   and its record (then settling again last);
// - at once, as three `balcao settle` processes (spawned with exec), after a fourth was
//   SIGKILLed mid-run;
// and the bank holds exactly one transfer for the store and day, equal to the three lanes' net
// to the cent; every lane's report shows the store's payout and its own share. A lane whose day
// does not reconcile keeps the store's payout back, naming the lane; `settle --store --payout`
// sends it once it does. Per-lane payouts, a config choice, each carry their own externalId.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "checkout/types.h"
#include "settlement/payout.h"
#include "settlement/store_payout.h"
#include "tests/settlement/settle_fixture.h"
#include "tests/testing/status_matchers.h"

namespace balcao::settlement::e2e {
namespace {

namespace fs = std::filesystem;
constexpr const char* kStore = "loja-p";
const std::array<std::string, 3> kTerminals = {"caixa-1", "caixa-2", "caixa-3"};

class StorePayoutE2E : public SettleE2E {
 protected:
  void TearDown() override {
    SettleE2E::TearDown();
    for (const std::string& path : made_) fs::remove(path);
  }
  std::string Lane(int i) const { return checkout::LaneRoot(kStore, kTerminals[i]); }
  std::string Temp(const std::string& name) {
    const std::string path = db_ + "." + name;
    made_.push_back(path);
    return path;
  }
  PayoutSettings PayoutConfig(const std::string& name) const {
    PayoutSettings p;
    p.enabled = true;
    p.store = name;
    p.account = {"Padaria Balcao Ltda", "11.222.333/0001-81", "341", "1234", "56789-0", "checking"};
    return p;
  }
  // Each lane's sales rung up in its own journal file (what three boxes hold), then closed:
  // lane 1 a Pix sale and a card sale, lane 2 a Pix sale, lane 3 two Pix sales. Returns the
  // files, and `net` the store's net.
  std::array<std::string, 3> RingUpThreeLanes(checkout::Cents& net) {
    using namespace checkout;
    const std::vector<std::vector<std::pair<Method, Cents>>> sales = {{{Method::kPix, 1000}, {Method::kCard, 2500}},
                                                                      {{Method::kPix, 1990}},
                                                                      {{Method::kPix, 3333}, {Method::kPix, 500}}};
    std::array<std::string, 3> files;
    net = 0;
    for (int lane = 0; lane < 3; ++lane) {
      if (lane > 0) {
        db_ = Temp("lane" + std::to_string(lane + 1));
        OpenDriver();
      }
      files[lane] = db_;
      settings_.lane = Lane(lane);
      for (const auto& [method, amount] : sales[lane]) {
        EXPECT_EQ(StateOf(Paid(NewSaleId(), {.method = method, .amount = amount})), "Paid");
        net += amount;
      }
    }
    AdvanceSandbox(31);  // the card purchase is captured and credited
    driver_.reset();
    journal_.reset();
    store_.reset();
    return files;
  }
  // The account holds more than one day's net: every order below pays its own store name.
  void FundTheAccount() {
    const auto made = api().Post(
        "/v2/invoice", {{"invoices", {{{"amount", 1'000'000}, {"name", "Aporte"}, {"taxId", "337.451.076-08"}}}}});
    ASSERT_EQ(made.status, 200) << made.body;
    ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", made.json["invoices"][0]["id"]}}).status, 200);
  }
  json Transfers(const std::string& external_id) {
    const auto listed = api().Get("/v2/transfer?tags=" + external_id);
    EXPECT_EQ(listed.status, 200) << listed.body;
    return listed.json.value("transfers", json::array());
  }
  StatusOr<Settlement> SettleLane(const std::string& file, int lane, const PayoutSettings& payout,
                                  bool dies_before_record = false) {
    auto store = offline::Store::Open(file);
    if (!store.ok()) return store.status();
    SettleOptions options{Today()};
    options.lane = Lane(lane);
    options.payout = payout;
    if (dies_before_record)
      options.before_record = [](const Settlement&) {
        return Status(StatusCode::kAborted, "killed before the record");
      };
    return settlement::Settle(**store, Bank(), clock_, options);
  }
  // A config file for lane `lane` of the store with the store's payout (`balcao settle --config`).
  std::string ConfigFile(int lane, const std::string& payout_store) {
    const std::string path = Temp("lane" + std::to_string(lane + 1) + ".conf");
    json config = {{"store_id", kStore},
                   {"terminal_id", kTerminals[lane]},
                   {"bank", {{"credentials", sandbox().credentials().credentials_path}}},
                   {"payout",
                    {{"enabled", true},
                     {"store", payout_store},
                     {"account",
                      {{"name", "Padaria Balcao Ltda"},
                       {"tax_id", "11.222.333/0001-81"},
                       {"bank_code", "341"},
                       {"branch_code", "1234"},
                       {"account_number", "56789-0"}}}}}};
    std::ofstream(path) << config.dump(2);
    return path;
  }
  std::vector<std::string> made_;
};

// A child `balcao settle`, spawned (posix_spawn: no fork of this threaded test process).
struct Child {
  pid_t pid = -1;
  std::string out_path;
};
Child Spawn(const std::vector<std::string>& args, const std::string& out_path) {
  std::vector<char*> argv;
  std::vector<std::string> all = {BALCAO_CLI, "settle"};
  all.insert(all.end(), args.begin(), args.end());
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ::posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = -1;
  if (::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), ::environ) != 0) pid = -1;
  ::posix_spawn_file_actions_destroy(&actions);
  return {pid, out_path};
}
int Wait(const Child& child) {
  int status = 0;
  for (int i = 0; i < 1200; ++i) {  // at most 120 s
    const pid_t done = ::waitpid(child.pid, &status, WNOHANG);
    if (done == child.pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ::kill(child.pid, SIGKILL);
  ::waitpid(child.pid, &status, 0);
  ADD_FAILURE() << "balcao settle (" << child.out_path << ") did not end within 120 s";
  return -1;
}
std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Pure: the reasons a store's payout waits, decided before the report's language is known, are
// said in the report's language, in its text and in its JSON.
TEST(StorePayoutWords, AWithheldPayoutIsSaidInTheReportsLanguage) {
  StoreDay store;
  LaneDay waiting;
  waiting.terminal = "caixa-1";
  waiting.awaiting_capture = 1;
  LaneDay running;
  running.terminal = "caixa-2";
  store.lanes = {waiting, running};
  const StorePayoutRun run{"2026-11-25", kStore, "caixa-2", false, 2};
  const std::vector<Words> why = LanesWithholding(store, run);
  ASSERT_EQ(why.size(), 2u);
  EXPECT_EQ(why[0].pt_br, "caixa caixa-1: 1 compra(s) no cartão aprovada(s) e ainda não capturada(s)");
  EXPECT_EQ(why[0].en_us, "lane caixa-1: 1 card purchase(s) approved and not captured yet");
  EXPECT_EQ(why[1].pt_br, "caixa caixa-2: o fechamento dele pede o operador (2 item(ns))");

  Payout payout;
  payout.status = "withheld";
  payout.scope = "store";
  payout.reason = {"o dia da loja não concilia", "the store's day does not reconcile"};
  payout.withheld_for = why;
  const std::string pt = PayoutText(payout, Lang::kPtBr);
  EXPECT_NE(pt.find("RETIDO (o dia da loja não concilia)"), std::string::npos) << pt;
  EXPECT_NE(pt.find("! retido: caixa caixa-1: 1 compra(s)"), std::string::npos) << pt;
  EXPECT_EQ(pt.find("lane "), std::string::npos) << "no English in a pt-BR report:\n" << pt;
  const json pt_json = json::parse(PayoutJson(payout, Lang::kPtBr));
  EXPECT_EQ(pt_json["reason"], "o dia da loja não concilia");
  EXPECT_EQ(pt_json["withheld_for"][1], why[1].pt_br);
  EXPECT_EQ(json::parse(PayoutJson(payout, Lang::kEnUs))["withheld_for"][0], why[0].en_us);
}

TEST_F(StorePayoutE2E, ThreeLanesInEveryOrderPayTheStoresNetOnce) {
  checkout::Cents net = 0;
  const std::array<std::string, 3> files = RingUpThreeLanes(net);
  FundTheAccount();
  std::array<int, 3> order = {0, 1, 2};
  int run = 0;
  do {
    const std::string name = "ordem-" + std::to_string(run);
    const PayoutSettings payout = PayoutConfig(name);
    std::array<std::string, 3> copies;
    for (int lane = 0; lane < 3; ++lane) {
      copies[lane] = Temp(name + "-" + std::to_string(lane));
      fs::copy_file(files[lane], copies[lane], fs::copy_options::overwrite_existing);
    }
    // Half the orders: the first lane dies after its transfer, before its record; it settles last.
    const bool kill_first = run % 2 == 1;
    if (kill_first) {
      ASSERT_THAT(SettleLane(copies[order[0]], order[0], payout, true), testing::Not(test_util::IsOk()));
    }
    std::vector<int> runs(order.begin() + (kill_first ? 1 : 0), order.end());
    if (kill_first) runs.push_back(order[0]);
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const int lane = runs[k];
      auto settled = SettleLane(copies[lane], lane, payout);
      ASSERT_OK(settled);
      ASSERT_TRUE(settled->reconciled) << settled->text;
      const json p = json::parse(settled->json)["payout"];
      EXPECT_EQ(p["scope"], "store");
      EXPECT_EQ(p["status"], k == 0 && !kill_first ? "sent" : "found") << name << " lane " << lane << settled->text;
      EXPECT_EQ(p["amount"], net) << settled->text;
      EXPECT_EQ(p["store_net"], net);
      EXPECT_EQ(p["lanes"], 3);
      EXPECT_EQ(p["lane"], kTerminals[lane]);
      EXPECT_EQ(p["lane_share"], settled->gross - settled->refunds) << "the lane's share is its own night's net";
      EXPECT_NE(settled->text.find("this lane's (" + kTerminals[lane] + ") share"), std::string::npos) << settled->text;
      // Only lane 1 sold by card: the others' reports list no card receivables of their own.
      const json receivables = json::parse(settled->json)["receivables"];
      EXPECT_EQ(receivables["installments"].empty(), lane != 0) << name << " lane " << lane << receivables.dump();
    }
    const json transfers = Transfers(PayoutExternalId(name, Today()));
    ASSERT_EQ(transfers.size(), 1u) << name;
    EXPECT_EQ(transfers[0]["amount"], net) << name;
    ++run;
  } while (std::next_permutation(order.begin(), order.end()));
  EXPECT_EQ(run, 6);
}

TEST_F(StorePayoutE2E, ThreeLaneProcessesAtOnceAfterAKillSendOneTransfer) {
  checkout::Cents net = 0;
  const std::array<std::string, 3> files = RingUpThreeLanes(net);
  std::array<std::string, 3> configs;
  for (int lane = 0; lane < 3; ++lane) configs[lane] = ConfigFile(lane, "loja-junta");
  const auto args = [&](int lane) {
    return std::vector<std::string>{"--db", files[lane], "--config", configs[lane], "--day", Today(), "--json"};
  };
  // Lane 2's run is killed wherever it got to (reading, sending, recording).
  const Child killed = Spawn(args(1), Temp("killed.out"));
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  ::kill(killed.pid, SIGKILL);
  (void)Wait(killed);
  std::array<Child, 3> children;
  for (int lane = 0; lane < 3; ++lane) children[lane] = Spawn(args(lane), Temp("run" + std::to_string(lane) + ".out"));
  int sent = 0;
  for (int lane = 0; lane < 3; ++lane) {
    const int code = Wait(children[lane]);
    const std::string out = Slurp(children[lane].out_path);
    ASSERT_EQ(code, 0) << out;
    const json doc = json::parse(out, nullptr, false);
    ASSERT_TRUE(doc.is_object()) << out;
    const json p = doc["payout"];
    EXPECT_EQ(p["amount"], net) << out;
    EXPECT_EQ(p["store_net"], net) << out;
    EXPECT_EQ(p["lane"], kTerminals[lane]);
    sent += p["status"] == "sent";
  }
  EXPECT_LE(sent, 1) << "one lane sends, the others find it";
  const json transfers = Transfers(PayoutExternalId("loja-junta", Today()));
  ASSERT_EQ(transfers.size(), 1u);
  EXPECT_EQ(transfers[0]["amount"], net);
}

TEST_F(StorePayoutE2E, ALaneThatDoesNotReconcileHoldsTheStoresPayoutBackNamingIt) {
  checkout::Cents net = 0;
  const std::array<std::string, 3> files = RingUpThreeLanes(net);
  // An invoice with lane 3's tags and no sale of its journal: lane 3's day needs the operator.
  const auto ghost = api().Post("/v2/invoice", {{"invoices",
                                                 {{{"amount", 777},
                                                   {"name", "Ghost Buyer"},
                                                   {"taxId", "337.451.076-08"},
                                                   {"tags", checkout::EntityTags(Lane(2), "ghost-1", 1)}}}}});
  ASSERT_EQ(ghost.status, 200) << ghost.body;
  auto third = SettleLane(files[2], 2, PayoutConfig("loja-retida"));
  ASSERT_OK(third);
  EXPECT_FALSE(third->reconciled);
  const json p = json::parse(third->json)["payout"];
  EXPECT_EQ(p["status"], "withheld") << third->text;
  ASSERT_EQ(p["withheld_for"].size(), 1u) << p.dump();
  EXPECT_NE(p["withheld_for"][0].get<std::string>().find("lane caixa-3: its night needs the operator"),
            std::string::npos)
      << p.dump();
  EXPECT_NE(third->text.find("! withheld: lane caixa-3"), std::string::npos) << third->text;
  EXPECT_EQ(Transfers(PayoutExternalId("loja-retida", Today())).size(), 0u);

  // Per-lane payouts (a config choice): each lane its own net under its own externalId.
  PayoutSettings per_lane = PayoutConfig("loja-retida");
  per_lane.per_lane = true;
  auto first = SettleLane(files[0], 0, per_lane);
  ASSERT_OK(first);
  const json own = json::parse(first->json)["payout"];
  EXPECT_EQ(own["scope"], "lane");
  EXPECT_EQ(own["status"], "sent") << first->text;
  EXPECT_EQ(own["amount"], 3500);
  EXPECT_EQ(own["external_id"], PayoutExternalId("loja-retida", Today(), "caixa-1"));
  EXPECT_EQ(Transfers(PayoutExternalId("loja-retida", Today(), "caixa-1")).size(), 1u);
  EXPECT_EQ(Transfers(PayoutExternalId("loja-retida", Today())).size(), 0u);
}

TEST_F(StorePayoutE2E, SettleStorePayoutSendsTheStoresNetOnce) {
  checkout::Cents net = 0;
  (void)RingUpThreeLanes(net);
  const std::string config = ConfigFile(0, "loja-escritorio");
  const std::vector<std::string> args = {"--store", kStore, "--payout", "--config", config, "--day", Today(), "--json"};
  const Child dry = Spawn({"--store", kStore, "--payout", "--dry-run", "--config", config, "--day", Today(), "--json"},
                          Temp("dry.out"));
  ASSERT_EQ(Wait(dry), 0) << Slurp(dry.out_path);
  EXPECT_EQ(json::parse(Slurp(dry.out_path))["payout"]["status"], "dry-run") << Slurp(dry.out_path);
  EXPECT_EQ(Transfers(PayoutExternalId("loja-escritorio", Today())).size(), 0u);
  for (const char* expected : {"sent", "found"}) {
    const Child run = Spawn(args, Temp(std::string(expected) + ".out"));
    const int code = Wait(run);
    const std::string out = Slurp(run.out_path);
    ASSERT_EQ(code, 0) << out;
    const json p = json::parse(out)["payout"];
    EXPECT_EQ(p["status"], expected) << out;
    EXPECT_EQ(p["amount"], net) << out;
    EXPECT_EQ(p["lanes"], 3) << out;
  }
  // The text report in the box's language (pt-BR by default), every word of the payout too.
  const Child text = Spawn({"--store", kStore, "--payout", "--config", config, "--day", Today()}, Temp("text.out"));
  ASSERT_EQ(Wait(text), 0) << Slurp(text.out_path);
  const std::string report = Slurp(text.out_path);
  EXPECT_NE(report.find("já enviado"), std::string::npos) << report;
  EXPECT_NE(report.find("o banco já tem a transferência deste dia"), std::string::npos) << report;
  EXPECT_EQ(report.find("the bank has"), std::string::npos) << report;
  const json transfers = Transfers(PayoutExternalId("loja-escritorio", Today()));
  ASSERT_EQ(transfers.size(), 1u);
  EXPECT_EQ(transfers[0]["amount"], net);
}

}  // namespace
}  // namespace balcao::settlement::e2e
