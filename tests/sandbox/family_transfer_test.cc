// Transfers over real HTTP: validation, lifecycle on the sandbox clock with logs and the
// ledger, DELETE before / after processing, duplicates (externalId and the default
// same-account/amount/day rule), wire cut-off at 16:00 BRT, failure with refund, receipt.
#include <algorithm>
#include <set>

#include "tests/sandbox/family_harness.h"

namespace balcao::sandbox::family_testing {
namespace {

class TransferTest : public FamilyHarness {
 protected:
  static Json Transfer(std::int64_t amount, const std::string& bank = "20018183") {
    return {{"amount", amount},           {"bankCode", bank},   {"branchCode", "0001"},
            {"accountNumber", "10000-0"}, {"name", "Jon Snow"}, {"taxId", "012.345.678-90"}};
  }
  Json Create(const Json& t) { return Ok("POST", "/transfer", {{"transfers", {t}}})["transfers"][0]; }
  Json Get(const std::string& id) { return Ok("GET", "/transfer/" + id)["transfer"]; }
  std::vector<std::string> LogTypes(const std::string& id) {
    std::vector<std::string> out;
    for (Json all = Ok("GET", "/transfer/log?transferIds=" + id); const auto& l : all["logs"])
      out.push_back(l["type"].get<std::string>());
    return out;
  }
};

TEST_F(TransferTest, LifecycleDebitsTheLedger) {
  Fund(100'000);
  Json t = Create(Transfer(12'345));
  const std::string id = t["id"].get<std::string>();
  EXPECT_EQ(t["status"], "created");
  EXPECT_EQ(t["taxId"], "012.345.678-90");
  EXPECT_EQ(t["accountType"], "checking");
  Advance(1);
  Json processing = Get(id);
  EXPECT_EQ(processing["status"], "processing");
  EXPECT_EQ(Balance(), 100'000 - 12'345);
  ASSERT_EQ(processing["transactionIds"].size(), 1u);
  Json tx = Ok("GET", "/transaction/" + processing["transactionIds"][0].get<std::string>())["transaction"];
  EXPECT_EQ(tx["amount"], -12'345);
  EXPECT_EQ(tx["source"], "transfer/" + id);
  EXPECT_EQ(Api("DELETE", "/transfer/" + id).code(), "invalidAction");
  Advance(10);
  EXPECT_EQ(Get(id)["status"], "success");
  EXPECT_EQ(LogTypes(id), (std::vector<std::string>{"success", "processing", "created"}));
  ExpectReceipt("/transfer/" + id + "/pdf", {"Transfer receipt", "Jon Snow", "R$ 123,45"});
}

TEST_F(TransferTest, DeleteBeforeProcessingCancels) {
  Fund(10'000);
  Json scheduled = Transfer(500);
  scheduled["scheduled"] = "2099-01-02";
  Json t = Create(scheduled);
  const std::string id = t["id"].get<std::string>();
  Json canceled = Ok("DELETE", "/transfer/" + id)["transfer"];
  EXPECT_EQ(canceled["status"], "canceled");
  EXPECT_EQ(Api("DELETE", "/transfer/" + id).code(), "invalidAction");
  EXPECT_EQ(Api("GET", "/transfer/" + id + "/pdf").code(), "invalidTransfer");
  EXPECT_EQ(Balance(), 10'000);
  // Canceled transfers still appear in queries.
  EXPECT_EQ(Ok("GET", "/transfer?status=canceled")["transfers"].size(), 1u);
}

TEST_F(TransferTest, InsufficientBalanceFailsWithoutDebit) {
  Json t = Create(Transfer(700));
  Advance(1);
  Json failed = Get(t["id"].get<std::string>());
  EXPECT_EQ(failed["status"], "failed");
  EXPECT_EQ(failed["transactionIds"].size(), 0u);
  Json log = Ok("GET", "/transfer/log?types=failed")["logs"][0];
  EXPECT_EQ(log["errors"][0]["code"], "insufficientBalance");
  EXPECT_EQ(Balance(), 0);
}

TEST_F(TransferTest, ReceiverRejectionRefunds) {
  Fund(5'000);
  Json t = Create(Transfer(1'000));
  Advance(1);
  EXPECT_EQ(Balance(), 4'000);
  Json failed = SimOk("payment/fail", {{"resource", "transfer"}, {"id", t["id"]}})["transfer"];
  EXPECT_EQ(failed["status"], "failed");
  EXPECT_EQ(failed["transactionIds"].size(), 2u);
  EXPECT_EQ(Balance(), 5'000);
  Advance(30);
  EXPECT_EQ(Get(t["id"].get<std::string>())["status"], "failed");
}

TEST_F(TransferTest, DuplicatesAreRefused) {
  Fund(100'000);
  Json with_id = Transfer(100);
  with_id["externalId"] = "order-1";
  Create(with_id);
  Reply again = Api("POST", "/transfer", {{"transfers", {with_id}}});
  EXPECT_EQ(again.status, 400);
  EXPECT_EQ(again.code(), "invalidExternalId");
  Create(Transfer(200));
  EXPECT_EQ(Api("POST", "/transfer", {{"transfers", {Transfer(200)}}}).code(), "invalidExternalId");
  Json other_id = Transfer(200);
  other_id["externalId"] = "order-2";
  Create(other_id);  // an externalId lifts the default rule
  // A batch with a duplicate inside writes nothing.
  Json a = Transfer(300), b = Transfer(300);
  EXPECT_EQ(Api("POST", "/transfer", {{"transfers", {a, b}}}).code(), "invalidExternalId");
  EXPECT_EQ(Ok("GET", "/transfer")["transfers"].size(), 3u);
}

TEST_F(TransferTest, ValidationNamesEveryField) {
  Json bad = {{"amount", 0},   {"bankCode", "1234"},        {"branchCode", "00a1"},  {"accountNumber", "x"},
              {"name", "Jon"}, {"taxId", "000.000.000-00"}, {"accountType", "gold"}, {"scheduled", "2001-01-01"},
              {"color", "red"}};
  Reply r = Api("POST", "/transfer", {{"transfers", {bad}}});
  ASSERT_EQ(r.status, 400);
  std::set<std::string> codes;
  for (Json all = r.json(); const auto& e : all["errors"]) codes.insert(e["code"].get<std::string>());
  EXPECT_EQ(codes,
            (std::set<std::string>{"invalidAmount", "invalidBankCode", "invalidBranchCode", "invalidAccountNumber",
                                   "invalidTaxId", "invalidAccountType", "invalidDate", "invalidJson"}));
  Json too_many = Json::array();
  for (int i = 0; i < 101; ++i) too_many.push_back(Transfer(i + 1));
  EXPECT_EQ(Api("POST", "/transfer", {{"transfers", too_many}}).code(), "invalidJson");
}

TEST_F(TransferTest, WireAfterCutOffMovesToNextBusinessDay) {
  SetClock("2030-01-07T19:30:00+00:00");  // Monday 16:30 BRT
  Fund(100'000);
  Json wire = Create(Transfer(1'000, "341"));
  EXPECT_EQ(wire["scheduled"], "2030-01-08T12:00:00.000000+00:00");  // Tuesday 09:00 BRT
  Json pix = Create(Transfer(1'001));
  EXPECT_EQ(pix["scheduled"].get<std::string>().substr(0, 16), "2030-01-07T19:30");
  SetClock("2030-01-11T20:00:00+00:00");  // Friday 17:00 BRT
  Json friday = Create(Transfer(1'002, "341"));
  EXPECT_EQ(friday["scheduled"], "2030-01-14T12:00:00.000000+00:00");  // Monday
  EXPECT_EQ(Get(wire["id"].get<std::string>())["status"], "success");
  EXPECT_EQ(Get(friday["id"].get<std::string>())["status"], "created");
}

TEST_F(TransferTest, LogsBecomeSignedWebhookEvents) {
  Ok("POST", "/webhook", {{"url", "http://127.0.0.1:1/hook"}, {"subscriptions", {"transfer"}}});
  Fund(10'000);
  Json t = Create(Transfer(321));
  Advance(11);
  std::vector<std::string> types;
  for (Json all = SimGet("webhook-deliveries"); const auto& d : all["deliveries"]) {
    Json body = Json::parse(d["body"].get<std::string>());
    EXPECT_EQ(body["event"]["subscription"], "transfer");
    EXPECT_EQ(body["event"]["log"]["transfer"]["id"], t["id"]);
    types.push_back(body["event"]["log"]["type"].get<std::string>());
  }
  std::sort(types.begin(), types.end());
  EXPECT_EQ(types, (std::vector<std::string>{"created", "processing", "success"}));
}

TEST_F(TransferTest, FiltersAndSort) {
  Fund(100'000);
  Json tagged = Transfer(111);
  tagged["tags"] = {"Payroll"};
  Create(tagged);
  Create(Transfer(222));
  EXPECT_EQ(Ok("GET", "/transfer?tags=payroll")["transfers"].size(), 1u);
  EXPECT_EQ(Ok("GET", "/transfer?taxId=01234567890")["transfers"].size(), 2u);
  Json asc = Ok("GET", "/transfer?sort=created")["transfers"];
  EXPECT_EQ(asc[0]["amount"], 111);
  EXPECT_EQ(Api("GET", "/transfer?status=flying").status, 400);
}

}  // namespace
}  // namespace balcao::sandbox::family_testing
