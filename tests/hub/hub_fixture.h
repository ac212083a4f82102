// The hub's end-to-end fixture (docs/hub.md): real nats-server with JetStream, real PostgreSQL
// 15 in its own data dir, Caddy with `tls internal` in front of `balcao hub serve`, the bank
// (the sandbox, in this process) delivering its webhooks to Caddy's HTTPS address only, and
// three boxes (`balcao serve`) of two stores that registered no webhook of their own. Skipped,
// naming what is missing, without the engines. Thread-safety: one test thread.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "hub/enrolment.h"
#include "hub/hub_store.h"
#include "hub/nats.h"
#include "hub/routing.h"
#include "sandbox/sandbox.h"
#include "tests/hub/engines.h"
#include "tests/terminal/serve_fixture.h"
#include "tests/testing/loopback.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/test_bank.h"

namespace balcao::hub::testing {

using terminal::testing::BankId;
using terminal::testing::FreshDir;
using terminal::testing::Http;
using terminal::testing::Json;
using terminal::testing::Reply;
using terminal::testing::ServeProcess;

inline constexpr const char* kApproved = "5277696455399733";  // an SDK test card: approved
inline constexpr const char* kHubPassword = "hub-password-for-the-test";

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
    hub_port_ = test_util::FreeLoopbackPort();
    ASSERT_TRUE(caddy_.Start(dir_ / "caddy", hub_port_)) << "caddy did not start";
    WriteHubConfig();
    StartHub();
    if (HasFatalFailure()) return;
    auto admin = NatsLink::Connect({NatsUrl(), "hub", kHubPassword, nats_ca_});
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
    std::string tls;
    if (nats_tls_) {
      MakeNatsCertificates();
      if (HasFatalFailure()) return;
      tls = "tls { cert_file: {DIR}/server.pem, key_file: {DIR}/server.key }\n";
    }
    ASSERT_TRUE(nats_.Start(dir_ / "nats",
                            "host: 127.0.0.1\nport: {PORT}\npid_file: {DIR}/nats.pid\n"
                            "jetstream { store_dir: {DIR}/js }\ninclude users.conf\n" +
                                tls))
        << "nats-server did not start: see " << (dir_ / "nats" / "nats.log");
  }
  // A CA of the test's own and nats-server's certificate for 127.0.0.1 (openssl), as an operator
  // makes them for /etc/nats-server/balcao/ (docs/hub.md, "NATS").
  void MakeNatsCertificates() {
    const auto d = dir_ / "nats";
    const auto log = d / "openssl.log";
    std::ofstream(d / "san.cnf") << "subjectAltName=IP:127.0.0.1\n";
    const std::vector<std::vector<std::string>> steps = {
        {"openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
         (d / "ca.key").string(), "-out", (d / "ca.pem").string(), "-days", "2", "-subj", "/CN=balcao test CA"},
        {"openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
         (d / "server.key").string(), "-out", (d / "server.csr").string(), "-subj", "/CN=127.0.0.1"},
        {"openssl", "x509", "-req", "-in", (d / "server.csr").string(), "-CA", (d / "ca.pem").string(), "-CAkey",
         (d / "ca.key").string(), "-CAcreateserial", "-out", (d / "server.pem").string(), "-days", "2", "-extfile",
         (d / "san.cnf").string()}};
    for (const auto& argv : steps) ASSERT_EQ(testing::Run(argv, log), 0) << "openssl failed: see " << log;
    nats_ca_ = (d / "ca.pem").string();
  }
  // What the hub and the boxes dial: tls:// when nats-server requires TLS.
  std::string NatsUrl() const { return nats_tls_ ? "tls://127.0.0.1:" + std::to_string(nats_.port()) : nats_.url(); }
  void WriteHubConfig() {
    hub_config_ = (dir_ / "hub.json").string();
    Json config = Json{{"postgres", postgres_.conninfo()},
                       {"listen", {{"address", "127.0.0.1"}, {"port", hub_port_}}},
                       {"webhook_url", caddy_.url() + "/bank/webhook"},
                       {"bank", {{"credentials", credentials_}}},
                       {"nats",
                        {{"url", NatsUrl()},
                         {"user", "hub"},
                         {"password_file", (dir_ / "nats" / "hub-password").string()},
                         {"public_url", NatsUrl()},
                         {"auth_file", (dir_ / "nats" / "users.conf").string()},
                         {"pid_file", (dir_ / "nats" / "nats.pid").string()}}}};
    if (!nats_ca_.empty()) config["nats"]["ca_file"] = nats_ca_;
    std::ofstream(hub_config_) << config.dump(2);
  }
  // balcao hub enroll on the hub, balcao hub join on the box (through Caddy, trusting its CA).
  void Join(Box& box, const std::string& credentials) {
    const std::string code =
        RunCli({"hub", "enroll", "--store", box.store, "--lane", box.terminal, "--config", hub_config_});
    ASSERT_FALSE(code.empty()) << "balcao hub enroll printed no code";
    std::vector<std::string> join = {
        "hub",   "join",     code.substr(0, code.find('\n')), "--hub", caddy_.url(), "--ca", caddy_.root_ca(),
        "--out", credentials};
    if (!nats_ca_.empty()) join.insert(join.end(), {"--nats-ca", nats_ca_});
    const std::string joined = RunCli(join);
    ASSERT_NE(joined.find("joined the hub"), std::string::npos) << joined;
    struct stat info {};
    ASSERT_EQ(::stat(credentials.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600u);
  }
  // The CLI's stdout (its stderr goes to the test's log).
  std::string RunCli(const std::vector<std::string>& args) { return RunCliStatus(args).first; }
  // The CLI's stdout and exit status (-1: not run), with the bank's credentials in its environment.
  // `input`, when given, is its stdin (one line).
  std::pair<std::string, int> RunCliStatus(const std::vector<std::string>& args, const std::string& input = "") {
    std::string command = "BALCAO_CREDENTIALS='" + credentials_ + "' " + std::string(BALCAO_CLI);
    if (!input.empty()) command = "printf '%s\\n' '" + input + "' | " + command;
    for (const std::string& a : args) command += " '" + a + "'";
    std::string out;
    int status = -1;
    if (FILE* pipe = ::popen((command + " 2>>'" + (dir_ / "cli.log").string() + "'").c_str(), "r")) {
      char buffer[4096];
      for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
      const int waited = ::pclose(pipe);
      status = WIFEXITED(waited) ? WEXITSTATUS(waited) : -1;
    }
    return {out, status};
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
  // Every event in the stream went to its own lane's consumer, which acked it. A paid sale's
  // later events (an invoice's "credited" after its "paid") may still be on their way when the
  // last sale shows paid: each consumer is given until `limit` to drain.
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

  // `balcao settle` of the day on the running box (a guest of its store), as its timer runs it.
  void SettleBox(Box& box, const std::string& day) {
    const auto [out, code] = RunCliStatus(
        {"settle", "--day", day, "--db", (box.dir / "data" / "balcao.db").string(), "--config", box.config, "--json"});
    ASSERT_EQ(code, 0) << box.subject() << " did not reconcile its own night:\n" << out;
  }
  // The nights the hub holds for the day, waiting until `count` of them are there.
  std::vector<LaneNight> NightsAtTheHub(const std::string& day, std::size_t count) {
    auto store = HubStore::Open(postgres_.conninfo());
    EXPECT_OK(store);
    if (!store.ok()) return {};
    std::vector<LaneNight> nights;
    for (int i = 0; i < 200 && nights.size() < count; ++i) {
      auto read = (*store)->Nights(day);
      if (read.ok()) nights = *read;
      if (nights.size() < count) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return nights;
  }

  bool nats_tls_ = false;  // set by a derived fixture before SetUp: nats-server requires TLS
  std::string nats_ca_;    // then the PEM its certificate chains to
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

}  // namespace balcao::hub::testing
