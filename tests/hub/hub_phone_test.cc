// The phone-card page's public home at the hub (docs/hub.md, "The phone page's public home"):
// a box with hub.public_url shows a QR of the hub's address; the hub serves the page and its
// facts through Caddy (the phone's address from the proxy, not from what a client writes), the
// phone pays the bank straight, the box follows the sale to paid, and the spent link answers 404.
#include <gtest/gtest.h>

#include <thread>

#include "tests/hub/hub_fixture.h"

namespace balcao::hub::testing {
namespace {

class HubPhone : public HubE2E {};

TEST_F(HubPhone, ThePhonePageIsServedByTheHubAndTheSalePaysOnce) {
  Box& box = *boxes_[0];
  Json config = Json::parse(std::ifstream(box.config));
  config["merchant"] = {{"name", "PADARIA DO ZE"}};
  config["hub"]["public_url"] = caddy_.url();
  config["checkout"]["poll_interval_s"] = 1;  // a card purchase reaches the box by its polls
  std::ofstream(box.config) << config.dump(2);
  StartBox(box);
  const std::string id = box.serve.NewSale(4990)["id"].get<std::string>();
  ASSERT_EQ(box.serve.Post("/api/sales/" + id + "/method", {{"method", "card"}}).status, 200);
  box.serve.WaitFor(id, "enter-card");
  const auto at_hub = [this](const Reply& r) {
    return r.json.is_object() && r.json.value("url", "").rfind(caddy_.url(), 0) == 0;
  };
  Reply link;
  for (int i = 0; i < 50 && !at_hub(link); ++i) {
    link = box.serve.Get("/api/sales/" + id + "/phone-link");  // the link connects at its own pace
    if (!at_hub(link)) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(link.status, 200) << link.body;
  const std::string url = link.json["url"].get<std::string>();
  ASSERT_EQ(url.rfind(caddy_.url() + "/pay/", 0), 0u) << "the QR points at the hub: " << url;
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

}  // namespace
}  // namespace balcao::hub::testing
