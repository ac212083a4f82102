// Payments over real HTTP: each type's lifecycle (created -> processing -> success on the
// sandbox clock, ledger debit, logs, receipt PDF, DELETE / PATCH cancel before processing),
// a brcode payment that pays a sandbox invoice and a dynamic brcode, a boleto payment that
// pays a sandbox boleto, validation, payment previews and payment requests.
#include <set>

#include "api/crypto.h"
#include "api/formats/boleto.h"
#include "api/formats/brcode.h"
#include "api/formats/utility_slip.h"
#include "tests/sandbox/family_harness.h"

namespace balcao::sandbox::family_testing {
namespace {

std::string UtilityBarcode(int segment, std::int64_t cents) {
  formats::UtilitySlipSpec spec;
  spec.segment = segment;
  spec.value_id = 6;
  spec.value = cents;
  spec.company_id = "0123";
  spec.free_field = "0000000000000000000012345";
  return formats::BuildUtilityBarcode(spec).value();
}

std::string OtherBankBoleto(std::int64_t cents) {
  formats::BoletoSpec spec;
  spec.bank_code = "341";
  spec.due_date = formats::ParseIsoDate("2099-12-31").value();
  spec.amount_cents = cents;
  spec.free_field = "1234567890123456789012345";
  return formats::BuildBoletoBarcode(spec).value();
}

class PaymentTest : public FamilyHarness {
 protected:
  // Creates one payment, runs it to success and checks the ledger, logs and receipt.
  Json RunToSuccess(const std::string& resource, const Json& element, std::int64_t expected_amount) {
    const std::int64_t before = Balance();
    Json p = Ok("POST", "/" + resource, {{"payments", {element}}})["payments"][0];
    EXPECT_EQ(p["status"], "created") << resource;
    EXPECT_EQ(p["amount"], expected_amount) << resource;
    const std::string id = p["id"].get<std::string>();
    EXPECT_NE(PdfText("/" + resource + "/" + id + "/pdf").find("receipt"), std::string::npos) << resource;
    Advance(1);
    EXPECT_EQ(Ok("GET", "/" + resource + "/" + id)["payment"]["status"], "processing") << resource;
    EXPECT_EQ(Balance(), before - expected_amount) << resource;
    Advance(10);
    Json done = Ok("GET", "/" + resource + "/" + id)["payment"];
    EXPECT_EQ(done["status"], "success") << resource;
    std::vector<std::string> types;
    for (Json all = Ok("GET", "/" + resource + "/log?paymentIds=" + id); const auto& l : all["logs"])
      types.push_back(l["type"].get<std::string>());
    EXPECT_EQ(types, (std::vector<std::string>{"success", "processing", "created"})) << resource;
    ExpectReceipt("/" + resource + "/" + id + "/pdf", {"Status: success", "Amount: "});
    return done;
  }
  Json Invoice(std::int64_t amount) {
    return Ok(
        "POST", "/invoice",
        {{"invoices", {{{"amount", amount}, {"name", "Arya Stark"}, {"taxId", "012.345.678-90"}}}}})["invoices"][0];
  }
  Json Boleto(std::int64_t amount) {
    return Ok("POST", "/boleto",
              {{"boletos",
                {{{"amount", amount},
                  {"name", "Arya Stark"},
                  {"taxId", "012.345.678-90"},
                  {"streetLine1", "Rua A, 1"},
                  {"streetLine2", ""},
                  {"district", "Centro"},
                  {"city", "Sao Paulo"},
                  {"stateCode", "SP"},
                  {"zipCode", "01000-000"}}}}})["boletos"][0];
  }
};

TEST_F(PaymentTest, EachTypeRunsToSuccess) {
  Fund(1'000'000);
  RunToSuccess("utility-payment", {{"barCode", UtilityBarcode(2, 4'321)}, {"description", "Water bill of May"}}, 4'321);
  Json tax = RunToSuccess("tax-payment",
                          {{"barCode", UtilityBarcode(5, 9'999)}, {"description", "Federal tax payment"}}, 9'999);
  EXPECT_EQ(tax["type"], "federal");
  RunToSuccess("boleto-payment",
               {{"line", formats::BoletoLineFromBarcode(OtherBankBoleto(55'000)).value()},
                {"taxId", "20.018.183/0001-80"},
                {"description", "Supplier boleto"}},
               55'000);
  Json darf = RunToSuccess("darf-payment",
                           {{"revenueCode", "1240"},
                            {"taxId", "012.345.678-90"},
                            {"competence", "2020-09"},
                            {"referenceNumber", "2340978970"},
                            {"nominalAmount", 1'234},
                            {"fineAmount", 12},
                            {"interestAmount", 34},
                            {"due", "2099-10-28"},
                            {"description", "DARF September"}},
                           1'280);
  EXPECT_EQ(darf["nominalAmount"], 1'234);
  formats::StaticBrCodeSpec pix;
  pix.key = "jon.snow@example.com";
  pix.merchant_name = "Jon Snow";
  pix.merchant_city = "Winterfell";
  pix.amount_cents = 1'000;
  RunToSuccess("brcode-payment",
               {{"brcode", formats::BuildStaticBrCode(pix).value()},
                {"taxId", "012.345.678-90"},
                {"description", "Paying a BR Code"}},
               1'000);
}

TEST_F(PaymentTest, BrcodePaymentPaysSandboxInvoiceAndDynamicBrcode) {
  Fund(100'000);
  Json invoice = Invoice(2'500);
  Json p = Ok("POST", "/brcode-payment",
              {{"payments",
                {{{"brcode", invoice["brcode"]},
                  {"taxId", "012.345.678-90"},
                  {"description", "Paying my own invoice"}}}}})["payments"][0];
  EXPECT_EQ(p["amount"], 2'500);
  Advance(1);
  EXPECT_EQ(Ok("GET", "/invoice/" + invoice["id"].get<std::string>())["invoice"]["status"], "paid");
  EXPECT_EQ(Balance(), 100'000);  // debit and credit in the same workspace
  Advance(10);
  EXPECT_EQ(Ok("GET", "/brcode-payment/" + p["id"].get<std::string>())["payment"]["status"], "success");
  // Paying it again fails at processing and is refunded.
  Json again = Ok("POST", "/brcode-payment",
                  {{"payments",
                    {{{"brcode", invoice["brcode"]},
                      {"taxId", "012.345.678-90"},
                      {"description", "Paying it twice now"}}}}})["payments"][0];
  Advance(1);
  Json failed = Ok("GET", "/brcode-payment/" + again["id"].get<std::string>())["payment"];
  EXPECT_EQ(failed["status"], "failed");
  EXPECT_EQ(Balance(), 100'000);

  Json dyn = Ok("POST", "/dynamic-brcode", {{"brcodes", {{{"amount", 800}}}}})["brcodes"][0];
  Json pd = Ok("POST", "/brcode-payment",
               {{"payments",
                 {{{"brcode", dyn["id"]},
                   {"taxId", "012.345.678-90"},
                   {"description", "Paying a dynamic code"}}}}})["payments"][0];
  Advance(1);
  Json deposits = Ok("GET", "/deposit?tags=dynamic-brcode/" + dyn["uuid"].get<std::string>())["deposits"];
  ASSERT_EQ(deposits.size(), 1u);
  EXPECT_EQ(deposits[0]["amount"], 800);
  (void)pd;
}

TEST_F(PaymentTest, BrcodePaymentFromAnotherWorkspaceMovesMoneyBetweenThem) {
  Json invoice = Invoice(4'000);
  const auto& cred = sandbox_->credentials();
  SignAs("organization/" + cred.organization_id, cred.organization_private_key_pem);
  Json ws = Ok("POST", "/workspace", {{"username", "second-shop"}, {"name", "Second Shop"}})["workspace"];
  const std::string key = api::PrivateKey::Generate().ToPem();
  const std::string pub = api::PrivateKey::FromPem(key)->public_key().ToPem();
  Json project = SimOk("projects", {{"publicKey", pub}, {"workspaceId", ws["id"]}})["project"];
  SignAs("project/" + project["id"].get<std::string>(), key);
  SimOk("deposit", {{"amount", 10'000}, {"workspaceId", ws["id"]}});
  Json p = Ok("POST", "/brcode-payment",
              {{"payments",
                {{{"brcode", invoice["brcode"]},
                  {"taxId", "012.345.678-90"},
                  {"description", "Buying from the demo shop"}}}}})["payments"][0];
  Advance(11);
  EXPECT_EQ(Ok("GET", "/brcode-payment/" + p["id"].get<std::string>())["payment"]["status"], "success");
  EXPECT_EQ(Balance(), 6'000);
  SignAsDemoProject();
  Json paid = Ok("GET", "/invoice/" + invoice["id"].get<std::string>())["invoice"];
  EXPECT_EQ(paid["status"], "paid");
  EXPECT_EQ(Ok("GET", "/invoice/" + invoice["id"].get<std::string>() + "/payment")["payment"]["name"], "Second Shop");
  EXPECT_EQ(Balance(), 4'000);
  EXPECT_EQ(Api("GET", "/brcode-payment/" + p["id"].get<std::string>()).code(), "invalidBrcodePayment");
}

TEST_F(PaymentTest, CancelBeforeProcessingOnly) {
  Fund(100'000);
  Json u = Ok("POST", "/utility-payment",
              {{"payments",
                {{{"barCode", UtilityBarcode(3, 100)},
                  {"description", "Power bill 2099"},
                  {"scheduled", "2099-01-05"}}}}})["payments"][0];
  Json c = Ok("DELETE", "/utility-payment/" + u["id"].get<std::string>())["payment"];
  EXPECT_EQ(c["status"], "canceled");
  std::vector<std::string> types;
  for (Json all = Ok("GET", "/utility-payment/log?paymentIds=" + u["id"].get<std::string>());
       const auto& l : all["logs"])
    types.push_back(l["type"].get<std::string>());
  EXPECT_EQ(types, (std::vector<std::string>{"canceled", "canceling", "created"}));
  EXPECT_EQ(Api("GET", "/utility-payment/" + u["id"].get<std::string>() + "/pdf").code(), "invalidPayment");

  Json b = Ok("POST", "/brcode-payment",
              {{"payments",
                {{{"brcode", Invoice(10)["brcode"]},
                  {"taxId", "012.345.678-90"},
                  {"description", "To be canceled"}}}}})["payments"][0];
  EXPECT_EQ(Ok("PATCH", "/brcode-payment/" + b["id"].get<std::string>(), {{"status", "canceled"}})["payment"]["status"],
            "canceled");
  Json d = Ok("POST", "/darf-payment",
              {{"payments",
                {{{"revenueCode", "1240"},
                  {"taxId", "012.345.678-90"},
                  {"competence", "2020-09-01"},
                  {"nominalAmount", 10},
                  {"fineAmount", 0},
                  {"interestAmount", 0},
                  {"due", "2099-10-28"},
                  {"description", "DARF to process"}}}}})["payments"][0];
  Advance(1);
  Reply late = Api("DELETE", "/darf-payment/" + d["id"].get<std::string>());
  EXPECT_EQ(late.code(), "invalidAction");
  EXPECT_EQ(Balance(), 100'000 - 10);
}

TEST_F(PaymentTest, Validation) {
  auto code = [&](const std::string& resource, const Json& element) {
    return Api("POST", "/" + resource, {{"payments", {element}}}).code();
  };
  const std::string bar = OtherBankBoleto(100);
  const std::string other_line = formats::BoletoLineFromBarcode(OtherBankBoleto(101)).value();
  EXPECT_EQ(
      code("boleto-payment",
           {{"barCode", bar}, {"line", other_line}, {"taxId", "012.345.678-90"}, {"description", "Mismatched slip"}}),
      "invalidBarCode");
  EXPECT_EQ(code("boleto-payment", {{"line", "123"}, {"taxId", "012.345.678-90"}, {"description", "Broken line!"}}),
            "invalidLine");
  EXPECT_EQ(code("boleto-payment", {{"barCode", bar}, {"taxId", "012.345.678-90"}, {"description", "short"}}),
            "invalidDescription");
  EXPECT_EQ(code("utility-payment", {{"barCode", bar}, {"description", "A boleto is no utility"}}), "invalidBarCode");
  EXPECT_EQ(code("tax-payment", {{"barCode", UtilityBarcode(2, 5)}, {"description", "Water is no tax"}}),
            "invalidBarCode");
  EXPECT_EQ(code("darf-payment", {{"revenueCode", "12a4"},
                                  {"taxId", "012.345.678-90"},
                                  {"competence", "2020-09"},
                                  {"nominalAmount", 10},
                                  {"fineAmount", 0},
                                  {"interestAmount", 0},
                                  {"due", "2099-10-28"},
                                  {"description", "DARF with bad code"}}),
            "invalidRevenueCode");
  EXPECT_EQ(
      code("brcode-payment", {{"brcode", "000201"}, {"taxId", "012.345.678-90"}, {"description", "Broken BR Code"}}),
      "invalidBrcode");
  EXPECT_EQ(Api("GET", "/boleto-payment/123").code(), "invalidPayment");
  EXPECT_EQ(Api("GET", "/brcode-payment/123").code(), "invalidBrcodePayment");
  EXPECT_EQ(Api("GET", "/brcode-payment/log?types=random").status, 400);
}

TEST_F(PaymentTest, BoletoPaymentPaysSandboxBoleto) {
  Fund(100'000);
  Json boleto = Boleto(3'000);
  Json p = Ok("POST", "/boleto-payment",
              {{"payments",
                {{{"barCode", boleto["barCode"]},
                  {"taxId", "012.345.678-90"},
                  {"description", "Paying a sandbox boleto"}}}}})["payments"][0];
  EXPECT_EQ(p["amount"], 3'000);
  Advance(1);
  Json paid = Ok("GET", "/boleto/" + boleto["id"].get<std::string>())["boleto"];
  EXPECT_EQ(paid["status"], "paid");
  EXPECT_EQ(paid["transactionIds"].size(), 1u);
  EXPECT_EQ(Balance(), 100'000);
}

TEST_F(PaymentTest, Previews) {
  Json invoice = Invoice(1'500);
  Json boleto = Boleto(2'000);
  Json r = Ok("POST", "/payment-preview",
              {{"previews",
                {{{"id", invoice["brcode"]}},
                 {{"id", boleto["line"]}, {"scheduled", "2099-01-01"}},
                 {{"id", UtilityBarcode(4, 777)}},
                 {{"id", UtilityBarcode(1, 888)}}}}})["previews"];
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0]["type"], "brcode-payment");
  EXPECT_EQ(r[0]["payment"]["amount"], 1'500);
  EXPECT_EQ(r[0]["payment"]["taxId"], "012.345.678-90");
  EXPECT_EQ(r[1]["type"], "boleto-payment");
  EXPECT_EQ(r[1]["payment"]["amount"], 2'000);
  EXPECT_EQ(r[1]["payment"]["payerName"], "Arya Stark");
  EXPECT_EQ(r[1]["payment"]["barCode"], boleto["barCode"]);
  EXPECT_EQ(r[2]["type"], "utility-payment");
  EXPECT_EQ(r[2]["payment"]["amount"], 777);
  EXPECT_EQ(r[3]["type"], "tax-payment");
  EXPECT_EQ(Api("POST", "/payment-preview", {{"previews", {{{"id", "nonsense"}}}}}).code(), "invalidId");
}

TEST_F(PaymentTest, PaymentRequests) {
  Json transfer = {{"amount", 100},        {"bankCode", "20018183"},
                   {"branchCode", "0001"}, {"accountNumber", "10000-0"},
                   {"name", "Jon Snow"},   {"taxId", "012.345.678-90"}};
  Json r = Ok(
      "POST", "/payment-request",
      {{"requests", {{{"centerId", "5967314465849344"}, {"type", "transfer"}, {"payment", transfer}}}}})["requests"][0];
  EXPECT_EQ(r["status"], "pending");
  EXPECT_EQ(r["type"], "transfer");
  EXPECT_EQ(r["payment"]["amount"], 100);
  EXPECT_EQ(Api("GET", "/payment-request").code(), "invalidCenterId");
  EXPECT_EQ(Ok("GET", "/payment-request?centerId=5967314465849344")["requests"].size(), 1u);
  EXPECT_EQ(Ok("GET", "/payment-request?centerId=other")["requests"].size(), 0u);
  EXPECT_EQ(Api("POST", "/payment-request", {{"requests", {{{"type", "transfer"}, {"payment", transfer}}}}}).code(),
            "invalidJson");
  EXPECT_EQ(
      Api("POST", "/payment-request", {{"requests", {{{"centerId", "1"}, {"type", "pizza"}, {"payment", transfer}}}}})
          .code(),
      "invalidType");
  Json approved = SimOk("payment-request/approve", {{"id", r["id"]}});
  EXPECT_EQ(approved["request"]["status"], "approved");
  EXPECT_EQ(approved["payment"]["status"], "created");
  EXPECT_EQ(Ok("GET", "/transfer")["transfers"].size(), 1u);
}

// The receipts of logs: an invoice's reversal and a deposit's reversal (the Python SDK's
// suite asks for both and wants more than 1,000 bytes).
TEST_F(PaymentTest, ReversalReceiptsOfInvoicesAndDeposits) {
  Json invoice = Invoice(10'000);
  const std::string invoice_id = invoice["id"].get<std::string>();
  ExpectReceipt("/invoice/" + invoice_id + "/pdf", {"Invoice", "Arya Stark", "R$ 100,00"});
  SimOk("invoice/pay", {{"id", invoice_id}});
  Ok("PATCH", "/invoice/" + invoice_id, {{"amount", 4'000}});
  Json logs = Ok("GET", "/invoice/log?types=reversed&invoiceIds=" + invoice_id)["logs"];
  ASSERT_EQ(logs.size(), 1u);
  ExpectReceipt("/invoice/log/" + logs[0]["id"].get<std::string>() + "/pdf",
                {"Invoice reversal receipt", "Reversed: R$ 60,00", "Remaining amount: R$ 40,00"});
  Json deposit = SimOk("deposit", {{"amount", 20'000}, {"name", "Ned Stark"}, {"taxId", "012.345.678-90"}})["deposit"];
  const std::string deposit_id = deposit["id"].get<std::string>();
  Ok("PATCH", "/deposit/" + deposit_id, {{"amount", 15'000}});
  logs = Ok("GET", "/deposit/log?types=reversed&depositIds=" + deposit_id)["logs"];
  ASSERT_EQ(logs.size(), 1u);
  ExpectReceipt("/deposit/log/" + logs[0]["id"].get<std::string>() + "/pdf",
                {"Deposit reversal receipt", "Ned Stark", "Reversed: R$ 50,00"});
}

// The Python SDK's suite pays, then deletes, a utility line whose second block check digit
// and general check digit are wrong; the bank's sandbox takes it, and so does this one
// (docs/sandbox.md, "Bar codes and lines"). The structure still holds: a line whose value
// identifier (third digit) is none of 6-9 stays refused.
TEST_F(PaymentTest, TheSdkUtilityLineWithStaleCheckDigitsIsTakenThenDeleted) {
  const std::string sdk_line = "83640000001 1 08740138007 0 61053026111 0 08067159411 9";
  Json p = Ok("POST", "/utility-payment",
              {{"payments",
                {{{"line", sdk_line},
                  {"description", "Utility line of the SDK suite"},
                  {"scheduled", "2099-01-02"},
                  {"tags", {"utility", "payment"}}}}}})["payments"][0];
  EXPECT_EQ(p["amount"], 10'874);
  EXPECT_EQ(p["line"], "836400000011087401380070610530261110080671594119");
  EXPECT_EQ(Ok("DELETE", "/utility-payment/" + p["id"].get<std::string>())["payment"]["status"], "canceled");
  EXPECT_EQ(Api("POST", "/utility-payment",
                {{"payments",
                  {{{"line", "83540000001 1 08740138007 0 61053026111 0 08067159411 9"},
                    {"description", "A line of no value identifier"}}}}})
                .code(),
            "invalidLine");
}

}  // namespace
}  // namespace balcao::sandbox::family_testing
