// Card sales while the bank is unreachable, end to end (`offline_cards` on): the real `balcao
// serve` pointed at a closed port takes a card below the per-sale cap as a provisional sale
// (its provisional receipt printed, the card sealed: its number nowhere in the data dir) and
// refuses one above the cap naming the limit; started again with the bank back (an in-test
// sandbox), it forwards the sealed cards once: the approved one pays its sale (sale receipt),
// the declined one voids its sale with the operator flagged and a decline notice printed; no
// sealed card remains, and a further restart sends nothing more. The supervisor's queue lists
// the sealed cards with their age and the money at risk, and drops one (its sale voided).
// A forwarded card settles (docs/offline.md): it reaches the bank with its lane's and sale's
// tags, the customer's device data and the store's challenge mode captured when it was sealed,
// and the lane's night matches it like any card sale (exit 0).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

#include "common/time.h"
#include "sandbox/sandbox.h"
#include "tests/terminal/serve_fixture.h"
#include "tests/testing/eventually.h"
#include "tests/testing/loopback.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/test_bank.h"

namespace balcao::terminal::testing {
namespace {

using test_util::Eventually;

constexpr const char* kApproved = "5277696455399733";
constexpr const char* kDeclined = "4000000000009995";  // insufficient funds

Json Card(const std::string& number) {
  return {{"number", number}, {"expiry", "12/34"}, {"security_code", "737"}, {"holder_name", "MARIA SOUZA"}};
}

long long SealedRows(const std::filesystem::path& db) {
  sqlite3* handle = nullptr;
  long long rows = -1;
  if (sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(handle, "SELECT count(*) FROM sealed_cards", -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
      rows = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
  }
  sqlite3_close(handle);
  return rows;
}

TEST(ServeOfflineCards, ProvisionalBelowTheCapRefusedAboveThenForwardedOnceWhenTheBankIsBack) {
  const auto dir = FreshDir("offline-cards");
  auto bank = test_util::StartTestBank(dir / "bank");
  ASSERT_OK(bank);
  const std::string credentials = (*bank)->credentials().credentials_path;
  const std::string config = (dir / "config.json").string();
  std::ofstream(config) << Json{{"connectivity", test_util::FastConnectivity()},
                                {"offline_cards", {{"enabled", true}, {"per_sale_cap_cents", 20000}}}}
                               .dump();
  const std::vector<std::string> args = {"--config", config, "--printer", "file:" + (dir / "printer.bin").string()};

  const test_util::RefusingLoopbackPort unreachable_bank;
  ServeProcess serve;
  serve.Start(dir / "data", args,
              {{"BALCAO_CREDENTIALS", credentials}, {"BALCAO_BANK_URL", unreachable_bank.Url("/v2")}});
  Json status;
  ASSERT_TRUE(Eventually([&] {
    status = serve.Get("/api/status").json;
    return !status["online"].get<bool>();
  })) << status.dump();
  EXPECT_TRUE(status["offline_cards"].get<bool>());

  // Below the cap: provisional, with its provisional receipt.
  const std::string approved = serve.NewSale(15000)["id"].get<std::string>();
  const Reply held = serve.Post("/api/sales/" + approved + "/card", WithCardCustomer(Card(kApproved)));
  ASSERT_EQ(held.status, 200) << held.body;
  EXPECT_EQ(held.json["status"], "provisional") << held.body;
  ASSERT_FALSE(held.json["receipts"].empty());
  const std::string provisional = held.json["receipts"].back().get<std::string>();
  EXPECT_NE(provisional.find("COMPROVANTE PROVISÓRIO"), std::string::npos) << provisional;
  EXPECT_NE(provisional.find("527769******9733"), std::string::npos) << provisional;
  EXPECT_NE(provisional.find("MASTERCARD"), std::string::npos) << provisional;
  const std::string declined = serve.NewSale(4500)["id"].get<std::string>();
  ASSERT_EQ(serve.Post("/api/sales/" + declined + "/card", WithCardCustomer(Card(kDeclined))).json["status"],
            "provisional");

  // Above the cap: refused with the limit in force; the sale may still take another method.
  const std::string big = serve.NewSale(25000)["id"].get<std::string>();
  const Reply refused = serve.Post("/api/sales/" + big + "/card", WithCardCustomer(Card(kApproved)));
  EXPECT_EQ(refused.status, 409) << refused.body;
  EXPECT_EQ(refused.json["error"]["field"], "offline_cards");
  EXPECT_NE(refused.json["error"]["rule"].get<std::string>().find("over the offline card limit per sale (20000 cents)"),
            std::string::npos)
      << refused.body;
  EXPECT_EQ(serve.Get("/api/sales/" + big).json["status"], "choosing");

  // The queue screen is the supervisor's: the sealed cards, their age, the money at risk; one
  // dropped (the customer paid cash after all) is declined locally and its sale voided.
  const std::string dropped = serve.NewSale(3000)["id"].get<std::string>();
  ASSERT_EQ(serve.Post("/api/sales/" + dropped + "/card", WithCardCustomer(Card(kApproved))).json["status"],
            "provisional");
  EXPECT_EQ(serve.Get("/api/queue").status, 403);
  ASSERT_EQ(serve.LogIn(kSupervisor, kSupervisorPin).status, 200);
  const Reply queue = serve.Get("/api/queue");
  ASSERT_EQ(queue.status, 200) << queue.body;
  EXPECT_EQ(queue.json["amount_at_risk"], 15000 + 4500 + 3000) << queue.body;
  ASSERT_EQ(queue.json["items"].size(), 3u) << queue.body;
  for (const Json& item : queue.json["items"]) {
    EXPECT_EQ(item["kind"], "card");
    EXPECT_EQ(item["state"], "sealed");
    EXPECT_GE(item["age_ms"].get<long long>(), 0);
  }
  EXPECT_EQ(serve.Post("/api/queue/card/" + dropped + "/drop", Json::object()).json["error"]["field"], "reason");
  const Reply drop = serve.Post("/api/queue/card/" + dropped + "/drop", {{"reason", "cliente pagou em dinheiro"}});
  ASSERT_EQ(drop.status, 200) << drop.body;
  const Json dropped_view = serve.WaitFor(dropped, "voided");
  EXPECT_NE(dropped_view["message"].get<std::string>().find("dropped by " + std::string(kSupervisor)),
            std::string::npos)
      << dropped_view.dump();
  EXPECT_EQ(serve.Get("/api/queue").json["items"].size(), 2u);
  ASSERT_EQ(serve.LogIn(kCashier, kCashierPin).status, 200);

  EXPECT_EQ((*bank)->CountForTest("merchant-purchase"), 0);
  serve.Stop();
  EXPECT_EQ(SealedRows(dir / "data" / "balcao.db"), 2);
  for (const char* number : {kApproved, kDeclined})
    EXPECT_EQ(FilesContaining(dir / "data", number), std::vector<std::string>{});

  // The bank is back: each sealed card reaches it once and its sale learns the outcome.
  serve.Start(dir / "data", args, {{"BALCAO_CREDENTIALS", credentials}});
  const Json paid = serve.WaitFor(approved, "paid");
  EXPECT_EQ(paid["collected"], 15000) << paid.dump();
  const std::string receipt = paid["receipts"].empty() ? "" : paid["receipts"].back().get<std::string>();
  EXPECT_NE(receipt.find("VIA DO CLIENTE"), std::string::npos) << receipt;
  const Json voided = serve.WaitFor(declined, "voided");
  EXPECT_NE(voided["message"].get<std::string>().find("declined after the customer left"), std::string::npos)
      << voided.dump();
  ASSERT_FALSE(voided["flags"].empty()) << voided.dump();
  ASSERT_FALSE(voided["receipts"].empty()) << voided.dump();
  EXPECT_NE(voided["receipts"].back().get<std::string>().find("VENDA NÃO AUTORIZADA"), std::string::npos)
      << voided["receipts"].back();
  EXPECT_EQ((*bank)->CountForTest("merchant-purchase"), 2);
  serve.Stop();
  EXPECT_EQ(SealedRows(dir / "data" / "balcao.db"), 0) << "no card data remains";

  serve.Start(dir / "data", args, {{"BALCAO_CREDENTIALS", credentials}});
  ASSERT_TRUE(Eventually([&] { return serve.Get("/api/status").json["online"].get<bool>(); }));
  std::this_thread::sleep_for(std::chrono::seconds(3));  // a forwarding round or more
  EXPECT_EQ((*bank)->CountForTest("merchant-purchase"), 2) << "forwarded exactly once";
  EXPECT_EQ(serve.Get("/api/sales/" + approved).json["status"], "paid");
  serve.Stop();
  (*bank)->Stop();
}

TEST(ServeOfflineCards, AForwardedCardCarriesItsLaneAndCustomerAndTheLanesNightMatchesIt) {
  const auto dir = FreshDir("offline-cards-settle");
  auto bank = test_util::StartTestBank(dir / "bank");
  ASSERT_OK(bank);
  const std::string credentials = (*bank)->credentials().credentials_path;
  const std::string config = (dir / "config.json").string();
  // The store asks for the 3-D Secure challenge (the default): the forward asks for it too.
  std::ofstream(config) << Json{
      {"store_id", "loja-f"},
      {"terminal_id", "caixa-2"},
      {"connectivity", test_util::FastConnectivity()},
      {"offline_cards",
       {{"enabled", true}}}}.dump();
  const test_util::RefusingLoopbackPort unreachable_bank;
  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config},
              {{"BALCAO_CREDENTIALS", credentials}, {"BALCAO_BANK_URL", unreachable_bank.Url("/v2")}});
  ASSERT_TRUE(Eventually([&] { return !serve.Get("/api/status").json["online"].get<bool>(); }));
  const std::string id = serve.NewSale(4200)["id"].get<std::string>();
  const Reply held = serve.Post("/api/sales/" + id + "/card", WithCardCustomer(Card(kApproved)));
  ASSERT_EQ(held.json["status"], "provisional") << held.body;
  serve.Stop();
  EXPECT_EQ(FilesContaining(dir / "data", kApproved), std::vector<std::string>{});

