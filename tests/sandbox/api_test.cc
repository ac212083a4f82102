// End-to-end over loopback HTTP with real signatures: envelopes, auth, tolerance, invoices,
// the Pix sale from dynamic brcode to deposit, reversals, ledger, webhooks, clock, faults.
#include <sys/stat.h>

#include <ctime>
#include <fstream>
#include <regex>
#include <sstream>

#include "api/formats/brcode.h"
#include "tests/sandbox/sandbox_client.h"
#include "tests/testing/status_matchers.h"

namespace balcao::sandbox::testing {
namespace {

const std::regex kTimestamp(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00)");

Json Invoice(std::int64_t amount, const std::string& tag) {
  return {{"amount", amount}, {"name", "Maria Souza"}, {"taxId", "33745107608"}, {"tags", {tag, "Loja-1"}}};
}

class ApiTest : public SandboxTest {
 protected:
  Json CreateInvoice(std::int64_t amount, const std::string& tag) {
    auto r = api().Post("/v2/invoice", {{"invoices", {Invoice(amount, tag)}}});
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json["invoices"][0];
  }
  std::int64_t Balance() { return api().Get("/v2/balance").json["balances"][0]["amount"].get<std::int64_t>(); }
};

TEST_F(ApiTest, FirstStartWritesCredentialsAndPrivateKeys) {
  const auto& c = sandbox().credentials();
  auto text = [](const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  Json cred = Json::parse(text(c.credentials_path));
  EXPECT_EQ(cred["projectId"], c.project_id);
  EXPECT_EQ(cred["baseUrl"], "http://127.0.0.1:" + std::to_string(sandbox().port()) + "/v2");
  struct stat st {};
  ASSERT_EQ(::stat(c.private_key_path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST_F(ApiTest, InvoiceCreateAppliesDefaultsAndReturnsARealBrCode) {
  Json inv = CreateInvoice(1500, "Sale-42");
  EXPECT_EQ(inv["status"], "created");
  EXPECT_EQ(inv["taxId"], "337.451.076-08");
  EXPECT_EQ(inv["tags"], Json({"sale-42", "loja-1"}));
  EXPECT_EQ(inv["expiration"], 5097600);
  EXPECT_EQ(inv["fine"], 2.0);
  EXPECT_TRUE(std::regex_match(inv["created"].get<std::string>(), kTimestamp));
  EXPECT_TRUE(std::regex_match(inv["due"].get<std::string>(), kTimestamp));
  auto code = formats::ParseBrCode(inv["brcode"].get<std::string>());
  ASSERT_OK(code);
  EXPECT_EQ(code->amount_cents, 1500);
  auto got = api().Get("/v2/invoice/" + inv["id"].get<std::string>());
  EXPECT_EQ(got.json["invoice"], inv);
}

TEST_F(ApiTest, BatchValidationReportsOneErrorPerProblemAndStoresNothing) {
  const auto before = sandbox().CountForTest("invoice");
  Json bad = {{"invoices",
               {Invoice(100, "a"),
                {{"amount", -1}, {"name", "X Y Z"}, {"taxId", "000.000.000-00"}},
                {{"amount", 10}, {"name", "Ana Lima"}, {"taxId", "33745107608"}, {"colour", "red"}}}}};
  auto r = api().Post("/v2/invoice", bad);
  ASSERT_EQ(r.status, 400) << r.body;
  std::vector<std::string> codes;
  for (const auto& e : r.json["errors"]) codes.push_back(e["code"].get<std::string>());
  EXPECT_EQ(codes, (std::vector<std::string>{"invalidAmount", "invalidTaxId", "invalidJson"}));
  EXPECT_EQ(sandbox().CountForTest("invoice"), before);
  Json many = {{"invoices", Json::array()}};
  for (int i = 0; i < 101; ++i) many["invoices"].push_back(Invoice(1, "x"));
  auto too_many = api().Post("/v2/invoice", many);
  EXPECT_EQ(too_many.status, 400);
  EXPECT_EQ(Code(too_many), "invalidJson");
  EXPECT_EQ(too_many.json["errors"].size(), 1u);
}

TEST_F(ApiTest, ListsPageWithCursorsAndFilters) {
  for (int i = 0; i < 5; ++i) CreateInvoice(100 + i, "paging-test");
  std::vector<std::string> seen;
  std::string path = "/v2/invoice?limit=2&tags=PAGING-TEST";
  for (int page = 0; page < 5; ++page) {
    auto r = api().Get(path);
    ASSERT_EQ(r.status, 200) << r.body;
    ASSERT_TRUE(r.json.contains("invoices"));
    for (const auto& inv : r.json["invoices"]) seen.push_back(inv["id"].get<std::string>());
    if (r.json["cursor"].is_null()) break;
    path = "/v2/invoice?limit=2&tags=paging-test&cursor=" + r.json["cursor"].get<std::string>();
  }
  EXPECT_EQ(seen.size(), 5u);
  auto fields = api().Get("/v2/invoice?limit=1&fields=id,amount&tags=paging-test");
  EXPECT_EQ(fields.json["invoices"][0].size(), 2u);
  auto ids = api().Get("/v2/invoice?ids=" + seen[0] + "%2C" + seen[1]);
  EXPECT_EQ(ids.json["invoices"].size(), 2u);
  auto none = api().Get("/v2/invoice?tags=nothing-has-this");
  EXPECT_EQ(none.json, Json({{"cursor", nullptr}, {"invoices", Json::array()}}));
  EXPECT_EQ(Code(api().Get("/v2/invoice?limit=101")), "invalidLimit");
  EXPECT_EQ(Code(api().Get("/v2/invoice?status=random")), "invalidStatus");
  EXPECT_EQ(Code(api().Get("/v2/invoice/log?types=random")), "invalidInvoiceLog");
}

TEST_F(ApiTest, ToleratesTheSdksPathAndQueryQuirks) {
  EXPECT_EQ(api().Get("/v2//public-key?limit=1").status, 200);
  EXPECT_EQ(api().Get("/v2/invoice/?&limit=1&").status, 200);
  EXPECT_EQ(api().Get("/v2/invoice?").status, 200);
  EXPECT_EQ(api().Get("/v2/event?isDelivered=False").status, 200);
  EXPECT_EQ(api().Get("/v2/invoice?status=paid,created").status, 200);
  EXPECT_EQ(api().Call("GET", "/v2/balance", "", {{"Access-Time", "1700000000.123456"}}).status, 400);
  auto frac = std::to_string(std::time(nullptr)) + ".7858255";
  EXPECT_EQ(api().Call("GET", "/v2/balance", "", {{"Access-Time", frac}}).status, 200);
}

TEST_F(ApiTest, AuthenticationFailuresHaveClearCodes) {
  EXPECT_EQ(Code(api().Call("GET", "/v2/balance", "", {{"Access-Signature", ""}})), "missingAccessSignature");
  EXPECT_EQ(Code(api().Call("GET", "/v2/balance", "", {{"Access-Id", "project/1"}})), "invalidProject");
  EXPECT_EQ(Code(api().Call("GET", "/v2/balance", "", {{"Access-Id", "user/1"}})), "invalidAccessId");
  EXPECT_EQ(Code(api().Call("GET", "/v2/balance", "", {{"Access-Time", "1000"}})), "invalidAccessTime");
  auto other = api::PrivateKey::Generate();
  EXPECT_EQ(Code(api().Call("GET", "/v2/balance", "", {{"Access-Signature", other.Sign("x")}})), "invalidCredentials");
  auto pt = api().Call("GET", "/v2/balance", "", {{"Access-Id", "project/1"}, {"Accept-Language", "pt-BR"}});
  EXPECT_NE(pt.json["errors"][0]["message"].get<std::string>().find("Projeto"), std::string::npos);
  // Workspaces: organization credentials only.
  EXPECT_EQ(Code(api().Post("/v2/workspace", {{"name", "X"}, {"username", "x-shop"}})), "invalidCredentials");
  const auto& c = sandbox().credentials();
  auto org_key = api::PrivateKey::FromFile(c.organization_private_key_path);
  ASSERT_OK(org_key);
  Client org(api().base, "organization/" + c.organization_id, *org_key);
  auto ws = org.Post("/v2/workspace", {{"name", "Second Shop"}, {"username", "second-shop"}});
  ASSERT_EQ(ws.status, 200) << ws.body;
  EXPECT_EQ(ws.json["workspace"]["status"], "active");
  EXPECT_EQ(Code(org.Get("/v2/invoice")), "invalidAccessId");
  Client in_ws(api().base,
               "organization/" + c.organization_id + "/workspace/" + ws.json["workspace"]["id"].get<std::string>(),
               *org_key);
  auto balance = in_ws.Get("/v2/balance");
  EXPECT_EQ(balance.json["balances"][0]["amount"], 0);
}

TEST_F(ApiTest, PixSaleFromDynamicBrcodeToDeposit) {
  const auto start = Balance();
  auto created = api().Post("/v2/dynamic-brcode", {{"brcodes", {{{"amount", 2590}, {"tags", {"sale-pix-1"}}}}}});
  ASSERT_EQ(created.status, 200) << created.body;
  Json brcode = created.json["brcodes"][0];
  const std::string uuid = brcode["uuid"].get<std::string>();
  EXPECT_EQ(uuid.size(), 32u);
  EXPECT_EQ(brcode["id"], api().Get("/v2/dynamic-brcode/" + uuid).json["brcode"]["id"]);
  auto paid = api().Sim("/sandbox/dynamic-brcode/pay", {{"brcode", brcode["id"]}, {"name", "Joao Silva"}});
  ASSERT_EQ(paid.status, 200) << paid.body;
  auto deposits = api().Get("/v2/deposit?tags=dynamic-brcode/" + uuid);
  ASSERT_EQ(deposits.json["deposits"].size(), 1u) << deposits.body;
  Json deposit = deposits.json["deposits"][0];
  EXPECT_EQ(deposit["amount"], 2590);
  EXPECT_EQ(deposit["name"], "Joao Silva");
  EXPECT_EQ(Balance(), start + 2590);
  auto logs = api().Get("/v2/deposit/log?depositIds=" + deposit["id"].get<std::string>());
  ASSERT_EQ(logs.json["logs"].size(), 2u);
  EXPECT_EQ(logs.json["logs"][0]["type"], "credited");
  EXPECT_EQ(logs.json["logs"][0]["deposit"]["id"], deposit["id"]);
  auto again = api().Sim("/sandbox/dynamic-brcode/pay", {{"uuid", uuid}});
  EXPECT_EQ(again.status, 400);
  // Partial then full reversal.
  const std::string path = "/v2/deposit/" + deposit["id"].get<std::string>();
  EXPECT_EQ(api().Patch(path, {{"amount", 590}}).json["deposit"]["amount"], 590);
  EXPECT_EQ(Balance(), start + 590);
  EXPECT_EQ(api().Patch(path, {{"amount", 0}}).json["deposit"]["status"], "void");
  EXPECT_EQ(Balance(), start);
  auto txs = api().Get("/v2/transaction?limit=3");
  EXPECT_EQ(txs.json["transactions"][0]["balance"], start);
  EXPECT_EQ(txs.json["transactions"][0]["source"], "deposit/" + deposit["id"].get<std::string>());
}

TEST_F(ApiTest, InvoicePaymentCancelAndReversal) {
  Json inv = CreateInvoice(10000, "pay-test");
  const std::string id = inv["id"].get<std::string>(), path = "/v2/invoice/" + id;
  const auto start = Balance();
  EXPECT_EQ(Code(api().Get(path + "/payment")), "invalidInvoice");
  auto paid = api().Sim("/sandbox/invoice/pay", {{"id", id}, {"taxId", "91642017000106"}});
  ASSERT_EQ(paid.status, 200) << paid.body;
  auto got = api().Get(path).json["invoice"];
  EXPECT_EQ(got["status"], "paid");
  EXPECT_EQ(got["transactionIds"].size(), 1u);
  EXPECT_EQ(Balance(), start + 10000);
  auto payment = api().Get(path + "/payment");
  EXPECT_EQ(payment.json["payment"]["taxId"], "91.642.017/0001-06");
  EXPECT_EQ(payment.json["payment"]["amount"], 10000);
  EXPECT_EQ(Code(api().Patch(path, {{"status", "canceled"}})), "invalidOperation");
  auto reversed = api().Patch(path, {{"amount", 4000}});
  ASSERT_EQ(reversed.status, 200) << reversed.body;
  EXPECT_EQ(Balance(), start + 4000);
  auto logs = api().Get("/v2/invoice/log?invoiceIds=" + id + "&types=reversed");
  ASSERT_EQ(logs.json["logs"].size(), 1u);
  auto pdf = api().Get("/v2/invoice/log/" + logs.json["logs"][0]["id"].get<std::string>() + "/pdf");
  EXPECT_EQ(pdf.content_type, "application/pdf");
  EXPECT_EQ(pdf.body.rfind("%PDF-", 0), 0u);

  Json other = CreateInvoice(500, "cancel-test");
  auto canceled = api().Patch("/v2/invoice/" + other["id"].get<std::string>(), {{"status", "canceled"}});
  EXPECT_EQ(canceled.json["invoice"]["status"], "canceled");
  EXPECT_EQ(Code(api().Sim("/sandbox/invoice/pay", {{"id", other["id"]}})), "invalidOperation");
  auto png = api().Get("/v2/invoice/" + other["id"].get<std::string>() + "/qrcode?size=3");
  EXPECT_EQ(png.body.substr(1, 3), "PNG");
}

TEST_F(ApiTest, ClockMakesInvoicesOverdueThenExpiredAndChargesFineAndInterest) {
  Json body = Invoice(10000, "clock-test");
  body["expiration"] = 10 * 86400;
  auto r = api().Post("/v2/invoice", {{"invoices", {body, body}}});
  ASSERT_EQ(r.status, 200);
  const std::string a = r.json["invoices"][0]["id"].get<std::string>(),
                    b = r.json["invoices"][1]["id"].get<std::string>();
  ASSERT_EQ(api().Sim("/sandbox/clock", {{"advance", 3 * 86400}}).status, 200);
  EXPECT_EQ(api().Get("/v2/invoice/" + a).json["invoice"]["status"], "overdue");
  auto paid = api().Sim("/sandbox/invoice/pay", {{"id", a}});
  ASSERT_EQ(paid.status, 200) << paid.body;
  EXPECT_EQ(paid.json["invoice"]["fineAmount"], 200);
  EXPECT_GT(paid.json["invoice"]["interestAmount"].get<int>(), 0);
  ASSERT_EQ(api().Sim("/sandbox/clock", {{"advance", 11 * 86400}}).status, 200);
  EXPECT_EQ(api().Get("/v2/invoice/" + b).json["invoice"]["status"], "expired");
  EXPECT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", b}}).status, 400);
}

TEST_F(ApiTest, FaultScriptsApplyToTheNextRequestsOfARoute) {
  ASSERT_EQ(api()
                .Sim("/sandbox/faults",
                     {{"POST /v2/invoice", {"http-500", "reset-before-processing", "commit-then-drop-response"}}})
                .status,
            200);
  const auto before = sandbox().CountForTest("invoice");
  api().fresh_connection = true;
  Json one = {{"invoices", {Invoice(100, "fault-test")}}};
  EXPECT_EQ(api().Post("/v2/invoice", one).status, 500);
  EXPECT_EQ(api().Post("/v2/invoice", one).status, 0);  // reset: no answer, nothing stored
  EXPECT_EQ(sandbox().CountForTest("invoice"), before);
  EXPECT_EQ(api().Post("/v2/invoice", one).status, 0);  // committed, answer dropped
  EXPECT_EQ(sandbox().CountForTest("invoice"), before + 1);
  EXPECT_EQ(api().Get("/v2/invoice?tags=fault-test").json["invoices"].size(), 1u);
  EXPECT_EQ(api().Post("/v2/invoice", one).status, 200);
  EXPECT_EQ(api().Sim("/sandbox/faults", {{"GET /v2/balance", {"nonsense"}}}).status, 400);
}

}  // namespace
}  // namespace balcao::sandbox::testing
