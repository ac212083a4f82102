// `balcao serve`'s webhook endpoint against replays (docs/security.md, "Webhook deliveries"):
// the sandbox's real signed delivery posted again is answered 200 and changes nothing (the
// sale's journal and view, also after a restart); an event older than the replay window is
// refused even with a genuine signature (signed here with the embedded sandbox's own webhook
// key, as the bank would); only a signed POST of a bounded body is heard.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "api/crypto.h"
#include "common/time.h"
#include "offline/journal.h"
#include "offline/store.h"
#include "tests/terminal/serve_fixture.h"
#include "tests/testing/config_file.h"
#include "tests/testing/status_matchers.h"

namespace balcao::terminal::testing {
namespace {

using test_util::WriteConfig;

// The number of rows the sale has in the store's journal, read beside the running service.
std::size_t JournalRows(const std::filesystem::path& data_dir, const std::string& sale_id) {
  auto store = offline::Store::OpenReadOnly((data_dir / "balcao.db").string());
  EXPECT_OK(store);
  if (!store.ok()) return 0;
  auto rows = offline::Journal(**store).Read(sale_id);
  EXPECT_OK(rows);
  return rows.ok() ? rows->size() : 0;
}

// balcao_webhook_deliveries_total{result="<result>"} on /metrics; -1 when absent.
long Deliveries(const ServeProcess& serve, const std::string& result) {
  const std::string page = Http("GET", serve.url() + "/metrics").body;
  std::smatch m;
  const std::regex line("balcao_webhook_deliveries_total\\{result=\"" + result + "\"\\} ([0-9]+)");
  return std::regex_search(page, m, line) ? std::stol(m[1].str()) : -1;
}

struct SignedEvent {
  std::string body, signature;
};

// A Pix sale paid by the sandbox's payer, with polls off so that only the bank's events can
// tell the sale: returns the sale id and fills the delivery the sandbox made to serve (its
// exact body and Digital-Signature) that serve answered 200.
std::string PaidPixSale(ServeProcess& serve, SignedEvent& delivery) {
  const std::string id = serve.NewSale(2590)["id"].get<std::string>();
  const Json pix = serve.Post("/api/sales/" + id + "/method", {{"method", "pix"}}).json;
  EXPECT_EQ(pix["status"], "pix") << pix.dump();
  EXPECT_EQ(serve.Simulate("dynamic-brcode/pay", {{"uuid", BankId(pix, "brcode")}}).status, 200);
  EXPECT_EQ(serve.WaitFor(id, "paid")["collected"], 2590);
  const Reply deliveries = Http("GET", serve.sandbox() + "/sandbox/webhook-deliveries");
  for (const Json& d : deliveries.json["deliveries"])
    if (d["url"] == serve.url() + "/bank/webhook" && d["lastStatus"] == 200 &&
        d["body"].get<std::string>().find("\"deposit\"") != std::string::npos)
      delivery = {d["body"].get<std::string>(), d["signature"].get<std::string>()};
  EXPECT_FALSE(delivery.body.empty()) << deliveries.body;
  return id;
}

TEST(ServeWebhookReplay, AReplayedDeliveryIsAcknowledgedAndChangesNothing) {
  const auto dir = FreshDir("webhook-replay");
  const std::string config = WriteConfig(dir, {{"checkout", {{"poll_interval_s", 3600}}}});
  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config});
  SignedEvent delivery;
  const std::string id = PaidPixSale(serve, delivery);
  ASSERT_FALSE(delivery.body.empty());
  const std::string url = serve.url() + "/bank/webhook";
  const Json view = serve.Get("/api/sales/" + id).json;
  const std::size_t rows = JournalRows(dir / "data", id);
  ASSERT_GT(rows, 0u);
  // The service's catch-up may have taken the events before the bank's own deliveries arrived
  // (those are then replays already): counted from here.
  const long replayed_before = Deliveries(serve, "replayed");
  ASSERT_GE(replayed_before, 0);

  for (int i = 0; i < 3; ++i) {
    const Reply again = Http("POST", url, delivery.body, {{"Digital-Signature", delivery.signature}});
    EXPECT_EQ(again.status, 200) << again.body;  // acknowledged: the bank stops delivering it
    EXPECT_EQ(again.json["outcome"], "replayed") << again.body;
    EXPECT_EQ(again.json["sale"], id);
  }
  EXPECT_EQ(JournalRows(dir / "data", id), rows) << "a replay was journaled";
  EXPECT_EQ(serve.Get("/api/sales/" + id).json, view);
  EXPECT_EQ(Deliveries(serve, "replayed"), replayed_before + 3);