  serve.Start(dir / "data", {"--config", config}, {{"BALCAO_CREDENTIALS", credentials}});
  EXPECT_EQ(serve.WaitFor(id, "paid")["collected"], 4200);
  serve.Stop();

  // At the bank: the lane's and the sale's tags, the store's challenge mode, the device data.
  const ShellRun listed = RunShell("BALCAO_CREDENTIALS='" + credentials + "' '" + BALCAO_CLI +
                                   "' api list merchant-purchase --tags saf-" + id);
  ASSERT_EQ(listed.code, 0) << listed.out;
  const Json page = Json::parse(listed.out, nullptr, false);
  ASSERT_TRUE(page.contains("purchases") && page["purchases"].size() == 1) << listed.out;
  const Json& purchase = page["purchases"][0];
  const Json tags = purchase["tags"];
  for (const std::string& tag :
       std::vector<std::string>{"store/loja-f", "store/loja-f/lane/caixa-2", "store/loja-f/lane/caixa-2/sale/" + id})
    EXPECT_NE(std::find(tags.begin(), tags.end(), tag), tags.end()) << tag << " in " << tags.dump();
  EXPECT_EQ(purchase["metadata"].value("userAgent", ""), kTestUserAgent) << purchase.dump();
  EXPECT_EQ(purchase.value("holderEmail", ""), WithCardCustomer(Card(kApproved))["holder_email"]) << purchase.dump();
  EXPECT_EQ(purchase.value("challengeMode", ""), "enabled") << purchase.dump();

