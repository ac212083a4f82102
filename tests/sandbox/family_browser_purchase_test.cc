// The session purchase route as a customer's browser calls it (sandbox/internal/browser_purchase.h):
// CORS preflight and headers on that route only, an unsigned purchase accepted only by a live
// session's uuid (expired or used: invalidSession), allowedIps against the request's source
// address, and the record of who called (User-Agent, address, signed or not) with no card field.
#include <curl/curl.h>

#include <algorithm>
#include <cctype>

#include "tests/sandbox/family_harness.h"

namespace balcao::sandbox::family_testing {
namespace {

constexpr const char* kPhoneAgent =
    "Mozilla/5.0 (Linux; Android 13; moto g(30)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0 Mobile "
    "Safari/537.36";

// An answer with its headers (lowercased names), from a request sent like a browser would.
struct BrowserReply {
  long status = 0;
  std::string body;
  std::string headers;
  std::string Header(const std::string& name) const {
    const std::string key = "\n" + name + ":";
    auto at = headers.find(key);
    if (at == std::string::npos) return "";
    auto end = headers.find('\r', at);
    std::string value = headers.substr(at + key.size(), end - at - key.size());
    return value.substr(value.find_first_not_of(' '));
  }
};

size_t Collect(char* data, size_t size, size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

BrowserReply BrowserSend(const std::string& method, const std::string& url, const std::string& body,
                         std::vector<std::string> headers) {
  CURL* curl = curl_easy_init();
  BrowserReply reply;
  curl_slist* list = nullptr;
  headers.push_back("User-Agent: " + std::string(kPhoneAgent));
  headers.push_back("Origin: http://127.0.0.1:8080");
  for (const auto& h : headers) list = curl_slist_append(list, h.c_str());
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method.c_str());
  if (method == "POST") curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, Collect);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &reply.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, Collect);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &reply.headers);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 20L);
  EXPECT_EQ(curl_easy_perform(curl), CURLE_OK) << method << " " << url;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply.status);
  curl_slist_free_all(list);
  curl_easy_cleanup(curl);
  std::transform(reply.headers.begin(), reply.headers.end(), reply.headers.begin(),
                 [](unsigned char c) { return c == '\r' || c == '\n' || c == ':' ? c : std::tolower(c); });
  reply.headers = "\n" + reply.headers;
  return reply;
}

class BrowserPurchaseTest : public FamilyHarness {
 protected:
  Json Session(Json ips = Json::array(), int expiration = 600) {
    Json body = {{"allowedFundingTypes", {"credit", "debit"}},
                 {"allowedInstallments", {{{"totalAmount", 5000}, {"count", 1}}}},
                 {"expiration", expiration},
                 {"challengeMode", "enabled"},
                 {"tags", {"sale-v1", "attempt-v1-1"}}};
    if (!ips.empty()) body["allowedIps"] = ips;
    return Ok("POST", "/merchant-session", body)["session"];
  }
  static std::string Purchase(const std::string& number) {
    return Json{{"amount", 5000},
                {"installmentCount", 1},
                {"cardExpiration", "2035-01"},
                {"cardNumber", number},
                {"cardSecurityCode", "123"},
                {"fundingType", "debit"},
                {"holderName", "Maria Silva"},
                {"holderEmail", "maria@example.com"},
                {"holderPhone", "11985923451"},
                {"billingCountryCode", "BRA"},
                {"billingCity", "Sao Paulo"},
                {"billingStateCode", "SP"},
                {"billingStreetLine1", "Rua Augusta, 100"},
                {"billingStreetLine2", ""},
                {"billingZipCode", "01304-000"},
                {"metadata",
                 {{"userAgent", kPhoneAgent}, {"userIp", "127.0.0.1"}, {"language", "pt-BR"}, {"timezoneOffset", 180}}}}
        .dump();
  }
  std::string PurchaseUrl(const Json& session) {
    return sandbox_->credentials().base_url + "/merchant-session/" + session["uuid"].get<std::string>() + "/purchase";
  }
  BrowserReply Post(const Json& session, const std::string& number) {
    return BrowserSend("POST", PurchaseUrl(session), Purchase(number),
                       {"Content-Type: application/json", "Accept-Language: pt-BR"});
  }
  Json Records() { return SimGet("purchase-requests")["requests"]; }
};