  // The ids are in the store, not in the process: a restart does not reopen the door.
  serve.Stop();
  serve.Start(dir / "data", {"--config", config});
  const Reply after =
      Http("POST", serve.url() + "/bank/webhook", delivery.body, {{"Digital-Signature", delivery.signature}});
  EXPECT_EQ(after.status, 200) << after.body;
  EXPECT_EQ(after.json["outcome"], "replayed") << after.body;
  EXPECT_EQ(JournalRows(dir / "data", id), rows);
  EXPECT_EQ(serve.Get("/api/sales/" + id).json["collected"], 2590);
  serve.Stop();
}

TEST(ServeWebhookReplay, AnEventOlderThanTheWindowIsRefusedEvenWellSigned) {
  const auto dir = FreshDir("webhook-old");
  const std::string config =
      WriteConfig(dir, {{"checkout", {{"poll_interval_s", 3600}}}, {"security", {{"webhook_retention_days", 2}}}});
  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config});
  SignedEvent delivery;
  const std::string id = PaidPixSale(serve, delivery);
  ASSERT_FALSE(delivery.body.empty());
  // The bank's key is the embedded sandbox's: what it signs, serve believes.
  auto bank_key = api::PrivateKey::FromFile((dir / "data" / "sandbox" / "sandbox-webhook-private-key.pem").string());
  ASSERT_OK(bank_key);
  // The same event under another id (so not a replay of a known one), created `age` ago.
  auto event_aged = [&](const std::string& event_id, UnixMicros age) {
    Json doc = Json::parse(delivery.body);
    doc["event"]["id"] = event_id;
    doc["event"]["created"] = FormatTimestamp(SystemClock::Instance().Now() - age);
    const std::string body = doc.dump();
    return Http("POST", serve.url() + "/bank/webhook", body, {{"Digital-Signature", bank_key->Sign(body)}});
  };
  const UnixMicros day = 86400 * kMicrosPerSecond;
  const std::size_t rows = JournalRows(dir / "data", id);

  const Reply old = event_aged("7000000000000001", 3 * day);
  EXPECT_EQ(old.status, 422) << old.body;
  EXPECT_EQ(old.json["error"]["field"], "event");
  EXPECT_EQ(old.json["error"]["rule"], "older than the 2-day replay window");
  EXPECT_EQ(JournalRows(dir / "data", id), rows) << "a refused event reached the sale";
  EXPECT_EQ(Deliveries(serve, "too-old"), 1);

  // Inside the window the same signature check lets it through: a new event id, taken once
  // (the sale already counted this deposit: no change of money), then replayed.
  const Reply young = event_aged("7000000000000002", day);
  EXPECT_EQ(young.status, 200) << young.body;
  EXPECT_EQ(young.json["outcome"], "applied") << young.body;
  const Reply twice = event_aged("7000000000000002", day);
  EXPECT_EQ(twice.json["outcome"], "replayed") << twice.body;
  EXPECT_EQ(serve.Get("/api/sales/" + id).json["collected"], 2590);
  serve.Stop();
}

TEST(ServeWebhookReplay, OnlyASignedPostOfABoundedBodyIsHeard) {
  const auto dir = FreshDir("webhook-door");
  ServeProcess serve;
  serve.Start(dir / "data");
  const std::string url = serve.url() + "/bank/webhook";
  for (const char* method : {"GET", "PUT", "DELETE", "PATCH"}) {
    const Reply r = Http(method, url, method == std::string("GET") ? "" : "{}");
    EXPECT_EQ(r.status, 405) << method << " " << r.body;
    EXPECT_EQ(r.json["error"]["field"], "method") << method;
  }
  const Reply unsigned_post = Http("POST", url, R"({"event":{}})");
  EXPECT_EQ(unsigned_post.status, 401) << unsigned_post.body;
  EXPECT_EQ(unsigned_post.json["error"]["field"], "Digital-Signature");
  // Far beyond any event the bank sends: refused by size before any signature is checked.
  const Reply huge =
      Http("POST", url, R"({"event":")" + std::string(70 << 10, 'x') + R"("})", {{"Digital-Signature", "AAAA"}});
  EXPECT_EQ(huge.status, 413) << huge.body;
  EXPECT_EQ(Deliveries(serve, "rejected"), 1);
  serve.Stop();
}

}  // namespace
}  // namespace balcao::terminal::testing
