// 3-D Secure data from the customer's device, end to end: the card form's purchase reaches the
// bank (the embedded sandbox, read back with `balcao api show`) carrying the User-Agent and
// address of the client that sent the card and the language, timezone and screen it reported,
// plus the customer form's e-mail, phone and billing address; with the store's sessions asking
// for the challenge, a card without them is refused naming the missing field, and nothing
// stands in for them.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "tests/terminal/serve_fixture.h"

namespace balcao::terminal::testing {
namespace {

constexpr const char* kApproved = "5277696455399733";

Json Card() {
  return {{"number", kApproved}, {"expiry", "12/34"}, {"security_code", "737"}, {"holder_name", "MARIA SOUZA"}};
}

std::string Output(const std::string& command) {
  std::string out;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
    ::pclose(pipe);
  }
  return out;
}

TEST(Serve3ds, PurchaseCarriesTheClientsDeviceAndTheCustomerForm) {
  const auto dir = FreshDir("serve-3ds");
  ServeProcess serve;
  serve.Start(dir / "data", {"--printer", "file:" + (dir / "printer.bin").string()});
  const std::string id = serve.NewSale(4990)["id"].get<std::string>();
  ASSERT_EQ(serve.Post("/api/sales/" + id + "/method", {{"method", "card"}}).status, 200);

  // Challenge mode is on by default: every piece is required, named when missing.
  auto error_of = [](const Reply& r) {
    return r.json["error"]["field"].get<std::string>() + ": " + r.json["error"]["rule"].get<std::string>();
  };
  Json card = WithCardCustomer(Card());
  card.erase("holder_email");
  EXPECT_EQ(error_of(serve.Post("/api/sales/" + id + "/card", card)), "holder_email: an e-mail address");
  card = WithCardCustomer(Card());
  card["billing"].erase("zip_code");
  EXPECT_EQ(error_of(serve.Post("/api/sales/" + id + "/card", card)),
            "billing.zip_code: a CEP of 8 digits (01310-100)");
  card = WithCardCustomer(Card());
  card.erase("browser");
  EXPECT_EQ(error_of(serve.Post("/api/sales/" + id + "/card", card)),
            "browser.language: the browser's language (navigator.language, e.g. pt-BR)");
  card = WithCardCustomer(Card());
  EXPECT_EQ(error_of(serve.Call("POST", "/api/sales/" + id + "/card", card.dump(), {{"User-Agent", ""}})),
            "user-agent: the browser's User-Agent header (up to 400 characters)");

  card = WithCardCustomer(Card());
  card["browser"] = {{"language", "es-AR"}, {"screen", "1366x768"}, {"timezone_offset", 210}};
  const Reply paid = serve.Call("POST", "/api/sales/" + id + "/card", card.dump(),
                                {{"User-Agent", "Mozilla/5.0 (distinctive-3ds-device)"}});
  ASSERT_EQ(paid.json["status"], "paid") << paid.body;
  const std::string purchase_id = BankId(paid.json, "purchase");
  ASSERT_FALSE(purchase_id.empty()) << paid.body;

  const std::string shown = Output("BALCAO_CREDENTIALS='" + (dir / "data" / "sandbox" / "credentials.json").string() +
                                   "' " + BALCAO_CLI + " api show merchant-purchase " + purchase_id + " 2>&1");
  const Json answer = Json::parse(shown, nullptr, false);
  ASSERT_FALSE(answer.is_discarded()) << shown;
  const Json& p = answer.contains("merchantPurchase") ? answer["merchantPurchase"] : answer;
  EXPECT_EQ(p["metadata"]["userAgent"], "Mozilla/5.0 (distinctive-3ds-device)") << shown;
  EXPECT_EQ(p["metadata"]["userIp"], "127.0.0.1");
  EXPECT_EQ(p["metadata"]["language"], "es-AR");
  EXPECT_EQ(p["metadata"]["timezoneOffset"], 3.5);
  EXPECT_EQ(p["metadata"]["extraData"]["screen"], "1366x768");
  EXPECT_EQ(p["holderEmail"], "maria.souza@example.com");
  EXPECT_EQ(p["holderPhone"], "+55 11 98765-4321");
  EXPECT_EQ(p["billingStreetLine1"], "Rua Augusta, 1500");
  EXPECT_EQ(p["billingCity"], "Sao Paulo");
  EXPECT_EQ(p["billingZipCode"], "01304-001");
  EXPECT_EQ(shown.find("balcao-touchscreen"), std::string::npos) << shown;
  serve.Stop();
}

// The customer's phone opens the sale's device link (a QR on the touchscreen): its page reports
// its device, and the purchase carries the phone's User-Agent and language, not the
// touchscreen's. An unknown link is 404; a new link replaces the old one.
TEST(Serve3ds, ThePhoneThatOpensTheDeviceLinkIsTheDeviceThePurchaseCarries) {
  const auto dir = FreshDir("serve-3ds-phone");
  ServeProcess serve;
  serve.Start(dir / "data", {"--printer", "file:" + (dir / "printer.bin").string()});
  const std::string id = serve.NewSale(2990)["id"].get<std::string>();
  ASSERT_EQ(serve.Post("/api/sales/" + id + "/method", {{"method", "card"}}).status, 200);
  const Reply first = serve.Post("/api/sales/" + id + "/device-link", Json::object());
  ASSERT_EQ(first.status, 200) << first.body;
  const Reply link = serve.Post("/api/sales/" + id + "/device-link", Json::object());
  ASSERT_EQ(link.status, 200) << link.body;
  EXPECT_EQ(link.json["qr_svg"].get<std::string>().rfind("<svg", 0), 0u);
  const std::string url = link.json["url"].get<std::string>();
  const std::string path = url.substr(url.find("/device/"));
  const std::string old_path = first.json["url"].get<std::string>().substr(url.find("/device/"));

  // The phone: no session, its own User-Agent.
  const std::map<std::string, std::string> phone = {{"User-Agent", "Mozilla/5.0 (iPhone; distinctive-phone)"},
                                                    {"Content-Type", "application/json"}};
  const Reply page = Http("GET", serve.url() + path, "", phone);
  ASSERT_EQ(page.status, 200) << page.body;
  EXPECT_NE(page.body.find("dados do aparelho"), std::string::npos);
  EXPECT_EQ(Http("GET", serve.url() + old_path, "", phone).status, 404);
  const Reply reported = Http("POST", serve.url() + path,
                              Json{{"language", "pt-PT"}, {"timezone_offset", 0}, {"screen", "390x844"}}.dump(), phone);
  ASSERT_EQ(reported.status, 200) << reported.body;

  // The touchscreen sends the card (with its own browser data): the phone's device wins.
  const Reply paid = serve.Post("/api/sales/" + id + "/card", WithCardCustomer(Card()));
  ASSERT_EQ(paid.json["status"], "paid") << paid.body;
  const std::string shown =
      Output("BALCAO_CREDENTIALS='" + (dir / "data" / "sandbox" / "credentials.json").string() + "' " + BALCAO_CLI +
             " api show merchant-purchase " + BankId(paid.json, "purchase") + " 2>&1");
  const Json answer = Json::parse(shown, nullptr, false);
  ASSERT_FALSE(answer.is_discarded()) << shown;
  const Json& p = answer.contains("merchantPurchase") ? answer["merchantPurchase"] : answer;
  EXPECT_EQ(p["metadata"]["userAgent"], "Mozilla/5.0 (iPhone; distinctive-phone)") << shown;
  EXPECT_EQ(p["metadata"]["language"], "pt-PT");
  EXPECT_EQ(p["metadata"]["timezoneOffset"], 0);
  EXPECT_EQ(p["metadata"]["extraData"]["screen"], "390x844");
  serve.Stop();
}

}  // namespace
}  // namespace balcao::terminal::testing