TEST_F(BrowserPurchaseTest, PreflightAllowsThePurchaseRouteOnly) {
  Json session = Session();
  BrowserReply pre = BrowserSend(
      "OPTIONS", PurchaseUrl(session), "",
      {"Access-Control-Request-Method: POST", "Access-Control-Request-Headers: content-type, accept-language"});
  EXPECT_EQ(pre.status, 204) << pre.headers;
  EXPECT_EQ(pre.Header("access-control-allow-origin"), "*");
  EXPECT_NE(pre.Header("access-control-allow-methods").find("post"), std::string::npos);
  EXPECT_NE(pre.Header("access-control-allow-headers").find("content-type"), std::string::npos);
  // Any other route: no preflight, no CORS headers (a page cannot read or sign them).
  BrowserReply other = BrowserSend("OPTIONS", sandbox_->credentials().base_url + "/merchant-session", "",
                                   {"Access-Control-Request-Method: POST"});
  EXPECT_NE(other.status, 204);
  EXPECT_EQ(other.Header("access-control-allow-origin"), "");
  BrowserReply list = BrowserSend("GET", sandbox_->credentials().base_url + "/merchant-purchase", "", {});
  EXPECT_EQ(list.status, 400) << list.body;  // unsigned
  EXPECT_EQ(list.Header("access-control-allow-origin"), "");
}

TEST_F(BrowserPurchaseTest, UnsignedPurchaseByALiveSessionIsAcceptedAndRecorded) {
  Json session = Session();
  BrowserReply r = Post(session, "4242424242424242");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.Header("access-control-allow-origin"), "*");
  Json purchase = Json::parse(r.body)["purchase"];
  EXPECT_EQ(purchase["status"], "approved");
  EXPECT_EQ(purchase["tags"], Json::array({"sale-v1", "attempt-v1-1"}));  // the lane's tags carry over
  Json records = Records();
  ASSERT_EQ(records.size(), 1u) << records.dump();
  const Json& rec = records[0];
  EXPECT_EQ(rec["userAgent"], kPhoneAgent);
  EXPECT_EQ(rec["sourceAddress"], "127.0.0.1");
  EXPECT_EQ(rec["signed"], false);
  EXPECT_EQ(rec["origin"], "http://127.0.0.1:8080");
  EXPECT_EQ(rec["purchaseId"], purchase["id"]);
  EXPECT_EQ(rec["metadata"]["language"], "pt-BR");
  EXPECT_EQ(rec["metadata"]["timezoneOffset"], 180);
  EXPECT_EQ(rec.dump().find("4242424242"), std::string::npos) << "the record keeps no card number";
  EXPECT_EQ(rec.dump().find("\"123\""), std::string::npos) << "nor the security code";
  // A used session takes no second purchase.
  BrowserReply again = Post(session, "4242424242424242");
  EXPECT_EQ(again.status, 400);
  EXPECT_NE(again.body.find("invalidSession"), std::string::npos) << again.body;
  EXPECT_EQ(again.Header("access-control-allow-origin"), "*") << "the page can read the bank's error";
}

TEST_F(BrowserPurchaseTest, ExpiredOrUnknownSessionIsRefused) {
  Json session = Session(Json::array(), 60);
  Advance(61);
  BrowserReply late = Post(session, "4242424242424242");
  EXPECT_EQ(late.status, 400);
  EXPECT_NE(late.body.find("invalidSession"), std::string::npos) << late.body;
  Json unknown = session;
  unknown["uuid"] = std::string(32, 'a');
  BrowserReply none = Post(unknown, "4242424242424242");
  EXPECT_EQ(none.status, 400);
  EXPECT_EQ(none.body.find("\"purchase\""), std::string::npos) << none.body;
  EXPECT_EQ(Ok("GET", "/merchant-purchase")["purchases"].size(), 0u);
}

TEST_F(BrowserPurchaseTest, AllowedIpsAreEnforcedOnTheSourceAddress) {
  Json elsewhere = Session(Json::array({"198.51.100.7"}));
  BrowserReply refused = Post(elsewhere, "4242424242424242");
  EXPECT_EQ(refused.status, 400);
  EXPECT_NE(refused.body.find("invalidUserIp"), std::string::npos) << refused.body;
  EXPECT_NE(refused.body.find("127.0.0.1"), std::string::npos) << "names the address it saw: " << refused.body;
  Json here = Session(Json::array({"127.0.0.1"}));
  EXPECT_EQ(Post(here, "4242424242424242").status, 200);
}

TEST_F(BrowserPurchaseTest, SignedPurchaseStillWorksAndIsRecordedAsSigned) {
  Json session = Session();
  Reply r = Api("POST", "/merchant-session/" + session["uuid"].get<std::string>() + "/purchase",
                Json::parse(Purchase("5500000000000004")));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["purchase"]["status"], "pending");
  Json records = Records();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["signed"], true);
  EXPECT_NE(records[0]["accessId"].get<std::string>().find("project/"), std::string::npos);
  EXPECT_EQ(records[0]["purchaseStatus"], "pending");
}

}  // namespace
}  // namespace balcao::sandbox::family_testing
