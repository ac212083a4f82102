// Every create / sub-resource route of the families with each field replaced by values of
// the wrong type or range: the answer is a 400 with a code (or a 200 when the value happens
// to be acceptable), never a 500, and nothing is half-written.
#include "tests/sandbox/family_harness.h"

namespace balcao::sandbox::family_testing {
namespace {

class FamilyBadInputTest : public FamilyHarness {};

const Json kWrongValues =
    Json::array({Json::object({{"x", 1}}), Json::array({1, "a"}), "", "x", -1, 0, 9223372036854775807LL,
                 18446744073709551615ULL, 1.5, true, nullptr, "2035-13", "9999999999999999999999"});

TEST_F(FamilyBadInputTest, WrongTypesNeverCrash) {
  Json session = Ok("POST", "/merchant-session",
                    {{"allowedFundingTypes", {"credit"}},
                     {"allowedInstallments", {{{"totalAmount", 100}, {"count", 1}}}},
                     {"expiration", 600}})["session"];
  const Json metadata = {{"userAgent", "x"}, {"userIp", "1.1.1.1"}, {"language", "pt-BR"}, {"timezoneOffset", 3}};
  const Json purchase = {{"amount", 100},
                         {"cardExpiration", "2035-01"},
                         {"cardNumber", "4242424242424242"},
                         {"cardSecurityCode", "123"},
                         {"fundingType", "credit"},
                         {"holderName", "Ana Lima"},
                         {"holderEmail", "a@b.c"},
                         {"holderPhone", "1"},
                         {"billingCity", "x"},
                         {"billingCountryCode", "BRA"},
                         {"billingStateCode", "SP"},
                         {"billingStreetLine1", "x"},
                         {"billingStreetLine2", "x"},
                         {"billingZipCode", "01000-000"},
                         {"metadata", metadata},
                         {"installmentCount", 1}};
  struct Case {
    std::string path, wrapper;
    Json body;
  };
  const std::vector<Case> cases = {
      {"/merchant-session",
       "",
       {{"allowedFundingTypes", {"credit"}},
        {"allowedInstallments", {{{"totalAmount", 1}, {"count", 1}}}},
        {"expiration", 60},
        {"allowedIps", {"1.1.1.1"}}}},
      {"/merchant-session/" + session["uuid"].get<std::string>() + "/purchase", "", purchase},
      {"/merchant-purchase",
       "",
       {{"amount", 1}, {"cardId", "1"}, {"fundingType", "credit"}, {"challengeMode", "disabled"}}},
      {"/transfer",
       "transfers",
       {{"amount", 1},
        {"bankCode", "341"},
        {"branchCode", "1"},
        {"accountNumber", "1-0"},
        {"name", "x"},
        {"taxId", "012.345.678-90"},
        {"rules", {{{"key", "resendingLimit"}, {"value", 1}}}},
        {"scheduled", "2099-01-01"}}},
      {"/brcode-payment",
       "payments",
       {{"brcode", "x"}, {"taxId", "012.345.678-90"}, {"description", "0123456789"}, {"amount", 1}}},
      {"/boleto-payment", "payments", {{"line", "1"}, {"taxId", "012.345.678-90"}, {"description", "0123456789"}}},
      {"/utility-payment", "payments", {{"barCode", "8"}, {"description", "0123456789"}}},
      {"/tax-payment", "payments", {{"barCode", "8"}, {"description", "0123456789"}}},
      {"/darf-payment",
       "payments",
       {{"revenueCode", "1240"},
        {"taxId", "012.345.678-90"},
        {"competence", "2020-09"},
        {"nominalAmount", 1},
        {"fineAmount", 0},
        {"interestAmount", 0},
        {"due", "2099-01-01"},
        {"description", "0123456789"}}},
      {"/payment-preview", "previews", {{"id", "x"}, {"scheduled", "2099-01-01"}}},
      {"/payment-request",
       "requests",
       {{"centerId", "1"}, {"type", "transfer"}, {"payment", {{"amount", 1}}}, {"due", "2099-01-01"}}},
      {"/boleto",
       "boletos",
       {{"amount", 100},
        {"name", "Ana Lima"},
        {"taxId", "012.345.678-90"},
        {"streetLine1", "x"},
        {"streetLine2", "x"},
        {"district", "x"},
        {"city", "x"},
        {"stateCode", "SP"},
        {"zipCode", "01000-000"},
        {"due", "2099-01-01"},
        {"fine", 1},
        {"interest", 1},
        {"overdueLimit", 1},
        {"descriptions", {{{"text", "x"}}}},
        {"discounts", {{{"percentage", 1}, {"date", "2098-01-01"}}}},
        {"splits", {{{"receiverId", "1"}, {"amount", 1}}}}}},
      {"/boleto-holmes", "holmes", {{"boletoId", "1"}}},
      {"/split-receiver",
       "receivers",
       {{"name", "x"},
        {"taxId", "012.345.678-90"},
        {"bankCode", "341"},
        {"branchCode", "1"},
        {"accountNumber", "1"},
        {"accountType", "checking"}}},
      {"/split-profile", "profiles", {{"delay", 1}, {"interval", "day"}}},
      {"/invoice-pull-subscription",
       "subscriptions",
       {{"displayDescription", "x"},
        {"externalId", "x"},
        {"interval", "month"},
        {"name", "x"},
        {"pullMode", "manual"},
        {"pullRetryLimit", 0},
        {"referenceCode", "x"},
        {"start", "2099-01-01"},
        {"taxId", "012.345.678-90"},
        {"type", "push"},
        {"amount", 1},
        {"amountMinLimit", 1},
        {"data", {{"x", 1}}},
        {"due", "2099-01-01"},
        {"end", "2099-02-01"}}},
      {"/invoice-pull-request",
       "requests",
       {{"subscriptionId", "1"}, {"invoiceId", "1"}, {"due", "2099-01-01"}, {"attemptType", "retry"}}},
  };
  int requests = 0;
  for (const auto& c : cases) {
    for (auto it = c.body.begin(); it != c.body.end(); ++it) {
      for (const auto& wrong : kWrongValues) {
        Json body = c.body;
        body[it.key()] = wrong;
        const std::string method = c.path == "/split-profile" ? "PUT" : "POST";
        Reply r = Api(method, c.path, c.wrapper.empty() ? body : Json{{c.wrapper, {body}}});
        ++requests;
        ASSERT_TRUE(r.status == 400 || r.status == 200)
            << c.path << " " << it.key() << "=" << wrong.dump() << " -> " << r.status << " " << r.body;
        if (r.status == 400) {
          EXPECT_FALSE(r.code().empty()) << r.body;
        }
      }
    }
  }
  EXPECT_GT(requests, 1000);
  for (const char* sim : {"challenge/pass", "boleto/pay", "payment/fail", "payment-request/approve", "boleto/autopay"})
    for (const auto& wrong : kWrongValues) {
      Reply r = Sim(sim, {{"id", wrong}, {"percent", wrong}, {"resource", wrong}, {"line", wrong}});
      EXPECT_EQ(r.status, 400) << sim << " " << wrong.dump() << " -> " << r.body;
    }
  EXPECT_EQ(Ok("GET", "/balance")["balances"][0]["amount"], 0);
}

}  // namespace
}  // namespace balcao::sandbox::family_testing
