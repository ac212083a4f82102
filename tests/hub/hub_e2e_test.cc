// The chain's hub end to end on loopback (docs/hub.md): real nats-server with JetStream, real
// PostgreSQL 15 in its own data dir, Caddy with `tls internal` in front of `balcao hub serve`,
// the bank (the sandbox, in this process) delivering its webhooks to Caddy's HTTPS address only,
// and three boxes (`balcao serve`) of two stores that registered no webhook of their own:
// every event reaches a box only through the hub and its lane's JetStream consumer.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <fstream>
#include <memory>
#include <random>
#include <thread>

#include "hub/enrolment.h"
#include "hub/hub_store.h"
#include "hub/nats.h"
#include "hub/routing.h"
#include "offline/journal_chain.h"
#include "sandbox/sandbox.h"
#include "terminal/service/hub_link.h"
#include "tests/hub/engines.h"
#include "tests/terminal/serve_fixture.h"
#include "tests/testing/loopback.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/test_bank.h"

namespace balcao::hub::testing {
namespace {

using terminal::testing::BankId;
using terminal::testing::FreshDir;
using terminal::testing::Http;
using terminal::testing::Json;
using terminal::testing::Reply;
using terminal::testing::ServeProcess;

constexpr const char* kApproved = "5277696455399733";  // an SDK test card: approved
constexpr const char* kHubPassword = "hub-password-for-the-test";

struct Box {
  std::string store, terminal;
  std::filesystem::path dir;
  std::string config;
  ServeProcess serve;
  std::string subject() const { return LaneSubject(store, terminal); }
};

struct Sale {
  Box* box = nullptr;
  std::string id, method, bank_id;
  long long amount = 0;
};

class HubE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string missing = Missing(); !missing.empty()) GTEST_SKIP() << missing;
    dir_ = FreshDir("hub-e2e");
    auto bank = test_util::StartTestBank(dir_ / "bank");
    ASSERT_OK(bank);
    bank_ = *std::move(bank);
    credentials_ = bank_->credentials().credentials_path;
    sandbox_url_ = "http://127.0.0.1:" + std::to_string(bank_->port());
    if (!postgres_.Start(dir_ / "pg")) {
      if (!postgres_.skip_reason().empty()) GTEST_SKIP() << postgres_.skip_reason();
      FAIL() << "PostgreSQL did not start: see " << (dir_ / "pg" / "postgres.log");
    }
    StartNats();
    hub_port_ = test_util::ClosedLoopbackPort();
    ASSERT_TRUE(caddy_.Start(dir_ / "caddy", hub_port_)) << "caddy did not start";
    WriteHubConfig();
    StartHub();
    if (HasFatalFailure()) return;
    auto admin = NatsLink::Connect({nats_.url(), "hub", kHubPassword});
    ASSERT_OK(admin);
    admin_ = *std::move(admin);
    for (auto [store, terminal] : {std::pair{"loja-1", "caixa-1"}, {"loja-1", "caixa-2"}, {"loja-2", "caixa-1"}}) {
      auto box = std::make_unique<Box>();
      box->store = store;
      box->terminal = terminal;
      box->dir = dir_ / (box->store + "-" + box->terminal);
      std::filesystem::create_directories(box->dir);
      const std::string credentials = (box->dir / "hub.json").string();
      Join(*box, credentials);
      if (HasFatalFailure()) return;
      box->config = (box->dir / "config.json").string();
      // No polls and no catch-up of the bank's events: a payment reaches the box by the hub only.
      std::ofstream(box->config) << Json{{"store_id", store},
                                         {"terminal_id", terminal},
                                         {"catch_up_interval_s", 86400},
                                         {"checkout", {{"poll_interval_s", 3600}}},
                                         {"connectivity", test_util::FastConnectivity()},
                                         {"hub", {{"credentials", credentials}, {"heartbeat_s", 1}}}}
                                        .dump(2);
      boxes_.push_back(std::move(box));
    }
  }
  // nats-server with JetStream and the users the hub writes (its own first, as the hub writes it).
  void StartNats() {
    std::filesystem::create_directories(dir_ / "nats");
    std::ofstream(dir_ / "nats" / "hub-password") << kHubPassword << "\n";
    NatsAuthority authority{(dir_ / "nats" / "users.conf").string(), (dir_ / "nats" / "nats.pid").string(), "hub", "",
                            ""};
    auto hash = BcryptHash(kHubPassword);
    ASSERT_OK(hash);
    authority.hub_password_hash = *hash;
    std::ofstream(authority.auth_file) << NatsAuthorization(authority, {});
    ASSERT_TRUE(nats_.Start(dir_ / "nats",
                            "host: 127.0.0.1\nport: {PORT}\npid_file: {DIR}/nats.pid\n"
                            "jetstream { store_dir: {DIR}/js }\ninclude users.conf\n"))
        << "nats-server did not start: see " << (dir_ / "nats" / "nats.log");
  }
  void WriteHubConfig() {
    hub_config_ = (dir_ / "hub.json").string();
    std::ofstream(hub_config_) << Json{{"postgres", postgres_.conninfo()},
                                       {"listen", {{"address", "127.0.0.1"}, {"port", hub_port_}}},
                                       {"webhook_url", caddy_.url() + "/bank/webhook"},
                                       {"bank", {{"credentials", credentials_}}},
                                       {"nats",
                                        {{"url", nats_.url()},
                                         {"user", "hub"},
                                         {"password_file", (dir_ / "nats" / "hub-password").string()},
                                         {"public_url", nats_.url()},
                                         {"auth_file", (dir_ / "nats" / "users.conf").string()},
                                         {"pid_file", (dir_ / "nats" / "nats.pid").string()}}}}
                                      .dump(2);
  }
  // balcao hub enroll on the hub, balcao hub join on the box (through Caddy, trusting its CA).
  void Join(Box& box, const std::string& credentials) {
    const std::string code =
        RunCli({"hub", "enroll", "--store", box.store, "--lane", box.terminal, "--config", hub_config_});
    ASSERT_FALSE(code.empty()) << "balcao hub enroll printed no code";
    const std::string joined = RunCli({"hub", "join", code.substr(0, code.find('\n')), "--hub", caddy_.url(), "--ca",
                                       caddy_.root_ca(), "--out", credentials});
    ASSERT_NE(joined.find("joined the hub"), std::string::npos) << joined;
    struct stat info {};
    ASSERT_EQ(::stat(credentials.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600u);
  }
  // The CLI's stdout (its stderr goes to the test's log).
  std::string RunCli(const std::vector<std::string>& args) {
    std::string command = std::string(BALCAO_CLI);
    for (const std::string& a : args) command += " '" + a + "'";
    std::string out;
    if (FILE* pipe = ::popen((command + " 2>>'" + (dir_ / "cli.log").string() + "'").c_str(), "r")) {
      char buffer[4096];
      for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
      ::pclose(pipe);
    }
    return out;
  }
  void TearDown() override {
    for (auto& box : boxes_) box->serve.Kill();
    hub_.Kill();
    caddy_.Stop();
    nats_.Stop();
    postgres_.Stop();
    if (bank_) bank_->Stop();
  }

  void StartHub() {
    ASSERT_TRUE(hub_.Start({BALCAO_CLI, "hub", "serve", "--config", hub_config_}, dir_ / "hub.log"));
    ASSERT_TRUE(WaitForPort(hub_port_, 30)) << "the hub did not listen: see " << (dir_ / "hub.log");
  }
  void StartBox(Box& box) {
    box.serve.Start(box.dir / "data", {"--config", box.config}, {{"BALCAO_CREDENTIALS", credentials_}});
  }
  Reply Sim(const std::string& route, const Json& body) {
    return Http("POST", sandbox_url_ + "/sandbox/" + route, body.dump());
  }
  Sale Sell(Box& box, const std::string& method, long long amount) {
    Sale sale{&box, "", method, "", amount};
    sale.id = box.serve.NewSale(amount)["id"].get<std::string>();
    Json body = {{"method", method}};
    if (method == "invoice") body["customer"] = {{"name", "Maria da Silva"}, {"tax_id", "337.451.076-08"}};
    const Reply chosen = box.serve.Post("/api/sales/" + sale.id + "/method", body);
    EXPECT_EQ(chosen.status, 200) << chosen.body;
    if (method == "pix") sale.bank_id = BankId(chosen.json, "brcode");
    if (method == "invoice") sale.bank_id = BankId(chosen.json, "invoice");
    if (method == "card") {
      const Json card = terminal::testing::WithCardCustomer(
          {{"number", kApproved}, {"expiry", "12/34"}, {"security_code", "737"}, {"holder_name", "MARIA SOUZA"}});
      const Reply paid = box.serve.Post("/api/sales/" + sale.id + "/card", card);
      EXPECT_EQ(paid.json["status"], "paid") << paid.body;
    }
    return sale;
  }
  void Pay(const Sale& sale) {
    if (sale.method == "pix") {
      EXPECT_EQ(Sim("dynamic-brcode/pay", {{"uuid", sale.bank_id}}).status, 200) << sale.id;
    } else if (sale.method == "invoice") {
      EXPECT_EQ(Sim("invoice/pay", {{"id", sale.bank_id}}).status, 200) << sale.id;
    }
  }
  // Paid exactly once: status paid, and what it collected is its amount.
  void ExpectPaidOnce(const Sale& sale, std::chrono::seconds limit = std::chrono::seconds(30)) {
    const Json view = sale.box->serve.WaitFor(sale.id, "paid", limit);
    EXPECT_EQ(view["status"], "paid") << sale.box->subject() << " " << sale.method << " " << view.dump();
    EXPECT_EQ(view.value("collected", -1LL), sale.amount) << view.dump();
  }
  // Every event in the stream went to its own lane's consumer, which acked it.
  // A paid sale's later events (an invoice's "credited" after its "paid") may still be on their
  // way when the last sale shows paid: each consumer is given until `limit` to drain.
  void ExpectEveryConsumerDrained(std::chrono::seconds limit = std::chrono::seconds(30)) {
    for (auto& box : boxes_) {
      const auto deadline = std::chrono::steady_clock::now() + limit;
      auto state = admin_->Consumer(kStreamName, ConsumerName(box->store, box->terminal));
      while (state.ok() && (state->pending != 0u || state->ack_pending != 0) &&
             std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        state = admin_->Consumer(kStreamName, ConsumerName(box->store, box->terminal));
      }
      ASSERT_OK(state);
      EXPECT_EQ(state->pending, 0u) << box->subject();
      EXPECT_EQ(state->ack_pending, 0) << box->subject();
    }
  }
  // No event stored twice: the stream holds as many messages as PostgreSQL routed events.
  void ExpectNothingStoredTwice() {
    auto store = HubStore::Open(postgres_.conninfo());
    ASSERT_OK(store);
    auto routed = (*store)->CountRouted("");
    auto stored = admin_->StreamMessages(kStreamName);
    ASSERT_OK(routed);
    ASSERT_OK(stored);
    EXPECT_EQ(static_cast<long long>(*stored), *routed);
    for (auto& box : boxes_) {
      auto own = (*store)->CountRouted(box->subject());
      ASSERT_OK(own);
      EXPECT_GT(*own, 0) << box->subject() << " received nothing";
    }
  }

  std::filesystem::path dir_;
  std::unique_ptr<sandbox::Sandbox> bank_;
  std::string credentials_, sandbox_url_, hub_config_;
  Postgres postgres_;
  Nats nats_;
  Caddy caddy_;
  Child hub_;
  int hub_port_ = 0;
  std::unique_ptr<NatsLink> admin_;
  std::vector<std::unique_ptr<Box>> boxes_;
};

