// The card paid on the customer's phone against the real executable (docs/adr/0009): keyed entry
// is off as shipped (403 naming the setting), the sale's phone link and the page's public facts
// (no session needed, only a live session's uuid; nothing else revealed), the phone's unsigned
// purchase straight to the embedded sandbox turning the sale paid, and keyed entry, once a store
// turns it on, refused without a supervisor's approval.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/terminal/serve_fixture.h"

namespace balcao::terminal::testing {
namespace {

constexpr const char* kPhoneAgent = "Mozilla/5.0 (Linux; Android 13; SM-A145M) Chrome/119.0 Mobile Safari/537.36";

std::filesystem::path WriteConfig(const std::filesystem::path& dir, const Json& config) {
  std::filesystem::create_directories(dir);
  const auto path = dir / "balcao.conf";
  std::ofstream(path) << config.dump();
  return path;
}

Json KeyedCard() {
  return WithCardCustomer(
      {{"number", "5277696455399733"}, {"expiry", "12/34"}, {"security_code", "737"}, {"holder_name", "MARIA SOUZA"}});
}

std::string UuidOf(const Json& view) {
  const std::string link = view.value("link", "");
  return link.rfind("/pay/", 0) == 0 ? link.substr(5) : "";
}

TEST(ServePhone, KeyedEntryIsOffAndThePhonePaysStraightToTheBank) {
  const auto dir = FreshDir("serve-phone");
  const auto config = WriteConfig(dir, {{"merchant", {{"name", "PADARIA DO ZE"}}}, {"card", {{"keyed_entry", false}}}});
  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config.string()});
  EXPECT_EQ(serve.Get("/api/status").json["keyed_entry"], false);
  const std::string id = serve.NewSale(4990)["id"].get<std::string>();
  const Reply chosen = serve.Post("/api/sales/" + id + "/method", {{"method", "card"}});
  ASSERT_EQ(chosen.status, 200) << chosen.body;
  const Json waiting = serve.WaitFor(id, "enter-card");
  const std::string uuid = UuidOf(waiting);
  ASSERT_EQ(uuid.size(), 32u) << waiting.dump();

  // Keyed entry is off: refused naming the setting, whatever the body.
  const Reply keyed = serve.Post("/api/sales/" + id + "/card", ServeProcess::Approved(KeyedCard()));
  EXPECT_EQ(keyed.status, 403) << keyed.body;
  EXPECT_EQ(keyed.json["error"]["field"], "card.keyed_entry");

  // The link the touchscreen shows, and what the phone's page reads: no session needed.
  const Reply link = serve.Get("/api/sales/" + id + "/phone-link");
  ASSERT_EQ(link.status, 200) << link.body;
  EXPECT_EQ(link.json["url"], serve.url() + "/pay/" + uuid);
  EXPECT_NE(link.json["qr_svg"].get<std::string>().find("<svg"), std::string::npos);
  const Reply page = Http("GET", serve.url() + "/pay/" + uuid);
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("autocomplete=\"cc-number\""), std::string::npos);
  EXPECT_EQ(page.body.find("PADARIA"), std::string::npos) << "no store data in the static page";
  const Reply facts = Http("GET", serve.url() + "/pay/" + uuid + "/session");
  ASSERT_EQ(facts.status, 200) << facts.body;
  EXPECT_EQ(facts.json["store"], "PADARIA DO ZE");
  EXPECT_EQ(facts.json["amount"], 4990);
  EXPECT_EQ(facts.json["funding"], Json::array({"credit", "debit"}));
  EXPECT_EQ(facts.json["installments"][0], (Json{{"count", 1}, {"totalAmount", 4990}}));
  EXPECT_EQ(facts.json["user_ip"], "127.0.0.1");
  const std::string purchase_url = facts.json["purchase_url"].get<std::string>();
  EXPECT_EQ(purchase_url, serve.sandbox() + "/v2/merchant-session/" + uuid + "/purchase");
  EXPECT_EQ(facts.json.size(), 9u) << "only the page's facts: " << facts.body;
  EXPECT_EQ(Http("GET", serve.url() + "/pay/" + std::string(32, 'a') + "/session").status, 404);
  EXPECT_EQ(Http("GET", serve.url() + "/pay/not-a-uuid").status, 404);
  EXPECT_EQ(
      Http("POST", serve.url() + "/pay/" + uuid + "/session", "{}", {{"Content-Type", "application/json"}}).status,
      405);

  // The phone posts the purchase to the bank itself; the box follows it to paid.
  const Json purchase = PhonePurchase(4990, kPhoneAgent);
  const Reply bought =
      Http("POST", purchase_url, purchase.dump(), {{"Content-Type", "application/json"}, {"User-Agent", kPhoneAgent}});
  ASSERT_EQ(bought.status, 200) << bought.body;
  const Json paid = serve.WaitFor(id, "paid");
  EXPECT_EQ(paid["collected"], 4990) << paid.dump();
  EXPECT_NE(paid.dump().find("5682"), std::string::npos) << "the receipt names the last 4: " << paid.dump();
  EXPECT_NE(paid.dump().find("BITO"), std::string::npos) << paid.dump();
  EXPECT_EQ(Http("GET", serve.url() + "/pay/" + uuid + "/session").status, 404) << "paid: the link is spent";

  const Reply record = Http("GET", serve.sandbox() + "/sandbox/purchase-requests");
  ASSERT_EQ(record.json["requests"].size(), 1u) << record.body;
  EXPECT_EQ(record.json["requests"][0]["signed"], false) << "the box sent no purchase";
  EXPECT_EQ(record.json["requests"][0]["userAgent"], kPhoneAgent);
  EXPECT_TRUE(FilesContaining(dir, "4235647728025682").empty()) << "no card number in the data dir, WAL or log";
}

