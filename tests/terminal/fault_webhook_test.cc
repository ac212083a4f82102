// A refused webhook registration (last test): shown, retried, then the webhook carries a Pix.
// A webhook receiver that never answers, registered at `balcao serve`'s embedded sandbox beside
// the service's own: the customer's payments (the sandbox's simulation API, and the service's
// simulate action) answer at once, other requests to the sandbox are not held up, every sale
// is paid once (the service's own deliveries and its poll go on), and the books balance.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <future>
#include <random>
#include <sstream>
#include <vector>

#include "api/client.h"
#include "tests/terminal/fault_fixture.h"
#include "tests/testing/loopback.h"

namespace balcao::terminal::testing {
namespace {

// Accepts connections and never answers (nor reads): the receiver that hangs.
// The kernel completes the handshakes; nobody ever reads.
class HangingReceiver {
 public:
  std::string url() const { return listener_.url("/hook"); }

 private:
  test_util::LoopbackListener listener_{512};
};

long long MillisOf(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
}

TEST(FaultWebhook, AHangingReceiverHoldsUpNoPaymentAndNoOtherRequest) {
  std::mt19937_64 rng(FaultSeed());
  const auto dir = FreshDir("fault-webhook");
  const std::string config = WriteConfig(dir, {{"checkout", {{"poll_interval_s", 2}}}});
  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config});
  ASSERT_FALSE(serve.sandbox().empty());
  HangingReceiver hanging;
  auto client = api::Client::FromEnvironment((dir / "data" / "sandbox" / "credentials.json").string());
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  const Json hook = {{"url", hanging.url()}, {"subscriptions", {"deposit", "invoice"}}};
  ASSERT_TRUE(client->Call("POST", "/v2/webhook", {}, hook.dump()).ok());

  std::map<std::string, long long> opened, paid;
  std::vector<std::string> uuids;
  const int sales = std::uniform_int_distribution<int>(6, 10)(rng);
  for (int i = 0; i < sales; ++i) {
    const std::string id = OpenSale(serve, rng, opened);
    paid[id] = opened[id];
    const Reply shown = serve.Post("/api/sales/" + id + "/method", {{"method", "pix"}});
    ASSERT_EQ(shown.json["status"], "pix") << shown.body;
    uuids.push_back(BankId(shown.json, "brcode"));
  }
  // All the customers pay at once; each answer comes at once, and so does the sandbox's clock.
  std::vector<std::future<long long>> payments;
  for (const std::string& uuid : uuids) {
    payments.push_back(std::async(std::launch::async, [&serve, uuid] {
      return MillisOf([&] {
        const Reply pay =
            Http("POST", serve.sandbox() + "/sandbox/dynamic-brcode/pay", Json{{"uuid", uuid}, {"name", "C"}}.dump());
        EXPECT_EQ(pay.status, 200) << pay.body;
      });
    }));
  }
  const long long clock_ms = MillisOf([&] { EXPECT_EQ(Http("GET", serve.sandbox() + "/sandbox/clock").status, 200); });
  for (auto& p : payments) EXPECT_LT(p.get(), 1000) << "a payment waited for the hanging receiver";
  EXPECT_LT(clock_ms, 1000);
  for (const auto& [id, amount] : opened) serve.WaitFor(id, "paid");

  // The service's own simulate action: no thread per call, answered at once as well.
  const std::string last = OpenSale(serve, rng, opened);
  paid[last] = opened[last];
  ASSERT_EQ(serve.Post("/api/sales/" + last + "/method", {{"method", "pix"}}).json["status"], "pix");
  EXPECT_LT(MillisOf([&] { EXPECT_EQ(serve.Post("/api/sales/" + last + "/simulate", Json::object()).status, 200); }),
            1000);
  serve.WaitFor(last, "paid");

  ExpectBooksBalance(serve, opened, paid);
  serve.Stop();
}

}  // namespace
}  // namespace balcao::terminal::testing

namespace balcao::terminal::testing {
namespace {

// The bank refuses the webhook's registration twice (a bank of its own, `balcao sandbox`, which
// also refuses any subscription its documents do not list): the refusal is logged, shown on
// /readyz and the touchscreen's health line, and retried with a growing back-off; once
// registered (deposit and invoice only), a Pix paid by the customer reaches the sale through
// the webhook alone (no polls, no catch-up).
TEST(FaultWebhook, ARefusedRegistrationIsShownAndRetriedThenAPaidPixArrivesThroughIt) {
  const auto dir = FreshDir("fault-webhook-refused");
  SandboxProcess bank;
  bank.Start(dir / "bank");
  ASSERT_TRUE(bank.running());
  ASSERT_EQ(bank.Simulate("faults", {{"POST /v2/webhook", {"http-500", "http-500"}}}).status, 200);
  const int port = test_util::FreeLoopbackPort();
  const std::string config =
      WriteConfig(dir, {{"checkout", {{"poll_interval_s", 3600}}},
                        {"webhook_url", "http://127.0.0.1:" + std::to_string(port) + "/bank/webhook"},
                        {"catch_up_interval_s", 86400}});
  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config, "--port", std::to_string(port)},
              {{"BALCAO_CREDENTIALS", bank.credentials()}});
  ASSERT_TRUE(serve.running());
  Json refused;
  ASSERT_TRUE(Eventually([&] {
    refused = Http("GET", serve.url() + "/readyz").json;
    return refused["checks"]["webhook"].contains("warning");
  })) << refused.dump();
  EXPECT_NE(refused["checks"]["webhook"]["warning"].get<std::string>().find("webhook not registered"),
            std::string::npos);
  EXPECT_EQ(refused["status"], "ready") << "shown, never failing: payments are still seen by polling";
  const Json health = serve.Get("/api/status").json["health"]["webhook"];
  EXPECT_EQ(health["ok"], false) << health.dump();
  // Retried after 5 s, then 10 s: registered at the third attempt.
  Json registered;
  ASSERT_TRUE(Eventually(
      [&] {
        registered = Http("GET", serve.url() + "/readyz").json;
        return !registered["checks"]["webhook"].contains("warning");
      },
      std::chrono::seconds(60)))
      << registered.dump();
  EXPECT_NE(registered["checks"]["webhook"]["detail"].get<std::string>().find("deposit and invoice"),
            std::string::npos);
  EXPECT_EQ(serve.Get("/api/status").json["health"]["webhook"]["ok"], true);
  std::stringstream log_text;
  log_text << std::ifstream(dir / "data" / "balcao.log").rdbuf();
  const std::string log = log_text.str();
  EXPECT_NE(log.find("webhook not registered"), std::string::npos);
  EXPECT_NE(log.find("retry_in_s=5 "), std::string::npos) << log;
  EXPECT_NE(log.find("retry_in_s=10 "), std::string::npos) << log;
  const Json hooks = bank.List("webhook");
  ASSERT_EQ(hooks.size(), 1u) << hooks.dump();
  EXPECT_EQ(hooks[0]["subscriptions"], Json::array({"deposit", "invoice"}));

  std::mt19937_64 rng(FaultSeed());
  std::map<std::string, long long> opened, paid;
  const std::string id = OpenSale(serve, rng, opened);
  ASSERT_FALSE(id.empty());
  PayByPix(serve, bank.url(), id, opened, paid);
  ExpectBooksBalance(serve, opened, paid);
  EXPECT_GE(MetricValue(serve, "balcao_webhook_deliveries_total{result=\"applied\"}"), 1.0);
  serve.Stop();
  bank.Stop();
}

}  // namespace
}  // namespace balcao::terminal::testing
