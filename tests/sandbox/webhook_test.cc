// Webhook deliveries: signed with the key /v2/public-key serves, Python-style sorted body,
// retries after 5/30/120 minutes of sandbox time, attempts recorded, isDelivered kept.
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <mutex>
#include <thread>
#include <vector>

#include "api/resources.h"
#include "tests/sandbox/sandbox_client.h"
#include "tests/testing/loopback.h"
#include "tests/testing/status_matchers.h"

namespace balcao::sandbox::testing {
namespace {

// A minimal HTTP receiver on 127.0.0.1 answering every POST with `status`.
class Receiver {
 public:
  explicit Receiver(int status) : status_(status), listener_(16) {
    thread_ = std::thread([this] { Loop(); });
  }
  ~Receiver() {
    stop_ = true;
    listener_.Shutdown();
    thread_.join();
  }
  std::string url() const { return listener_.url("/hook"); }
  struct Hit {
    std::string signature, body;
  };
  std::vector<Hit> hits() {
    std::lock_guard lock(mu_);
    return hits_;
  }

 private:
  void Loop() {
    while (!stop_) {
      int c = listener_.Accept();
      if (c < 0) continue;
      std::string data;
      char buf[4096];
      std::size_t need = std::string::npos;
      while (true) {
        auto n = ::read(c, buf, sizeof buf);
        if (n <= 0) break;
        data.append(buf, n);
        auto end = data.find("\r\n\r\n");
        if (end != std::string::npos && need == std::string::npos) {
          std::string lower = data.substr(0, end);
          for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
          auto cl = lower.find("content-length:");
          need = end + 4 + (cl == std::string::npos ? 0 : std::stoul(lower.substr(cl + 15)));
        }
        if (need != std::string::npos && data.size() >= need) break;
      }
      auto end = data.find("\r\n\r\n");
      Hit hit;
      std::string lower = data.substr(0, end);
      for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      auto sig = lower.find("digital-signature:");
      if (sig != std::string::npos) {
        auto eol = data.find("\r\n", sig);
        hit.signature = data.substr(sig + 18, eol - sig - 18);
        hit.signature.erase(0, hit.signature.find_first_not_of(' '));
      }
      if (end != std::string::npos) hit.body = data.substr(end + 4);
      {
        std::lock_guard lock(mu_);
        hits_.push_back(hit);
      }
      std::string reply =
          "HTTP/1.1 " + std::to_string(status_) + " X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
      (void)!::write(c, reply.data(), reply.size());
      ::close(c);
    }
  }
  int status_;
  test_util::LoopbackListener listener_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::mutex mu_;
  std::vector<Hit> hits_;
};

class WebhookTest : public SandboxTest {};

std::vector<std::string> DocumentedSubscriptions() {
  std::ifstream in(std::string(BALCAO_TEST_DATA_DIR) + "/webhook_subscriptions.txt");
  std::vector<std::string> names;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') names.push_back(line);
  return names;
}

// A sandbox as the documents describe the bank (SandboxOptions::undocumented_subscriptions
// off, as `balcao serve`'s embedded one): every documented subscription is accepted, and a
// registration naming any other is refused whole, with the field and the name.
TEST(WebhookSubscriptions, OnlyTheDocumentedOnesAreAcceptedByDefault) {
  std::vector<std::string> known(api::Subscriptions().begin(), api::Subscriptions().end());
  const std::vector<std::string> documented = DocumentedSubscriptions();
  ASSERT_EQ(documented.size(), 11u) << "tests/data/webhook_subscriptions.txt";
  EXPECT_EQ(known, documented) << "api::Subscriptions() is the documented list";
  SandboxOptions options;
  options.db = ":memory:";
  auto strict = Sandbox::Start(options);
  ASSERT_OK(strict);
  const auto& c = (*strict)->credentials();
  auto key = api::PrivateKey::FromFile(c.private_key_path);
  ASSERT_OK(key);
  Client bank("http://127.0.0.1:" + std::to_string((*strict)->port()), "project/" + c.project_id, *key);
  auto all = bank.Post("/v2/webhook", {{"url", "http://127.0.0.1:9/hook"}, {"subscriptions", documented}});
  EXPECT_EQ(all.status, 200) << all.body;
  for (std::string_view card : api::UndocumentedSubscriptions()) {
    auto refused = bank.Post("/v2/webhook", {{"url", "http://127.0.0.1:9/card"},
                                             {"subscriptions", {"deposit", "invoice", std::string(card)}}});
    EXPECT_EQ(refused.status, 400) << card;
    ASSERT_TRUE(refused.json.contains("errors")) << refused.body;
    EXPECT_EQ(refused.json["errors"][0].value("code", ""), "invalidSubscriptions") << refused.body;
    EXPECT_NE(refused.body.find(std::string(card)), std::string::npos) << refused.body;
  }
  auto listed = bank.Get("/v2/webhook");
  ASSERT_EQ(listed.status, 200);
  EXPECT_EQ(listed.json["webhooks"].size(), 1u) << "a refused registration creates nothing";
}

TEST_F(WebhookTest, DeliversSignedSortedEventsVerifiableWithThePublicKey) {
  Receiver receiver(200);
  auto hook = api().Post("/v2/webhook", {{"url", receiver.url()}, {"subscriptions", {"deposit"}}});
  ASSERT_EQ(hook.status, 200) << hook.body;
  ASSERT_EQ(api().Sim("/sandbox/deposit", {{"amount", 1234}, {"name", "José Ávila"}}).status, 200);
  sandbox().Flush();
  auto hits = receiver.hits();
  ASSERT_EQ(hits.size(), 2u);  // deposit logs "created" and "credited"
  auto keys = api().Get("/v2/public-key?limit=1");
  auto pem = keys.json["publicKeys"][0]["content"].get<std::string>();
  auto key = api::PublicKey::FromPem(pem);
  ASSERT_OK(key);
  for (const auto& hit : hits) {
    EXPECT_TRUE(key->Verify(hit.body, hit.signature)) << hit.body;
    Json parsed = Json::parse(hit.body);
    EXPECT_EQ(hit.body.find("\\u00e9") != std::string::npos, true);  // ASCII-escaped like json.dumps
    EXPECT_EQ(hit.body.rfind("{\"event\": {\"created\": ", 0), 0u);
    EXPECT_EQ(parsed["event"]["subscription"], "deposit");
    auto event = api().Get("/v2/event/" + parsed["event"]["id"].get<std::string>());
    EXPECT_EQ(event.json["event"]["isDelivered"], true);
  }
  api().Delete("/v2/webhook/" + hook.json["webhook"]["id"].get<std::string>());
  EXPECT_EQ(Code(api().Get("/v2/webhook/" + hook.json["webhook"]["id"].get<std::string>())), "invalidWebhookId");
}

TEST_F(WebhookTest, FailedDeliveriesAreRetriedOnTheSandboxClockAndRecorded) {
  Receiver receiver(500);
  auto hook = api().Post("/v2/webhook", {{"url", receiver.url()}, {"subscriptions", {"invoice"}}});
  ASSERT_EQ(hook.status, 200);
  const std::string hook_id = hook.json["webhook"]["id"].get<std::string>();
  auto inv =
      api().Post("/v2/invoice", {{"invoices", {{{"amount", 100}, {"name", "Ana Lima"}, {"taxId", "33745107608"}}}}});
  ASSERT_EQ(inv.status, 200);
  sandbox().Flush();
  EXPECT_EQ(receiver.hits().size(), 1u);
  // Moving the clock hands due retries to the delivery workers; Flush waits for them.
  api().Sim("/sandbox/clock", {{"advance", 4 * 60}});
  sandbox().Flush();
  EXPECT_EQ(receiver.hits().size(), 1u);  // not yet 5 minutes
  api().Sim("/sandbox/clock", {{"advance", 60}});
  sandbox().Flush();
  EXPECT_EQ(receiver.hits().size(), 2u);
  for (int minutes : {30, 120, 600}) {
    api().Sim("/sandbox/clock", {{"advance", minutes * 60}});
    sandbox().Flush();
  }
  EXPECT_EQ(receiver.hits().size(), 4u);  // first try + 3 retries, then it stops
  auto attempts = api().Get("/v2/event/attempt?webhookIds=" + hook_id);
  ASSERT_EQ(attempts.json["attempts"].size(), 4u) << attempts.body;
  const std::string event_id = attempts.json["attempts"][0]["eventId"].get<std::string>();
  auto undelivered = api().Get("/v2/event?isDelivered=false&limit=100");
  bool found = false;
  for (const auto& e : undelivered.json["events"]) found = found || e["id"] == event_id;
  EXPECT_TRUE(found);
  EXPECT_EQ(api().Patch("/v2/event/" + event_id, {{"isDelivered", true}}).json["event"]["isDelivered"], true);
  EXPECT_EQ(api().Delete("/v2/event/" + event_id).status, 200);
  EXPECT_EQ(Code(api().Get("/v2/event/" + event_id)), "invalidEvent");
  api().Delete("/v2/webhook/" + hook_id);
}

}  // namespace
}  // namespace balcao::sandbox::testing