  // The lane's night: the card purchase captured and credited at the bank, then matched.
  ASSERT_EQ(Http("POST", "http://127.0.0.1:" + std::to_string((*bank)->port()) + "/sandbox/clock",
                 Json{{"advance", 31}}.dump())
                .status,
            200);
  const std::string day = FormatDate(std::chrono::duration_cast<std::chrono::microseconds>(
                                         std::chrono::system_clock::now().time_since_epoch() - std::chrono::hours(3))
                                         .count());
  const ShellRun night = RunShell("BALCAO_CREDENTIALS='" + credentials + "' '" + BALCAO_CLI + "' settle --json --db '" +
                                  (dir / "data" / "balcao.db").string() + "' --config '" + config + "' --day " + day);
  EXPECT_EQ(night.code, 0) << night.out;
  const Json report = Json::parse(night.out, nullptr, false);
  ASSERT_TRUE(report.is_object()) << night.out;
  ASSERT_EQ(report["sales"].size(), 1u) << night.out;
  EXPECT_EQ(report["sales"][0]["id"], id);
  EXPECT_EQ(report["sales"][0]["class"], "matched") << night.out;
  EXPECT_EQ(report["orphans"].size(), 0u) << night.out;
}

}  // namespace
}  // namespace balcao::terminal::testing
