// The phone-card page's public home at the hub (docs/hub.md, "The phone page's public home"):
// a box with hub.public_url shows a QR of the hub's address; the hub serves the page and its
// facts through Caddy (the phone's address from the proxy, not from what a client writes), the
// phone pays the bank straight, the box follows the sale to paid, and the spent link answers 404.
#include <gtest/gtest.h>

#include <thread>

#include "tests/hub/hub_fixture.h"
#include "tests/testing/eventually.h"

namespace balcao::hub::testing {
namespace {

class HubPhone : public HubE2E {
 protected:
  // The first box, its phone page at the hub's public address, polling the bank every second.
  Box& StartPhoneBox() {
    Box& box = *boxes_[0];
    Json config = Json::parse(std::ifstream(box.config));
    config["merchant"] = {{"name", "PADARIA DO ZE"}};
    config["hub"]["public_url"] = caddy_.url();
    config["checkout"]["poll_interval_s"] = 1;  // a card purchase reaches the box by its polls
    std::ofstream(box.config) << config.dump(2);
    StartBox(box);
    return box;
  }
  // A card sale of `amount` on `box` and the URL of its phone page (at the hub once the link is up).
  std::pair<std::string, std::string> CardSaleWithPhoneLink(Box& box, long long amount) {
    const std::string id = box.serve.NewSale(amount)["id"].get<std::string>();
    EXPECT_EQ(box.serve.Post("/api/sales/" + id + "/method", {{"method", "card"}}).status, 200);
    box.serve.WaitFor(id, "enter-card");
    Reply link;
    const auto at_hub = [&] {
      link = box.serve.Get("/api/sales/" + id + "/phone-link");  // the link connects at its own pace
      return link.json.is_object() && link.json.value("url", "").rfind(caddy_.url() + "/pay/", 0) == 0;
    };
    EXPECT_TRUE(test_util::Eventually(at_hub, std::chrono::seconds(60))) << "the QR points at the hub: " << link.body;
    return {id, link.json.value("url", "")};
  }
};

TEST_F(HubPhone, ThePhonePageIsServedByTheHubAndTheSalePaysOnce) {
  Box& box = StartPhoneBox();
  const auto [id, url] = CardSaleWithPhoneLink(box, 4990);
  if (HasFailure()) return;
  const std::string uuid = url.substr(url.rfind('/') + 1);

  const Reply page = Http("GET", url, "", {}, caddy_.root_ca());
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("autocomplete=\"cc-number\""), std::string::npos);
  EXPECT_EQ(Http("GET", caddy_.url() + "/pay/pay.js", "", {}, caddy_.root_ca()).status, 200);
  // Through the proxy, what a client writes in X-Forwarded-For itself never wins.
  const Reply facts = Http("GET", url + "/session", "", {{"X-Forwarded-For", "203.0.113.9"}}, caddy_.root_ca());
  ASSERT_EQ(facts.status, 200) << facts.body;
  EXPECT_EQ(facts.json["store"], "PADARIA DO ZE");
  EXPECT_EQ(facts.json["amount"], 4990);
  EXPECT_EQ(facts.json["installments"][0], (Json{{"count", 1}, {"totalAmount", 4990}}));
  EXPECT_EQ(facts.json["user_ip"], "127.0.0.1") << facts.body;
  EXPECT_EQ(facts.json.size(), 9u) << "only the page's facts, as the box gives them: " << facts.body;
  // From the proxy (loopback here), the address it forwarded is the phone's.
  const std::string direct = "http://127.0.0.1:" + std::to_string(hub_port_) + "/pay/" + uuid + "/session";
  EXPECT_EQ(Http("GET", direct, "", {{"X-Forwarded-For", "198.51.100.7"}}).json["user_ip"], "198.51.100.7");
  EXPECT_EQ(Http("POST", direct, "{}").status, 405);
  EXPECT_EQ(Http("GET", caddy_.url() + "/pay/" + std::string(32, 'a') + "/session", "", {}, caddy_.root_ca()).status,
            404);

  // The phone pays the bank itself; the box follows the sale to paid; the link is then spent.
  const Reply bought = Http("POST", facts.json["purchase_url"].get<std::string>(),
                            terminal::testing::PhonePurchase(4990, "test-phone").dump());
  ASSERT_EQ(bought.status, 200) << bought.body;
  const Json paid = box.serve.WaitFor(id, "paid", std::chrono::seconds(30));
  EXPECT_EQ(paid["collected"], 4990) << paid.dump();
  EXPECT_EQ(Http("GET", url + "/session", "", {}, caddy_.root_ca()).status, 404) << "paid: the link is spent";
}

// The bank's merchant session outlives a sale the cashier cancels: the box tells the hub, and
// the hub's page refuses from then on, as the box's own does. A phone that still has the page
// open gets no facts, so no purchase is made through it; the sale stays voided.
TEST_F(HubPhone, ThePhonePageAtTheHubEndsWithACancelledSale) {
  Box& box = StartPhoneBox();
  const auto [id, url] = CardSaleWithPhoneLink(box, 2590);
  if (HasFailure()) return;
  const std::string uuid = url.substr(url.rfind('/') + 1);
  const Reply open = Http("GET", url + "/session", "", {}, caddy_.root_ca());
  ASSERT_EQ(open.status, 200) << "the page is live while the sale waits: " << open.body;

  const Reply cancelled = box.serve.Post("/api/sales/" + id + "/cancel", {{"reason", "cliente desistiu"}});
  ASSERT_EQ(cancelled.status, 200) << cancelled.body;
  EXPECT_EQ(cancelled.json["status"], "voided") << cancelled.body;
  EXPECT_EQ(box.serve.Get("/pay/" + uuid + "/session").status, 404) << "the box's own page ends at once";
  Reply refused;
  EXPECT_TRUE(test_util::Eventually(
      [&] {
        refused = Http("GET", url + "/session", "", {}, caddy_.root_ca());
        return refused.status == 404;
      },
      std::chrono::seconds(60)))
      << "the hub's page still answers after the cancel: " << refused.status << " " << refused.body;
  EXPECT_EQ(refused.json["error"]["field"], "uuid") << refused.body;
  EXPECT_FALSE(refused.json.contains("purchase_url")) << refused.body;
  // An announcement that comes after the end (the box's two requests cross) does not bring the
  // page back.
  const Json late = {{"uuid", uuid}, {"session_id", "late"}, {"expires_at_ms", open.json["expires_at_ms"]}};
  auto stored = admin_->Request(BoxSubject(box.store, box.terminal, kPhoneKind), late.dump(), std::chrono::seconds(10));
  ASSERT_OK(stored);
  EXPECT_EQ(*stored, R"({"stored":true})");
  EXPECT_EQ(Http("GET", url + "/session", "", {}, caddy_.root_ca()).status, 404);
  EXPECT_EQ(box.serve.Get("/api/sales/" + id).json["status"], "voided");
}

}  // namespace
}  // namespace balcao::hub::testing
