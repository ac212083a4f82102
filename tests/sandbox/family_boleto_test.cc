// Boletos, holmes, splits and invoice pull subscriptions / requests over real HTTP: create
// (line and bar code decode back with api/formats), payer simulation with fine / interest /
// discount, DELETE twice, automatic payment, public PDF, holmes, splits with profiles,
// pull subscription and request lifecycles.
#include <set>

#include "api/formats/boleto.h"
#include "tests/sandbox/family_harness.h"
#include "tests/testing/status_matchers.h"

namespace balcao::sandbox::family_testing {
namespace {

class BoletoTest : public FamilyHarness {
 protected:
  static Json BoletoBody(std::int64_t amount) {
    return {{"amount", amount},          {"name", "Arya Stark"},    {"taxId", "012.345.678-90"},
            {"streetLine1", "Rua A, 1"}, {"streetLine2", "apto 2"}, {"district", "Centro"},
            {"city", "Sao Paulo"},       {"stateCode", "SP"},       {"zipCode", "01000000"}};
  }
  Json Create(const Json& body) { return Ok("POST", "/boleto", {{"boletos", {body}}})["boletos"][0]; }
  Json Get(const std::string& id) { return Ok("GET", "/boleto/" + id)["boleto"]; }
  Json CreateReceiver() {
    return Ok("POST", "/split-receiver",
              {{"receivers",
                {{{"name", "Sansa Stark"},
                  {"taxId", "012.345.678-90"},
                  {"bankCode", "18236120"},
                  {"branchCode", "0001"},
                  {"accountNumber", "10000-0"},
                  {"accountType", "checking"}}}}})["receivers"][0];
  }
};

TEST_F(BoletoTest, CreateBuildsAValidSlip) {
  SetClock("2030-03-04T12:00:00+00:00");
  Json body = BoletoBody(12'345);
  body["due"] = "2030-03-10";
  body["tags"] = {"Rent"};
  body["descriptions"] = {{{"text", "Rent of March"}, {"amount", 12'345}}};
  Json b = Create(body);
  EXPECT_EQ(b["status"], "created");
  EXPECT_EQ(b["due"], "2030-03-10T03:00:00.000000+00:00");
  EXPECT_EQ(b["zipCode"], "01000-000");
  EXPECT_EQ(b["tags"], Json::array({"rent"}));
  EXPECT_EQ(b["overdueLimit"], 59);
  EXPECT_EQ(b["fine"], 2.0);
  auto decoded = formats::ParseBoleto(b["line"].get<std::string>(), formats::ParseIsoDate("2030-03-04").value());
  ASSERT_OK(decoded);
  EXPECT_EQ(decoded->barcode, b["barCode"]);
  EXPECT_EQ(decoded->amount_cents, 12'345);
  EXPECT_EQ(formats::FormatIsoDate(*decoded->due_date), "2030-03-10");
  EXPECT_EQ(decoded->bank_code, "462");
  // Public PDF: no signature needed; hiddenFields and layout are checked.
  ExpectReceipt("/boleto/" + b["id"].get<std::string>() + "/pdf", {"Arya Stark", "Rua A, 1", "R$ 123,45"},
                /*sign=*/false);
  const std::string hidden =
      PdfText("/boleto/" + b["id"].get<std::string>() + "/pdf?hiddenFields=customerAddress&layout=booklet", false);
  EXPECT_EQ(hidden.find("Rua A, 1"), std::string::npos) << hidden;
  EXPECT_EQ(Api("GET", "/boleto/" + b["id"].get<std::string>() + "/pdf?hiddenFields=color").code(), "invalidFields");
}

TEST_F(BoletoTest, ValidationNamesEveryField) {
  Json body = BoletoBody(0);
  body["stateCode"] = "S1";
  body["zipCode"] = "0100";
  body["overdueLimit"] = 60;
  body["receiverName"] = "Someone Else";
  body["discounts"] = {{{"percentage", 5}, {"date", "2099-01-01"}},
                       {{"percentage", 6}, {"date", "2099-01-01"}},
                       {{"percentage", 1}, {"date", "2099-01-01"}}};
  Reply r = Api("POST", "/boleto", {{"boletos", {body}}});
  ASSERT_EQ(r.status, 400);
  std::set<std::string> codes;
  for (Json all = r.json(); const auto& e : all["errors"]) codes.insert(e["code"].get<std::string>());
  EXPECT_EQ(codes, (std::set<std::string>{"invalidAmount", "invalidStateCode", "invalidZipCode", "invalidOverdueLimit",
                                          "invalidReceiver", "invalidDiscount"}))
      << r.body;
  EXPECT_EQ(Ok("GET", "/boleto")["boletos"].size(), 0u);
}

TEST_F(BoletoTest, PaidLateWithFineAndInterest) {
  SetClock("2030-03-04T12:00:00+00:00");
  Json body = BoletoBody(10'000);
  body["due"] = "2030-03-05";
  body["fine"] = 2.5;
  body["interest"] = 1.5;
  SimOk("boleto/autopay", {{"percent", 0}});
  Json b = Create(body);
  const std::string id = b["id"].get<std::string>();
  SetClock("2030-03-15T12:00:00+00:00");  // 10 days late
  EXPECT_EQ(Get(id)["status"], "overdue");
  // 10'000 + 2.5% fine + 1.5%/month * 10/30 days = 10'000 + 250 + 50
  Reply wrong = Sim("boleto/pay", {{"id", id}, {"amount", 10'000}});
  EXPECT_EQ(wrong.code(), "invalidAmount");
  Json paid = SimOk("boleto/pay", {{"line", b["line"]}, {"amount", 10'300}, {"name", "Payer Person"}})["boleto"];
  EXPECT_EQ(paid["status"], "paid");
  EXPECT_EQ(paid["amount"], 10'300);
  EXPECT_EQ(Balance(), 10'300);
  Json logs = Ok("GET", "/boleto/log?boletoIds=" + id + "&types=paid")["logs"];
  ASSERT_EQ(logs.size(), 1u);
  EXPECT_EQ(logs[0]["fineAmount"], 250);
  EXPECT_EQ(logs[0]["interestAmount"], 50);
  EXPECT_EQ(Sim("boleto/pay", {{"id", id}}).code(), "invalidBoleto");
}

TEST_F(BoletoTest, PaidEarlyWithDiscount) {
  SetClock("2030-03-04T12:00:00+00:00");
  Json body = BoletoBody(20'000);
  body["due"] = "2030-03-20";
  body["discounts"] = {{{"percentage", 10}, {"date", "2030-03-05"}}, {{"percentage", 5}, {"date", "2030-03-10"}}};
  Json b = Create(body);
  Json paid = SimOk("boleto/pay", {{"id", b["id"]}})["boleto"];
  EXPECT_EQ(paid["amount"], 18'000);
}

TEST_F(BoletoTest, DeleteTwiceIsInvalidBoleto) {
  Json b = Create(BoletoBody(500));
  Json canceled = Ok("DELETE", "/boleto/" + b["id"].get<std::string>())["boleto"];
  EXPECT_EQ(canceled["status"], "canceled");
  EXPECT_EQ(Api("DELETE", "/boleto/" + b["id"].get<std::string>()).code(), "invalidBoleto");
  EXPECT_EQ(Sim("boleto/pay", {{"id", b["id"]}}).code(), "invalidBoleto");
  Advance(3600);
  EXPECT_EQ(Get(b["id"].get<std::string>())["status"], "canceled");
}

TEST_F(BoletoTest, AboutNinetyPercentPaidWithinAnHour) {
  EXPECT_EQ(Sim("boleto/autopay", {{"percent", 101}}).code(), "invalidPercent");
  Json batch = Json::array();
  for (int i = 0; i < 40; ++i) batch.push_back(BoletoBody(100 + i));
  Json created = Ok("POST", "/boleto", {{"boletos", batch}})["boletos"];
  ASSERT_EQ(created.size(), 40u);
  Advance(3600);
  const std::size_t paid = Ok("GET", "/boleto?status=paid&limit=100")["boletos"].size();
  EXPECT_GE(paid, 28u);
  EXPECT_LE(paid, 40u);
  std::int64_t expected = 0;
  for (Json all = Ok("GET", "/boleto?status=paid&limit=100"); const auto& b : all["boletos"])
    expected += b["amount"].get<std::int64_t>();
  EXPECT_EQ(Balance(), expected);
}

TEST_F(BoletoTest, HolmesSolves) {
  Json b = Create(BoletoBody(700));
  Json h = Ok("POST", "/boleto-holmes", {{"holmes", {{{"boletoId", b["id"]}}}}})["holmes"][0];
  EXPECT_EQ(h["status"], "solving");
  EXPECT_EQ(h["result"], "");
  EXPECT_EQ(Api("POST", "/boleto-holmes", {{"holmes", {{{"boletoId", b["id"]}}}}}).code(), "repeatedHolmes");
  EXPECT_EQ(Api("POST", "/boleto-holmes", {{"holmes", {{{"boletoId", "123"}}}}}).code(), "invalidBoletoId");
  Ok("DELETE", "/boleto/" + b["id"].get<std::string>());
  Advance(600);
  Json solved = Ok("GET", "/boleto-holmes/" + h["id"].get<std::string>())["holmes"];
  EXPECT_EQ(solved["status"], "solved");
  EXPECT_EQ(solved["result"], "canceled");
  Json logs = Ok("GET", "/boleto-holmes/log?holmesIds=" + h["id"].get<std::string>())["logs"];
  EXPECT_EQ(logs[0]["type"], "solved");
  EXPECT_EQ(logs[0]["holmes"]["result"], "canceled");
  EXPECT_EQ(Ok("GET", "/boleto-holmes?boletoId=" + b["id"].get<std::string>())["holmes"].size(), 1u);
  EXPECT_EQ(Api("POST", "/boleto-holmes", {{"holmes", {{{"boletoId", b["id"]}}}}}).code(), "finalHolmesStatus");
  EXPECT_EQ(Api("GET", "/boleto-holmes/1").code(), "invalidHolmes");
}

TEST_F(BoletoTest, SplitsOfAPaidBoleto) {
  Json receiver = CreateReceiver();
  EXPECT_EQ(Api("POST", "/split-receiver", {{"receivers", {{{"name", "X"}}}}}).status, 400);
  Json profile = Ok("PUT", "/split-profile", {{"profiles", {{{"interval", "day"}, {"delay", 60'000}}}}})["profiles"][0];
  Json again = Ok("PUT", "/split-profile", {{"profiles", {{{"delay", 120'000}}}}})["profiles"][0];
  EXPECT_EQ(again["id"], profile["id"]);
  EXPECT_EQ(again["interval"], "day");
  Json body = BoletoBody(1'000);
  body["splits"] = {{{"receiverId", receiver["id"]}, {"amount", 300}}};
  Json b = Create(body);
  Json bad = BoletoBody(100);
  bad["splits"] = {{{"receiverId", "1"}, {"amount", 1}}};
  EXPECT_EQ(Api("POST", "/boleto", {{"boletos", {bad}}}).code(), "invalidSplitReceiver");
  SimOk("boleto/pay", {{"id", b["id"]}});
  const std::string tag = "boleto/" + b["id"].get<std::string>();
  Json splits = Ok("GET", "/split?tags=" + tag)["splits"];
  ASSERT_EQ(splits.size(), 1u);
  EXPECT_EQ(splits[0]["status"], "created");
  EXPECT_EQ(splits[0]["amount"], 300);
  EXPECT_EQ(splits[0]["source"], tag);
  EXPECT_EQ(Balance(), 1'000);
  Advance(120);
  EXPECT_EQ(Ok("GET", "/split/" + splits[0]["id"].get<std::string>())["split"]["status"], "success");
  EXPECT_EQ(Ok("GET", "/split?receiverIds=" + receiver["id"].get<std::string>())["splits"].size(), 1u);
  EXPECT_EQ(Balance(), 700);
}

TEST_F(BoletoTest, SplitsOfAPaidInvoice) {
  Json receiver = CreateReceiver();
  Json invoice = {{"amount", 2'000},
                  {"name", "Arya Stark"},
                  {"taxId", "012.345.678-90"},
                  {"splits", {{{"receiverId", receiver["id"]}, {"amount", 500}}}}};
  Json created = Ok("POST", "/invoice", {{"invoices", {invoice}}})["invoices"][0];
  SimOk("invoice/pay", {{"id", created["id"]}});
  const std::string tag = "invoice/" + created["id"].get<std::string>();
  Json splits = Ok("GET", "/split?tags=" + tag)["splits"];
  ASSERT_EQ(splits.size(), 1u);
  EXPECT_EQ(splits[0]["amount"], 500);
  EXPECT_EQ(splits[0]["receiverId"], receiver["id"]);
}

TEST_F(BoletoTest, InvoicePullSubscriptionAndRequest) {
  Json sub = {{"displayDescription", "Gym membership"},
              {"externalId", "gym-1"},
              {"interval", "month"},
              {"name", "Arya Stark"},
              {"pullMode", "manual"},
              {"pullRetryLimit", 3},
              {"referenceCode", "contract-1"},
              {"start", "2099-01-01"},
              {"taxId", "012.345.678-90"},
              {"type", "qrcode"},
              {"amount", 5'000}};
  Json s = Ok("POST", "/invoice-pull-subscription", {{"subscriptions", {sub}}})["subscriptions"][0];
  EXPECT_EQ(s["status"], "created");
  EXPECT_EQ(s["end"], nullptr);
  EXPECT_EQ(Api("POST", "/invoice-pull-subscription", {{"subscriptions", {sub}}}).code(), "invalidExternalId");
  Json other = sub;
  other["externalId"] = "gym-2";
  // The contract code may repeat (docs/sandbox.md: the SDKs' suites reuse one); externalId may not.
  Json again = Ok("POST", "/invoice-pull-subscription", {{"subscriptions", {other}}})["subscriptions"][0];
  EXPECT_EQ(again["referenceCode"], "contract-1");
  EXPECT_NE(again["id"], s["id"]);
  other["externalId"] = "gym-3";
  other["type"] = "push";
  EXPECT_EQ(Api("POST", "/invoice-pull-subscription", {{"subscriptions", {other}}}).code(), "invalidJson");
  const std::string sid = s["id"].get<std::string>();
  EXPECT_EQ(Api("DELETE", "/invoice-pull-subscription/" + sid).code(), "invalidAction");
  Json invoice =
      Ok("POST", "/invoice",
         {{"invoices", {{{"amount", 5'000}, {"name", "Arya Stark"}, {"taxId", "012.345.678-90"}}}}})["invoices"][0];
  Json early = {{"subscriptionId", sid}, {"invoiceId", invoice["id"]}, {"due", "2099-01-01"}};
  EXPECT_EQ(Api("POST", "/invoice-pull-request", {{"requests", {early}}}).code(), "invalidSubscriptionId");
  Advance(60);
  EXPECT_EQ(Ok("GET", "/invoice-pull-subscription/" + sid)["subscription"]["status"], "active");
  Json r = Ok("POST", "/invoice-pull-request",
              {{"requests", {{{"subscriptionId", sid}, {"invoiceId", invoice["id"]}, {"due", Now()}}}}})["requests"][0];
  EXPECT_EQ(r["status"], "pending");
  Advance(1);
  EXPECT_EQ(Ok("GET", "/invoice-pull-request/" + r["id"].get<std::string>())["request"]["status"], "success");
  EXPECT_EQ(Ok("GET", "/invoice/" + invoice["id"].get<std::string>())["invoice"]["status"], "paid");
  EXPECT_EQ(Api("DELETE", "/invoice-pull-request/" + r["id"].get<std::string>()).code(), "invalidAction");
  Json later = Ok(
      "POST", "/invoice-pull-request",
      {{"requests", {{{"subscriptionId", sid}, {"invoiceId", invoice["id"]}, {"due", "2099-02-01"}}}}})["requests"][0];
  EXPECT_EQ(Ok("DELETE", "/invoice-pull-request/" + later["id"].get<std::string>())["request"]["status"], "canceled");
  EXPECT_EQ(Ok("DELETE", "/invoice-pull-subscription/" + sid)["subscription"]["status"], "canceled");
  EXPECT_EQ(Api("DELETE", "/invoice-pull-subscription/" + sid).code(), "invalidAction");
}

}  // namespace
}  // namespace balcao::sandbox::family_testing
