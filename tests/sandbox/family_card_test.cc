// Card acquiring over real HTTP: sessions, session purchases by test card (approved,
// each decline, 3-D Secure challenge passed and failed through the simulation API, slow
// issuer), confirmation on the sandbox clock, saved-card purchases, cancel and partial /
// full reversal with the ledger, cards and installments, and input validation.
#include <set>

#include "tests/sandbox/family_harness.h"

namespace balcao::sandbox::family_testing {
namespace {

class CardTest : public FamilyHarness {
 protected:
  Json Session(const std::string& mode = "enabled", Json installments = nullptr) {
    if (installments.is_null())
      installments = Json::array({{{"totalAmount", 5000}, {"count", 1}}, {{"totalAmount", 6000}, {"count", 3}}});
    return Ok("POST", "/merchant-session",
              {{"allowedFundingTypes", {"credit", "debit"}},
               {"allowedInstallments", installments},
               {"expiration", 3600},
               {"challengeMode", mode},
               {"tags", {"Order-42"}}})["session"];
  }
  static Json Purchase(const std::string& number, std::int64_t amount = 5000, int count = 1) {
    return {{"amount", amount},
            {"installmentCount", count},
            {"cardExpiration", "2035-01"},
            {"cardNumber", number},
            {"cardSecurityCode", "123"},
            {"fundingType", "credit"},
            {"holderName", "Kaladin Stormblessed"},
            {"holderEmail", "kaladin@example.com"},
            {"holderPhone", "11985923451"},
            {"billingCountryCode", "BRA"},
            {"billingCity", "Sao Paulo"},
            {"billingStateCode", "SP"},
            {"billingStreetLine1", "Rua Casterly Rock, 2000"},
            {"billingStreetLine2", "1 andar"},
            {"billingZipCode", "01450-000"},
            {"metadata",
             {{"userAgent", "Mozilla"}, {"userIp", "255.255.255.255"}, {"language", "pt-BR"}, {"timezoneOffset", 3}}}};
  }
  Reply Buy(const Json& session, const Json& purchase) {
    return Api("POST", "/merchant-session/" + session["uuid"].get<std::string>() + "/purchase", purchase);
  }
  Json BuyOk(const Json& session, const Json& purchase) {
    Reply r = Buy(session, purchase);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json()["purchase"];
  }
  Json Get(const std::string& path) { return Ok("GET", path); }
};

TEST_F(CardTest, SessionHasUuidAndExpiresOnTheSandboxClock) {
  Json s = Session();
  EXPECT_EQ(s["uuid"].get<std::string>().size(), 32u);
  EXPECT_EQ(s["status"], "active");
  EXPECT_EQ(s["challengeMode"], "enabled");
  EXPECT_EQ(s["tags"], Json::array({"order-42"}));
  EXPECT_EQ(s["allowedInstallments"][1]["count"], 3);
  Advance(3601);
  EXPECT_EQ(Get("/merchant-session/" + s["id"].get<std::string>())["session"]["status"], "expired");
  Reply late = Buy(s, Purchase("4242424242424242"));
  EXPECT_EQ(late.status, 400);
  EXPECT_EQ(late.code(), "invalidSession");
  Json logs = Get("/merchant-session/log?sessionIds=" + s["id"].get<std::string>());
  EXPECT_EQ(logs["logs"].size(), 2u);
  EXPECT_EQ(logs["logs"][0]["type"], "expired");
}

TEST_F(CardTest, ApprovedThenConfirmedCreditsLedgerAndSavesCard) {
  Json s = Session();
  Json p = BuyOk(s, Purchase("4242424242424242"));
  EXPECT_EQ(p["status"], "approved");
  EXPECT_EQ(p["cardEnding"], "4242");
  EXPECT_EQ(p["network"], "visa");
  EXPECT_EQ(p["challengeUrl"], "");
  EXPECT_EQ(p["source"], "merchant-session/" + s["id"].get<std::string>());
  EXPECT_EQ(p["tags"], Json::array({"order-42"}));
  EXPECT_EQ(Get("/merchant-session/" + s["id"].get<std::string>())["session"]["status"], "success");
  // Card saved without its number.
  Json card = Get("/merchant-card/" + p["cardId"].get<std::string>())["card"];
  EXPECT_EQ(card["ending"], "4242");
  EXPECT_EQ(card["expiration"], "2035-02-01T02:59:59.999999+00:00");
  EXPECT_EQ(card["status"], "active");
  EXPECT_EQ(card["holderName"], "Kaladin Stormblessed");
  EXPECT_EQ(card.dump().find("4242424242424242"), std::string::npos);
  EXPECT_EQ(Balance(), 0);
  Advance(31);
  Json confirmed = Get("/merchant-purchase/" + p["id"].get<std::string>())["purchase"];
  EXPECT_EQ(confirmed["status"], "confirmed");
  EXPECT_EQ(confirmed["transactionIds"].size(), 1u);
  EXPECT_EQ(Balance(), 5000);
  Json tx = Get("/transaction/" + confirmed["transactionIds"][0].get<std::string>())["transaction"];
  EXPECT_EQ(tx["source"], "merchant-purchase/" + p["id"].get<std::string>());
  // A second purchase on a finished session is refused.
  EXPECT_EQ(Buy(s, Purchase("4242424242424242")).code(), "invalidSession");
}

TEST_F(CardTest, EachDeclineCardIsDeniedWithItsReason) {
  const std::pair<const char*, const char*> cards[] = {{"4000000000009995", "insufficientFunds"},
                                                       {"4000000000000069", "expiredCard"},
                                                       {"4000000000009979", "stolenCard"},
                                                       {"4000000000000002", "cardDeclined"}};
  for (const auto& [number, reason] : cards) {
    Json s = Session();
    Json p = BuyOk(s, Purchase(number));
    EXPECT_EQ(p["status"], "denied") << number;
    EXPECT_TRUE(p["cardId"].get<std::string>().empty()) << number;
    Json logs = Get("/merchant-purchase/log?purchaseIds=" + p["id"].get<std::string>())["logs"];
    ASSERT_EQ(logs.size(), 1u);
    EXPECT_EQ(logs[0]["type"], "denied");
    EXPECT_EQ(logs[0]["errors"][0]["code"], reason);
    // A denied purchase leaves the session open for another card.
    EXPECT_EQ(Get("/merchant-session/" + s["id"].get<std::string>())["session"]["status"], "active");
  }
  EXPECT_EQ(Get("/merchant-card")["cards"].size(), 0u);
  Advance(60);
  EXPECT_EQ(Balance(), 0);
}

TEST_F(CardTest, ThreeDSecureChallengePassed) {
  Json s = Session();
  Json p = BuyOk(s, Purchase("5500000000000004"));
  EXPECT_EQ(p["status"], "pending");
  EXPECT_EQ(p["network"], "mastercard");
  const std::string url = p["challengeUrl"].get<std::string>();
  EXPECT_NE(url.find("/sandbox/challenge/" + p["id"].get<std::string>()), std::string::npos) << url;
  Json passed = SimOk("challenge/pass", {{"id", p["id"]}})["purchase"];
  EXPECT_EQ(passed["status"], "approved");
  EXPECT_FALSE(passed["cardId"].get<std::string>().empty());
  // Passing twice is refused: the purchase is no longer pending.
  EXPECT_EQ(Sim("challenge/pass", {{"id", p["id"]}}).code(), "invalidOperation");
  Advance(30);
  EXPECT_EQ(Get("/merchant-purchase/" + p["id"].get<std::string>())["purchase"]["status"], "confirmed");
  EXPECT_EQ(Balance(), 5000);
}

TEST_F(CardTest, ChallengeUrlServesThePageTheCustomerConfirmsOn) {
  Json s = Session();
  Json p = BuyOk(s, Purchase("5500000000000004"));
  const std::string url = p["challengeUrl"].get<std::string>();
  Reply page = Send("GET", url, "", false);
  EXPECT_EQ(page.status, 200) << page.body;
  EXPECT_NE(page.content_type.find("text/html"), std::string::npos);
  EXPECT_NE(page.body.find("/sandbox/challenge/" + p["id"].get<std::string>() + "/pass"), std::string::npos);
  Reply confirmed = Send("POST", url + "/pass", "", false);
  EXPECT_EQ(confirmed.status, 200) << confirmed.body;
  EXPECT_EQ(Get("/merchant-purchase/" + p["id"].get<std::string>())["purchase"]["status"], "approved");
  EXPECT_EQ(Send("GET", url + "x!", "", false).status, 404);
}

TEST_F(CardTest, ThreeDSecureChallengeFailedOrAbandoned) {
  Json s = Session();
  Json p = BuyOk(s, Purchase("5500000000000004"));
  Json failed = SimOk("challenge/fail", {{"id", p["id"]}})["purchase"];
  EXPECT_EQ(failed["status"], "denied");
  Json again = BuyOk(s, Purchase("5500000000000004"));
  Advance(15 * 60 + 1);
  Json abandoned = Get("/merchant-purchase/" + again["id"].get<std::string>())["purchase"];
  EXPECT_EQ(abandoned["status"], "denied");
  EXPECT_EQ(Balance(), 0);
}

TEST_F(CardTest, ChallengeCardApprovesWhenChallengeModeDisabled) {
  Json s = Session("disabled");
  Json bare = Purchase("5500000000000004");
  for (const char* k : {"billingCity", "billingCountryCode", "billingStateCode", "billingStreetLine1",
                        "billingStreetLine2", "billingZipCode", "holderEmail", "holderPhone", "metadata"})
    bare.erase(k);
  EXPECT_EQ(BuyOk(s, bare)["status"], "approved");
}

TEST_F(CardTest, SlowIssuerAnswersLater) {
  Json s = Session();
  Json p = BuyOk(s, Purchase("4000000000000077"));
  EXPECT_EQ(p["status"], "created");
  Advance(20);
  EXPECT_EQ(Get("/merchant-purchase/" + p["id"].get<std::string>())["purchase"]["status"], "approved");
  Advance(30);
  EXPECT_EQ(Get("/merchant-purchase/" + p["id"].get<std::string>())["purchase"]["status"], "confirmed");
}

TEST_F(CardTest, InstallmentsSplitTheAmount) {
  Json s = Session();
  Json p = BuyOk(s, Purchase("5448280000000007", 6000, 3));
  Json list = Get("/merchant-installment")["installments"];
  ASSERT_EQ(list.size(), 3u);
  std::int64_t total = 0;
  for (const auto& i : list) {
    total += i["amount"].get<std::int64_t>();
    EXPECT_EQ(i["purchaseId"], p["id"]);
    EXPECT_EQ(i["status"], "created");
    EXPECT_GE(i["due"].get<std::string>(), i["nominalDue"].get<std::string>());
  }
  EXPECT_EQ(total, 6000);
  Advance(31);
  Advance(4 * 86400);  // first due (30 days, moved to a weekday) is within 35 days
  Advance(30 * 86400);
  Json paid = Get("/merchant-installment?status=paid")["installments"];
  EXPECT_GE(paid.size(), 1u);
}

TEST_F(CardTest, CancelApprovedPurchase) {
  Json p = BuyOk(Session(), Purchase("4242424242424242"));
  EXPECT_EQ(
      Api("PATCH", "/merchant-purchase/" + p["id"].get<std::string>(), {{"status", "canceled"}, {"amount", 10}}).code(),
      "invalidOperation");
  Json c = Ok("PATCH", "/merchant-purchase/" + p["id"].get<std::string>(), {{"status", "canceled"}, {"amount", 0}});
  EXPECT_EQ(c["purchase"]["status"], "canceled");
  EXPECT_EQ(c["purchase"]["amount"], 0);
  Advance(60);  // the confirmation job finds it canceled
  EXPECT_EQ(Get("/merchant-purchase/" + p["id"].get<std::string>())["purchase"]["status"], "canceled");
  EXPECT_EQ(Balance(), 0);
  for (Json all = Get("/merchant-installment"); const auto& i : all["installments"]) EXPECT_EQ(i["status"], "canceled");
}

TEST_F(CardTest, PartialThenFullReversalWritesLedger) {
  Json p = BuyOk(Session(), Purchase("4242424242424242"));
  const std::string path = "/merchant-purchase/" + p["id"].get<std::string>();
  EXPECT_EQ(Api("PATCH", path, {{"status", "reversed"}, {"amount", 1000}}).code(), "invalidOperation");
  Advance(30);
  EXPECT_EQ(Balance(), 5000);
  Json partial = Ok("PATCH", path, {{"status", "reversed"}, {"amount", 3000}})["purchase"];
  EXPECT_EQ(partial["status"], "confirmed");
  EXPECT_EQ(partial["amount"], 3000);
  EXPECT_EQ(Balance(), 3000);
  EXPECT_EQ(Api("PATCH", path, {{"status", "reversed"}, {"amount", 3000}}).code(), "invalidAmount");
  Json full = Ok("PATCH", path, {{"status", "reversed"}, {"amount", 0}})["purchase"];
  EXPECT_EQ(full["status"], "voided");
  EXPECT_EQ(full["transactionIds"].size(), 3u);
  EXPECT_EQ(Balance(), 0);
  Json tx = Get("/transaction/" + full["transactionIds"][2].get<std::string>())["transaction"];
  EXPECT_EQ(tx["amount"], -3000);
  Json types = Get("/merchant-purchase/log?purchaseIds=" + p["id"].get<std::string>());
  EXPECT_EQ(types["logs"][0]["type"], "voided");
  EXPECT_EQ(types["logs"][1]["type"], "reversed");
  for (Json all = Get("/merchant-installment"); const auto& i : all["installments"]) EXPECT_EQ(i["status"], "voided");
  EXPECT_EQ(Api("PATCH", path, {{"status", "reversed"}, {"amount", 0}}).code(), "invalidOperation");
}

TEST_F(CardTest, DirectPurchaseNeedsASavedCard) {
  Json direct = Purchase("ignored");
  for (const char* k : {"cardExpiration", "cardNumber", "cardSecurityCode", "holderName"}) direct.erase(k);
  direct["amount"] = 1234;
  direct["cardId"] = "5656565656565656";
  Reply unknown = Api("POST", "/merchant-purchase", direct);
  EXPECT_EQ(unknown.status, 400);
  EXPECT_EQ(unknown.code(), "invalidCardId");
  Json first = BuyOk(Session(), Purchase("4242424242424242"));
  direct["cardId"] = first["cardId"];
  Json p = Ok("POST", "/merchant-purchase", direct)["purchase"];
  EXPECT_EQ(p["status"], "approved");
  EXPECT_EQ(p["cardEnding"], "4242");
  EXPECT_EQ(p["source"], "merchant-card/" + first["cardId"].get<std::string>());
  EXPECT_EQ(Get("/merchant-card")["cards"].size(), 1u);
  Advance(30);
  EXPECT_EQ(Balance(), 5000 + 1234);
}

TEST_F(CardTest, SessionPurchaseValidation) {
  Json s = Session();
  auto code_of = [&](Json body) { return Buy(s, body).code(); };
  Json p = Purchase("4242424242424241");
  EXPECT_EQ(code_of(p), "invalidCardNumber");
  p = Purchase("4242424242424242");
  p["cardExpiration"] = "2020-01";
  EXPECT_EQ(code_of(p), "invalidCardExpiration");
  p["cardExpiration"] = "2035-13";
  EXPECT_EQ(code_of(p), "invalidCardExpiration");
  p = Purchase("4242424242424242", 5001);
  EXPECT_EQ(code_of(p), "invalidAmount");
  p = Purchase("4242424242424242", 6000, 2);
  EXPECT_EQ(code_of(p), "invalidAmount");
  p = Purchase("4242424242424242");
  p["metadata"].erase("userIp");
  EXPECT_EQ(code_of(p), "invalidMetadata");
  p = Purchase("4242424242424242");
  p.erase("billingCity");
  EXPECT_EQ(code_of(p), "invalidJson");
  p = Purchase("4242424242424242");
  p["cardSecurityCode"] = "12a";
  EXPECT_EQ(code_of(p), "invalidCardSecurityCode");
  Reply many = Buy(s, Json::object());
  EXPECT_GE(many.json()["errors"].size(), 6u);
  EXPECT_EQ(
      Api("POST", "/merchant-session/00000000000000000000000000000000/purchase", Purchase("4242424242424242")).code(),
      "invalidSession");
  Reply bad = Api("POST", "/merchant-session",
                  {{"allowedFundingTypes", {"cash"}}, {"allowedInstallments", Json::array()}, {"expiration", 0}});
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.json()["errors"].size(), 3u) << bad.body;
  EXPECT_EQ(Get("/merchant-purchase")["purchases"].size(), 0u);
}

TEST_F(CardTest, AllowedIpsChecksTheBuyersIp) {
  Json s = Ok("POST", "/merchant-session",
              {{"allowedFundingTypes", {"credit"}},
               {"allowedInstallments", {{{"totalAmount", 5000}, {"count", 1}}}},
               {"expiration", 600},
               {"allowedIps", {"10.0.0.1"}}})["session"];
  EXPECT_EQ(Buy(s, Purchase("4242424242424242")).code(), "invalidUserIp");
  Json p = Purchase("4242424242424242");
  p["metadata"]["userIp"] = "10.0.0.1";
  EXPECT_EQ(BuyOk(s, p)["status"], "approved");
}

TEST_F(CardTest, SdkTestCardsApprove) {
  for (const char* number : {"5277696455399733", "36490101441625", "6062825624254001", "4235647728025682"}) {
    Json p = BuyOk(Session(), Purchase(number));
    EXPECT_EQ(p["status"], "approved") << number;
  }
  Json cards = Get("/merchant-card")["cards"];
  std::set<std::string> networks;
  for (const auto& c : cards) networks.insert(c["network"].get<std::string>());
  EXPECT_EQ(networks, (std::set<std::string>{"mastercard", "diners", "hipercard", "visa"}));
}

}  // namespace
}  // namespace balcao::sandbox::family_testing