TEST_F(HubE2E, EachLaneGetsItsOwnEventsThroughTheHubOnly) {
  for (auto& box : boxes_) StartBox(*box);
  std::vector<Sale> sales;
  long long amount = 1000;
  for (auto& box : boxes_)
    for (const char* method : {"pix", "card", "invoice"}) sales.push_back(Sell(*box, method, amount += 7));
  for (const Sale& sale : sales) Pay(sale);
  for (const Sale& sale : sales) ExpectPaidOnce(sale);
  // The bank knows one webhook, the hub's, behind Caddy: no box registered its own.
  const Reply hooks = Http("GET", sandbox_url_ + "/sandbox/webhook-deliveries");
  for (const Json& delivery : hooks.json["deliveries"])
    EXPECT_EQ(delivery["url"], caddy_.url() + "/bank/webhook") << delivery.dump();
  ExpectEveryConsumerDrained();
  ExpectNothingStoredTwice();
  for (auto& box : boxes_)
    EXPECT_EQ(box->serve.Drain().find("another lane's event"), std::string::npos) << box->subject();
}

TEST_F(HubE2E, StoppedBoxCatchesUpAndAKilledHubLosesNothing) {
  for (auto& box : boxes_) StartBox(*box);
  Box& stopped = *boxes_[1];
  std::vector<Sale> waiting;
  for (int n = 0; n < 5; ++n) waiting.push_back(Sell(stopped, "pix", 2000 + n));
  stopped.serve.Stop();
  // While it is off, its customers pay and the other lanes sell and are paid.
  std::vector<Sale> others;
  for (int n = 0; n < 10; ++n) others.push_back(Sell(*boxes_[n % 2 == 0 ? 0 : 2], "pix", 3000 + n));
  for (const Sale& sale : waiting) Pay(sale);
  for (const Sale& sale : others) Pay(sale);
  for (const Sale& sale : others) ExpectPaidOnce(sale);
  StartBox(stopped);
  for (const Sale& sale : waiting) ExpectPaidOnce(sale);

  // The hub killed (SIGKILL) at random points while the bank delivers; what it did not answer
  // 200 the bank delivers again, at its retry times (the sandbox's clock moved past them).
  std::vector<Sale> paid_during_kills;
  for (int n = 0; n < 30; ++n) paid_during_kills.push_back(Sell(*boxes_[n % 3], n % 2 ? "pix" : "invoice", 4000 + n));
  std::mt19937 random(static_cast<unsigned>(::testing::UnitTest::GetInstance()->random_seed()));
  std::thread payer([&] {
    for (const Sale& sale : paid_during_kills) Pay(sale);
  });
  for (int kill = 0; kill < 3; ++kill) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100 + random() % 400));
    hub_.Kill();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    StartHub();
  }
  payer.join();
  for (int retry = 0; retry < 3; ++retry) {  // the retries after 5, 30 and 120 minutes
    ASSERT_EQ(
        Http("POST", sandbox_url_ + "/sandbox/clock", Json{{"advance", 60 * (retry == 0 ? 5 : 90) + 1}}.dump()).status,
        200);
    ASSERT_EQ(Sim("flush", Json::object()).status, 200);
  }
  for (const Sale& sale : paid_during_kills) ExpectPaidOnce(sale);
  ExpectEveryConsumerDrained();
  ExpectNothingStoredTwice();
}

}  // namespace
}  // namespace balcao::hub::testing