TEST(ServePhone, KeyedEntryTurnedOnNeedsASupervisorForEachSale) {
  const auto dir = FreshDir("serve-keyed");
  const auto config = WriteConfig(dir, {{"card", {{"keyed_entry", true}}}});
  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config.string()});
  EXPECT_EQ(serve.Get("/api/status").json["keyed_entry"], true);
  const std::string id = serve.NewSale(2500)["id"].get<std::string>();
  ASSERT_EQ(serve.Post("/api/sales/" + id + "/method", {{"method", "card"}}).status, 200);
  serve.WaitFor(id, "enter-card");
  Json wrong = KeyedCard();
  wrong["approval"] = {{"supervisor", kSupervisor}, {"pin", "00000000"}};
  const Reply refused = serve.Post("/api/sales/" + id + "/card", wrong);
  EXPECT_EQ(refused.status, 403) << refused.body;
  EXPECT_EQ(refused.json["error"]["field"], "approval");
  Json cashier = KeyedCard();
  cashier["approval"] = {{"supervisor", kCashier}, {"pin", kCashierPin}};
  EXPECT_EQ(serve.Post("/api/sales/" + id + "/card", cashier).status, 403) << "a cashier approves no keyed card";
  const Reply approved = serve.Post("/api/sales/" + id + "/card", ServeProcess::Approved(KeyedCard()));
  EXPECT_EQ(approved.status, 200) << approved.body;
  serve.WaitFor(id, "paid");
}

// Card purchases have no webhook: the phone's page tells the box the bank answered, and the box
// asks the bank at once instead of at its poll (a minute here, so only the nudge can be it).
TEST(ServePhone, ThePhonesWordMakesTheBoxAskTheBankAtOnce) {
  const auto dir = FreshDir("serve-phone-answered");
  const auto config = WriteConfig(dir, {{"card", {{"keyed_entry", false}}}, {"checkout", {{"poll_interval_s", 60}}}});
  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config.string()});
  const std::string id = serve.NewSale(1990)["id"].get<std::string>();
  ASSERT_EQ(serve.Post("/api/sales/" + id + "/method", {{"method", "card"}}).status, 200);
  const std::string uuid = UuidOf(serve.WaitFor(id, "enter-card"));
  const Json facts = Http("GET", serve.url() + "/pay/" + uuid + "/session").json;
  const auto answered = [&](const std::string& which) {
    return Http("POST", serve.url() + "/pay/" + which + "/answered", "{}", {{"Content-Type", "application/json"}});
  };
  EXPECT_EQ(answered(std::string(32, 'a')).status, 404) << "no sale waits on that session";
  EXPECT_EQ(Http("POST", serve.url() + "/pay/" + uuid + "/answered", "{}", {{"Content-Type", "text/plain"}}).status,
            403)
      << "a JSON POST only (a form of another site cannot send one)";

  const Reply bought = Http("POST", facts["purchase_url"].get<std::string>(), PhonePurchase(1990, kPhoneAgent).dump(),
                            {{"Content-Type", "application/json"}, {"User-Agent", kPhoneAgent}});
  ASSERT_EQ(bought.status, 200) << bought.body;
  const Reply told = answered(uuid);
  ASSERT_EQ(told.status, 202) << told.body;
  EXPECT_EQ(told.json["asked_bank"], true) << told.body;
  EXPECT_EQ(serve.WaitFor(id, "paid", std::chrono::seconds(30))["collected"], 1990);
  EXPECT_EQ(answered(uuid).status, 404) << "paid: the link is spent";
  serve.Stop();
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace balcao::terminal::testing
