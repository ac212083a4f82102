// `balcao serve` end to end: the real executable on loopback, its JSON API driven the way the
// touchscreen drives it, against its embedded sandbox (whose simulation API plays the
// customer): Pix, card approved / declined then another method / 3-D Secure, invoice, refund,
// bad input, the webhook endpoint's signature check, and no card number at rest.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <thread>

#include "tests/terminal/serve_fixture.h"

namespace balcao::terminal::testing {
namespace {

constexpr const char* kApproved = "5277696455399733";   // an SDK test card: approved
constexpr const char* kDeclined = "4000000000009995";   // insufficient funds
constexpr const char* kChallenge = "5500000000000004";  // 3-D Secure challenge

Json Card(const std::string& number, int installments = 1) {
  return WithCardCustomer({{"number", number},
                           {"expiry", "12/34"},
                           {"security_code", "737"},
                           {"holder_name", "MARIA SOUZA"},
                           {"installments", installments}});
}

class Serve : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    serve_.Start(dir_ / "data", {"--printer", "file:" + (dir_ / "printer.bin").string()});
  }
  void TearDown() override {
    serve_.Stop();
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  Json Choose(const std::string& id, const Json& body) {
    Reply reply = serve_.Post("/api/sales/" + id + "/method", body);
    EXPECT_EQ(reply.status, 200) << reply.body;
    return reply.json;
  }

  std::filesystem::path dir_;
  ServeProcess serve_;
};

TEST_F(Serve, PixSalePaidByTheSimulatedPayer) {
  const Json sale = serve_.NewSale(2590);
  EXPECT_EQ(sale["status"], "choosing");
  const std::string id = sale["id"].get<std::string>();
  // Letters between the digit groups: never a card-like run for the scanners to refuse or mask.
  EXPECT_TRUE(std::regex_match(id, std::regex(R"(v\d{8}t\d{6}-[a-z0-9]+)"))) << id;
  const Json pix = Choose(id, {{"method", "pix"}});
  ASSERT_EQ(pix["status"], "pix") << pix.dump();
  EXPECT_TRUE(pix["has_qr"].get<bool>());
  EXPECT_GT(pix["deadline_ms"].get<long long>(), 0);
  const Reply qr = serve_.Get("/api/sales/" + id + "/qr.svg");
  EXPECT_EQ(qr.status, 200);
  EXPECT_EQ(qr.content_type, "image/svg+xml");
  EXPECT_EQ(qr.body.rfind("<svg", 0), 0u);

  ASSERT_EQ(serve_.Simulate("dynamic-brcode/pay", {{"uuid", BankId(pix, "brcode")}}).status, 200);
  const Json paid = serve_.WaitFor(id, "paid");
  EXPECT_EQ(paid["collected"], 2590);
  EXPECT_EQ(paid["method"], "pix");
  ASSERT_FALSE(paid["receipts"].empty());
  EXPECT_NE(paid["receipts"].back().get<std::string>().find("PIX RECEBIDO"), std::string::npos);
  // Today's list has it, with its total.
  const Reply day = serve_.Get("/api/sales");
  ASSERT_EQ(day.status, 200);
  EXPECT_EQ(day.json["sales"][0]["id"], id);
  EXPECT_EQ(day.json["totals"]["collected"], 2590);
}

TEST_F(Serve, CardApprovedInInstallments) {
  const std::string id = serve_.NewSale(12000)["id"].get<std::string>();
  ASSERT_EQ(Choose(id, {{"method", "card"}})["status"], "enter-card");
  const Reply paid = serve_.Post("/api/sales/" + id + "/card", Card(kApproved, 3));
  ASSERT_EQ(paid.status, 200) << paid.body;
  ASSERT_EQ(paid.json["status"], "paid") << paid.body;
  const std::string receipt = paid.json["receipts"].back().get<std::string>();
  EXPECT_NE(receipt.find("527769******9733"), std::string::npos) << receipt;
  EXPECT_NE(receipt.find("3x R$ 40,00"), std::string::npos) << receipt;
}

TEST_F(Serve, CardDeclinedThenAnotherMethod) {
  const std::string id = serve_.NewSale(4500)["id"].get<std::string>();
  Choose(id, {{"method", "card"}});
  const Reply declined = serve_.Post("/api/sales/" + id + "/card", Card(kDeclined));
  ASSERT_EQ(declined.status, 200) << declined.body;
  EXPECT_EQ(declined.json["status"], "declined");
  EXPECT_NE(declined.json["message"].get<std::string>().find("denied"), std::string::npos) << declined.body;
  EXPECT_TRUE(declined.json["can"]["fallback"].get<bool>());
  // Another method: Pix, paid.
  const Json pix = Choose(id, {{"method", "pix"}});
  ASSERT_EQ(pix["status"], "pix") << pix.dump();
  ASSERT_EQ(serve_.Simulate("dynamic-brcode/pay", {{"uuid", BankId(pix, "brcode")}}).status, 200);
  EXPECT_EQ(serve_.WaitFor(id, "paid")["collected"], 4500);
}

TEST_F(Serve, CardThroughA3DSecureChallenge) {
  const std::string id = serve_.NewSale(8000)["id"].get<std::string>();
  Choose(id, {{"method", "card"}});
  const Reply challenge = serve_.Post("/api/sales/" + id + "/card", Card(kChallenge));
  ASSERT_EQ(challenge.json["status"], "challenge") << challenge.body;
  const std::string link = challenge.json["link"].get<std::string>();
  EXPECT_NE(link.find("/sandbox/challenge/"), std::string::npos) << link;
  EXPECT_EQ(serve_.Get("/api/sales/" + id + "/qr.svg").status, 200);
  // The customer passes the challenge on their phone.
  const std::string purchase = link.substr(link.rfind('/') + 1);
  ASSERT_EQ(serve_.Simulate("challenge/pass", {{"id", purchase}}).status, 200);
  EXPECT_EQ(serve_.WaitFor(id, "paid")["collected"], 8000);
}

TEST_F(Serve, InvoicePaidAndAnotherKeptOpen) {
  const std::string id = serve_.NewSale(30000)["id"].get<std::string>();
  const Json invoice =
      Choose(id, {{"method", "invoice"}, {"customer", {{"name", "Joao Lima"}, {"tax_id", "337.451.076-08"}}}});
  ASSERT_EQ(invoice["status"], "invoice") << invoice.dump();
  EXPECT_FALSE(invoice["link"].get<std::string>().empty());
  EXPECT_EQ(serve_.Get("/api/sales/" + id + "/qr.svg").status, 200);
  ASSERT_EQ(serve_.Simulate("invoice/pay", {{"id", BankId(invoice, "invoice")}}).status, 200);
  EXPECT_EQ(serve_.WaitFor(id, "paid")["collected"], 30000);

  const std::string later = serve_.NewSale(5000)["id"].get<std::string>();
  Choose(later, {{"method", "invoice"}, {"customer", {{"name", "Ana Paula"}, {"tax_id", "33745107608"}}}});
  const Reply kept = serve_.Post("/api/sales/" + later + "/keep-open", Json::object());
  ASSERT_EQ(kept.status, 200) << kept.body;
  EXPECT_EQ(kept.json["status"], "pay-later");
}

TEST_F(Serve, RefundNeedsASupervisorAndAReason) {
  // A card authorization not yet confirmed is canceled in full.
  const std::string card = serve_.NewSale(2000)["id"].get<std::string>();
  Choose(card, {{"method", "card"}});
  ASSERT_EQ(serve_.Post("/api/sales/" + card + "/card", Card(kApproved)).json["status"], "paid");
  Reply refused = serve_.Post("/api/sales/" + card + "/refund", {{"reason", "cliente desistiu"}});
  EXPECT_EQ(refused.status, 403) << refused.body;  // the cashier alone may not give money back
  EXPECT_EQ(refused.json["error"]["field"], "approval");
  refused =
      serve_.Post("/api/sales/" + card + "/refund",
                  {{"reason", "cliente desistiu"}, {"approval", {{"supervisor", kSupervisor}, {"pin", "000000"}}}});
  EXPECT_EQ(refused.status, 403) << refused.body;
  refused =
      serve_.Post("/api/sales/" + card + "/refund",
                  {{"reason", "cliente desistiu"}, {"approval", {{"supervisor", kCashier}, {"pin", kCashierPin}}}});
  EXPECT_EQ(refused.status, 403) << refused.body;  // a cashier cannot approve
  EXPECT_NE(refused.json["error"]["rule"].get<std::string>().find("not a supervisor"), std::string::npos);
  refused = serve_.Post("/api/sales/" + card + "/refund", ServeProcess::Approved({}));
  EXPECT_EQ(refused.json["error"]["field"], "reason");
  refused =
      serve_.Post("/api/sales/" + card + "/refund", ServeProcess::Approved({{"reason", "troca"}, {"amount", 2001}}));
  EXPECT_EQ(refused.status, 409) << refused.body;
  // Cancelling a sale that collected money needs the approval too.
  refused = serve_.Post("/api/sales/" + card + "/cancel", {{"reason", "cliente desistiu"}});
  EXPECT_EQ(refused.status, 403) << refused.body;
  Reply full = serve_.Post("/api/sales/" + card + "/refund", ServeProcess::Approved({{"reason", "cliente desistiu"}}));
  ASSERT_EQ(full.status, 200) << full.body;
  EXPECT_EQ(full.json["status"], "refunded");
  EXPECT_EQ(full.json["collected"], 0);

  // A Pix payment: part of it, then the rest.
  const std::string pix = serve_.NewSale(3000)["id"].get<std::string>();
  const Json shown = Choose(pix, {{"method", "pix"}});
  ASSERT_EQ(serve_.Simulate("dynamic-brcode/pay", {{"uuid", BankId(shown, "brcode")}}).status, 200);
  serve_.WaitFor(pix, "paid");
  Reply partial =
      serve_.Post("/api/sales/" + pix + "/refund", ServeProcess::Approved({{"reason", "troca"}, {"amount", 500}}));
  ASSERT_EQ(partial.status, 200) << partial.body;
  EXPECT_EQ(partial.json["status"], "paid");
  EXPECT_EQ(partial.json["collected"], 2500);
  Reply rest = serve_.Post("/api/sales/" + pix + "/refund", ServeProcess::Approved({{"reason", "devolucao"}}));
  ASSERT_EQ(rest.status, 200) << rest.body;
  EXPECT_EQ(rest.json["status"], "refunded");
  EXPECT_EQ(rest.json["collected"], 0);
  EXPECT_NE(rest.json["receipts"].back().get<std::string>().find("ESTORNO"), std::string::npos)
      << rest.json["receipts"].back();
}

TEST_F(Serve, BadInputNamesTheFieldAndTheRule) {
  auto error_of = [](const Reply& r) {
    return r.json["error"]["field"].get<std::string>() + ": " + r.json["error"]["rule"].get<std::string>();
  };
  Reply r = serve_.Post("/api/sales", {{"amount", "12,50"}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(error_of(r), "amount: a whole number of cents from 1 to 100000000");
  EXPECT_EQ(serve_.Post("/api/sales", {{"amount", 0}}).status, 400);
  EXPECT_EQ(serve_.Call("POST", "/api/sales", "{not json").json["error"]["field"], "body");
  const std::string id = serve_.NewSale(1000)["id"].get<std::string>();
  r = serve_.Post("/api/sales/" + id + "/method", {{"method", "cash"}});
  EXPECT_EQ(error_of(r), "method: card, pix or invoice");
  r = serve_.Post("/api/sales/" + id + "/method", {{"method", "invoice"}});
  EXPECT_EQ(r.json["error"]["field"], "customer");
  r = serve_.Post("/api/sales/" + id + "/method",
                  {{"method", "invoice"}, {"customer", {{"name", "Joao Lima"}, {"tax_id", "111.111.111-12"}}}});
  EXPECT_EQ(error_of(r), "customer.tax_id: a valid CPF or CNPJ");
  Choose(id, {{"method", "card"}});
  Json card = Card("4242424242424241");
  EXPECT_EQ(error_of(serve_.Post("/api/sales/" + id + "/card", card)),
            "number: 13 to 19 digits passing the Luhn check");
  card = Card(kApproved);
  card["expiry"] = "13/30";
  EXPECT_EQ(error_of(serve_.Post("/api/sales/" + id + "/card", card)), "expiry: MM/AA");
  card["expiry"] = "01/20";
  EXPECT_EQ(error_of(serve_.Post("/api/sales/" + id + "/card", card)), "expiry: MM/AA, not in the past");
  card = Card(kApproved);
  card["security_code"] = "12";
  EXPECT_EQ(error_of(serve_.Post("/api/sales/" + id + "/card", card)), "security_code: 3 or 4 digits");
  card = Card(kApproved, 99);
  EXPECT_EQ(error_of(serve_.Post("/api/sales/" + id + "/card", card)), "installments: 1 to 12");
  // The sale is still waiting for a card; nothing was half-done.
  EXPECT_EQ(serve_.Get("/api/sales/" + id).json["status"], "enter-card");
  EXPECT_EQ(serve_.Get("/api/sales/nope-not-here").status, 404);
  EXPECT_EQ(serve_.Get("/api/sales/BAD_ID").status, 400);
  EXPECT_EQ(serve_.Get("/api/sales?day=21/11/2026").json["error"]["field"], "day");
  // A state the machine refuses is 409 with its reason.
  EXPECT_EQ(serve_.Post("/api/sales/" + id + "/keep-open", Json::object()).status, 409);
}

TEST_F(Serve, CardNumbersNeverReachTheDataDirTheLogOrTheReceipts) {
  std::vector<std::string> ids;
  for (const char* number : {kApproved, kDeclined, kChallenge}) {
    const std::string id = serve_.NewSale(3100)["id"].get<std::string>();
    ids.push_back(id);
    Choose(id, {{"method", "card"}});
    const Reply reply = serve_.Post("/api/sales/" + id + "/card", Card(number));
    ASSERT_EQ(reply.status, 200) << reply.body;
    if (reply.json["status"] == "challenge") {
      const std::string link = reply.json["link"].get<std::string>();
      serve_.Simulate("challenge/pass", {{"id", link.substr(link.rfind('/') + 1)}});
      serve_.WaitFor(id, "paid");
    }
  }
  // The spooler prints within a pass or two; then everything is flushed by a clean stop.
  for (int i = 0; i < 100 && FilesContaining(dir_ / "printer.bin", "527769******9733").empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  serve_.Stop();
  const std::string log = [&] {
    std::ifstream in(dir_ / "data" / "balcao.log");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  EXPECT_NE(log.find("to=Paid"), std::string::npos) << "the log must be there to be checked";
  for (const std::string& id : ids) EXPECT_NE(log.find("sale=" + id + " "), std::string::npos) << id << " masked?";
  for (const std::string number : {kApproved, kDeclined, kChallenge}) {
    EXPECT_EQ(FilesContaining(dir_, number), std::vector<std::string>{}) << number;
    const std::string spaced =
        number.substr(0, 4) + " " + number.substr(4, 4) + " " + number.substr(8, 4) + " " + number.substr(12);
    EXPECT_EQ(FilesContaining(dir_, spaced), std::vector<std::string>{}) << spaced;
  }
  // The printed receipts carry the masked number.
  EXPECT_FALSE(FilesContaining(dir_ / "printer.bin", "527769******9733").empty());
  serve_.Start(dir_ / "data", {"--printer", "file:" + (dir_ / "printer.bin").string()});  // for TearDown
}

}  // namespace
}  // namespace balcao::terminal::testing