namespace balcao::hub::testing {
namespace {

// What a lane's credential may do, tried against the real server: its own consumer and box
// subjects only; another lane's consumer, another lane's subjects and the events are refused.
TEST_F(HubE2E, ALaneCredentialReachesOnlyItsOwnLane) {
  auto own = terminal::service::LoadHubCredentials((boxes_[0]->dir / "hub.json").string());
  ASSERT_OK(own);
  EXPECT_EQ(own->user, LaneUser("loja-1", "caixa-1"));
  const NatsEndpoint endpoint{nats_.url(), own->user, own->password, "", LaneInbox("loja-1", "caixa-1"), "probe"};
  auto connect = [&endpoint] {
    auto link = NatsLink::Connect(endpoint);
    EXPECT_OK(link);
    return link.ok() ? *std::move(link) : nullptr;
  };
  auto lane = connect();
  ASSERT_NE(lane, nullptr);
  EXPECT_OK(lane->Bind(kStreamName, ConsumerName("loja-1", "caixa-1")));
  EXPECT_OK(lane->PublishConfirmed(BoxSubject("loja-1", "caixa-1", "heartbeat"), "{}"));
  // Another lane's consumer: the pull is refused (the refusal is reported at the next round
  // trip, which the connection's own, allowed publish makes).
  auto reach_for = [&](const std::string& durable) {
    auto probe = connect();
    Status bound = probe->Bind(kStreamName, durable);
    if (!bound.ok()) return bound;
    auto fetched = probe->Fetch(1, std::chrono::milliseconds(500));
    if (fetched.ok() && !fetched->empty()) return Status(StatusCode::kOk, "fetched another lane's event");
    return probe->PublishConfirmed(BoxSubject("loja-1", "caixa-1", "heartbeat"), "{}");
  };
  EXPECT_EQ(reach_for(ConsumerName("loja-2", "caixa-1")).code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(reach_for(ConsumerName("loja-1", "caixa-2")).code(), StatusCode::kPermissionDenied);
  EXPECT_OK(reach_for(ConsumerName("loja-1", "caixa-1")));
  EXPECT_EQ(connect()
                ->PublishConfirmed("$JS.API.CONSUMER.MSG.NEXT.BALCAO_EVENTS." + ConsumerName("loja-2", "caixa-1"), "1")
                .code(),
            StatusCode::kPermissionDenied);
  // Writing as another lane, or as the hub.
  EXPECT_EQ(connect()->PublishConfirmed(BoxSubject("loja-2", "caixa-1", "heartbeat"), "{}").code(),
            StatusCode::kPermissionDenied);
  EXPECT_EQ(connect()->PublishConfirmed(LaneSubject("loja-1", "caixa-1"), "{}").code(), StatusCode::kPermissionDenied);
  // Reading another lane's replies: the refused subscription is reported at the next round trip.
  auto reader = connect();
  ASSERT_OK(reader->Subscribe(LaneInbox("loja-2", "caixa-1") + ".>", [](const std::string&, const std::string&) {}));
  EXPECT_EQ(reader->PublishConfirmed(BoxSubject("loja-1", "caixa-1", "heartbeat"), "{}").code(),
            StatusCode::kPermissionDenied);
  // A wrong password gets no connection.
  NatsEndpoint wrong = endpoint;
  wrong.password = "not-the-password";
  EXPECT_EQ(NatsLink::Connect(wrong, std::chrono::milliseconds(200)).status().code(), StatusCode::kPermissionDenied);
}

TEST_F(HubE2E, ARevokedLaneIsCutOffAtOnce) {
  Box& box = *boxes_[2];
  StartBox(box);
  const Sale before = Sell(box, "pix", 5100);
  Pay(before);
  ExpectPaidOnce(before);
  const std::string revoked =
      RunCli({"hub", "revoke", "--store", box.store, "--lane", box.terminal, "--config", hub_config_});
  ASSERT_NE(revoked.find("revoked"), std::string::npos) << revoked;
  auto own = terminal::service::LoadHubCredentials((box.dir / "hub.json").string());
  ASSERT_OK(own);
  const NatsEndpoint endpoint{nats_.url(), own->user, own->password, "", LaneInbox(box.store, box.terminal), "probe"};
  // The reload is asynchronous: the server drops the user within a moment.
  StatusCode code = StatusCode::kOk;
  for (int i = 0; i < 50 && code != StatusCode::kPermissionDenied; ++i) {
    code = NatsLink::Connect(endpoint, std::chrono::milliseconds(100)).status().code();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(code, StatusCode::kPermissionDenied);
  // The running box lost its connection: a payment now stays in its lane's stream.
  const Sale after = Sell(box, "pix", 5200);
  Pay(after);
  std::this_thread::sleep_for(std::chrono::seconds(3));
  EXPECT_NE(box.serve.Get("/api/sales/" + after.id).json["status"], "paid") << "a revoked box still receives events";
}

}  // namespace
}  // namespace balcao::hub::testing

namespace balcao::hub::testing {
namespace {

// Someone who can write the box's SQLite file changes a sale's row and recomputes the whole
// chain (the box's own check passes): the hub flags the lane at the box's next head.
void RewriteJournal(const std::filesystem::path& db) {
  sqlite3* handle = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(handle, "UPDATE sale_journal SET payload = replace(payload, '5300', '5') WHERE chain_seq = 1",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_changes(handle), 1) << "the sale's first row names its amount";
  sqlite3_stmt* rows = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(handle,
                               "SELECT chain_seq, sale_id, seq, kind, payload, created_at FROM sale_journal "
                               "WHERE chain_seq IS NOT NULL ORDER BY chain_seq",
                               -1, &rows, nullptr),
            SQLITE_OK);
  std::vector<offline::ChainRow> chain;
  while (sqlite3_step(rows) == SQLITE_ROW) {
    auto text = [rows](int i) { return std::string(reinterpret_cast<const char*>(sqlite3_column_text(rows, i))); };
    chain.push_back({sqlite3_column_int64(rows, 0), text(1), sqlite3_column_int64(rows, 2), text(3), text(4),
                     sqlite3_column_int64(rows, 5), "", ""});
  }
  sqlite3_finalize(rows);
  std::string prev = offline::ChainGenesis();
  for (offline::ChainRow& row : chain) {
    row.prev = prev;
    row.hash = offline::ChainLink(prev, row);
    sqlite3_stmt* write = nullptr;
    sqlite3_prepare_v2(handle, "UPDATE sale_journal SET chain_prev = ?2, chain_hash = ?3 WHERE chain_seq = ?1", -1,
                       &write, nullptr);
    sqlite3_bind_int64(write, 1, row.position);
    sqlite3_bind_blob(write, 2, row.prev.data(), static_cast<int>(row.prev.size()), SQLITE_TRANSIENT);
    sqlite3_bind_blob(write, 3, row.hash.data(), static_cast<int>(row.hash.size()), SQLITE_TRANSIENT);
    ASSERT_EQ(sqlite3_step(write), SQLITE_DONE);
    sqlite3_finalize(write);
    prev = row.hash;
  }
  sqlite3_close(handle);
}

TEST_F(HubE2E, ATamperedJournalIsFlaggedAtTheBoxsNextHead) {
  Box& box = *boxes_[1];
  StartBox(box);
  const Sale sale = Sell(box, "pix", 5300);
  Pay(sale);
  ExpectPaidOnce(sale);
  // The hub has seen a head covering the sale's rows (heartbeats every second in this test).
  auto status = [this] {
    return Json::parse(RunCli({"hub", "status", "--json", "--config", hub_config_}), nullptr, false);
  };
  auto lane_of = [&box](const Json& lanes) {
    for (const Json& lane : lanes)
      if (lane["store"] == box.store && lane["terminal"] == box.terminal) return lane;
    return Json();
  };
  std::this_thread::sleep_for(std::chrono::seconds(3));
  ASSERT_EQ(lane_of(status())["chain"], "ok") << status().dump();
  EXPECT_EQ(lane_of(status())["silent"], false) << "its heartbeats arrive";
  box.serve.Stop();
  RewriteJournal(box.dir / "data" / "balcao.db");
  StartBox(box);
  Json flagged;
  for (int i = 0; i < 100 && (flagged = lane_of(status()))["chain"] == "ok"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_NE(flagged["chain"].get<std::string>().find("rewritten"), std::string::npos) << flagged.dump();
}

}  // namespace
}  // namespace balcao::hub::testing
