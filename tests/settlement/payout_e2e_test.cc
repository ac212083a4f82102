// The night's payout and card receivables end to end, against the in-process sandbox: a day
// that reconciles sends its net to the merchant's account once (a second run reads the record;
// a run that died between the transfer and its record, and one whose transfer answer was lost,
// find the transfer by its externalId and send none); a day that does not reconcile sends
// none; a dry run only shows it; the report lists what the day's card sales will pay and when;
// the end-of-day summary prints the payout and the receivables.
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "printer/interpreter.h"
#include "printer/profile.h"
#include "printer/render.h"
#include "settlement/payout.h"
#include "settlement/report.h"
#include "tests/settlement/settle_fixture.h"

namespace balcao::settlement::e2e {
namespace {

class PayoutE2E : public SettleE2E {
 protected:
  PayoutSettings PayoutConfig() const {
    PayoutSettings p;
    p.enabled = true;
    p.store = "loja-centro";
    p.account = {"Padaria Balcao Ltda", "11.222.333/0001-81", "341", "1234", "56789-0", "checking"};
    return p;
  }
  SettleOptions Options(bool dry_run = false) const {
    SettleOptions options{Today(), dry_run};
    options.payout = PayoutConfig();
    return options;
  }
  // The transfers at the bank for the day's externalId.
  json Transfers() {
    const auto listed = api().Get("/v2/transfer?tags=" + PayoutExternalId("loja-centro", Today()));
    EXPECT_EQ(listed.status, 200) << listed.body;
    return listed.json.value("transfers", json::array());
  }
  // A card sale (1000) and a pay-later invoice paid at the bank (4000): a day that reconciles.
  void ADayThatReconciles() {
    using namespace checkout;
    const std::string card = NewSaleId(), later = NewSaleId();
    EXPECT_EQ(StateOf(Paid(card, {.method = Method::kCard, .amount = 1000})), "Paid");
    const std::string invoice_id = PayLater(later, 4000);
    ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", invoice_id}}).status, 200);
    AdvanceSandbox(31);  // the card purchase is captured and credited
  }
};

TEST_F(PayoutE2E, TheDaysNetIsSentOnceAndASecondRunSendsNothing) {
  ADayThatReconciles();
  auto dry = settlement::Settle(*store_, Bank(), clock_, Options(/*dry_run=*/true));
  ASSERT_TRUE(dry.ok()) << dry.status().ToString();
  EXPECT_EQ(json::parse(dry->json)["payout"]["status"], "dry-run") << dry->text;
  EXPECT_EQ(json::parse(dry->json)["payout"]["amount"], 5000);
  EXPECT_EQ(Transfers().size(), 0u);

  auto settled = settlement::Settle(*store_, Bank(), clock_, Options());
  ASSERT_TRUE(settled.ok()) << settled.status().ToString();
  ASSERT_TRUE(settled->reconciled) << settled->text;
  const json payout = json::parse(settled->json)["payout"];
  EXPECT_EQ(payout["status"], "sent") << settled->text;
  EXPECT_EQ(payout["amount"], 5000);
  EXPECT_EQ(payout["external_id"], "balcao-payout-loja-centro-" + Today());
  const json transfers = Transfers();
  ASSERT_EQ(transfers.size(), 1u);
  EXPECT_EQ(transfers[0]["amount"], 5000);
  EXPECT_EQ(transfers[0]["externalId"], payout["external_id"]);
  EXPECT_EQ(transfers[0]["accountNumber"], "56789-0");
  EXPECT_EQ(transfers[0]["id"], payout["transfer_id"]);
  EXPECT_NE(settled->text.find("Payout (balcao-payout-loja-centro-" + Today() + "): sent R$ 50,00"), std::string::npos)
      << settled->text;

  auto again = settlement::Settle(*store_, Bank(), clock_, Options());
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->already_settled);
  EXPECT_EQ(json::parse(again->json)["payout"]["transfer_id"], payout["transfer_id"]);
  EXPECT_EQ(Transfers().size(), 1u);

  // The end-of-day summary prints the payout.
  printer::DaySummary summary = *DaySummaryFromJson(again->json, {"PADARIA"}, Now());
  AddMoneyOutToSummary(again->json, summary);
  const auto pages =
      printer::Interpret(*printer::RenderEscPos(printer::DaySummaryReceipt(summary), *printer::FindProfile("80mm")));
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_NE(pages[0].Text().find("Repasse à conta"), std::string::npos) << pages[0].Text();
  EXPECT_NE(pages[0].Text().find("R$ 50,00"), std::string::npos) << pages[0].Text();
}

TEST_F(PayoutE2E, ARunThatDiedAfterTheTransferAndBeforeItsRecordSendsNoSecond) {
  ADayThatReconciles();
  SettleOptions dying = Options();
  dying.before_record = [](const Settlement&) { return Status(StatusCode::kAborted, "killed before the record"); };
  auto died = settlement::Settle(*store_, Bank(), clock_, dying);
  ASSERT_FALSE(died.ok());
  ASSERT_TRUE(ListSettlements(*store_)->empty()) << "no record";
  ASSERT_EQ(Transfers().size(), 1u) << "the first run's transfer reached the bank";
  const std::string first = Transfers()[0]["id"].get<std::string>();

  auto again = settlement::Settle(*store_, Bank(), clock_, Options());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_FALSE(again->already_settled);
  const json payout = json::parse(again->json)["payout"];
  EXPECT_EQ(payout["status"], "found") << again->text;
  EXPECT_EQ(payout["transfer_id"], first);
  EXPECT_EQ(payout["amount"], 5000);
  EXPECT_EQ(Transfers().size(), 1u);
}

TEST_F(PayoutE2E, ALostTransferAnswerIsLookedUpNotResent) {
  ADayThatReconciles();
  Fault("POST /v2/transfer", "commit-then-drop-response");
  auto settled = settlement::Settle(*store_, Bank(), clock_, Options());
  ASSERT_TRUE(settled.ok()) << settled.status().ToString();
  const json payout = json::parse(settled->json)["payout"];
  EXPECT_EQ(payout["status"], "sent") << settled->text;
  EXPECT_FALSE(payout["transfer_id"].get<std::string>().empty());
  EXPECT_EQ(payout["reason"], "the bank's answer was lost; the transfer was found by its externalId");
  EXPECT_EQ(Transfers().size(), 1u);
}

TEST_F(PayoutE2E, ADayThatDoesNotReconcileSendsNone) {
  ADayThatReconciles();
  // An invoice tagged for a sale this box never rang up: the day needs the operator.
  const auto ghost = api().Post(
      "/v2/invoice",
      {{"invoices",
        {{{"amount", 777}, {"name", "Ghost Buyer"}, {"taxId", "337.451.076-08"}, {"tags", {"sale/ghost-2"}}}}}});
  ASSERT_EQ(ghost.status, 200) << ghost.body;
  auto settled = settlement::Settle(*store_, Bank(), clock_, Options());
  ASSERT_TRUE(settled.ok()) << settled.status().ToString();
  EXPECT_FALSE(settled->reconciled);
  const json payout = json::parse(settled->json)["payout"];
  EXPECT_EQ(payout["status"], "withheld") << settled->text;
  EXPECT_EQ(payout["amount"], 0);
  EXPECT_EQ(Transfers().size(), 0u);
  printer::DaySummary summary = *DaySummaryFromJson(settled->json, {"PADARIA"}, Now());
  AddMoneyOutToSummary(settled->json, summary);
  const auto pages =
      printer::Interpret(*printer::RenderEscPos(printer::DaySummaryReceipt(summary), *printer::FindProfile("80mm")));
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_NE(pages[0].Text().find("RETIDO"), std::string::npos) << pages[0].Text();
}

TEST_F(PayoutE2E, TheReportShowsWhatTheDaysCardSalesWillPayAndWhen) {
  using namespace checkout;
  const std::string credit = NewSaleId(), debit = NewSaleId();
  ASSERT_TRUE(driver_->Open(credit, 9000, settings_).ok());
  Fed(credit, ChooseMethod{Method::kCard, {}, Now()});
  RunUntil(credit, [](const Sale& s) { return std::holds_alternative<AwaitingCard>(s.state); });
  ASSERT_EQ(StateOf(*driver_->SubmitCard(credit, checkout::e2e::TestCard("4242424242424242"), FundingType::kCredit, 3,
                                         checkout::e2e::TestBrowser())),
            "Paid");
  ASSERT_TRUE(driver_->Open(debit, 2500, settings_).ok());
  Fed(debit, ChooseMethod{Method::kCard, {}, Now()});
  RunUntil(debit, [](const Sale& s) { return std::holds_alternative<AwaitingCard>(s.state); });
  ASSERT_EQ(StateOf(*driver_->SubmitCard(debit, checkout::e2e::TestCard("5555555555554444"), FundingType::kDebit, 1,
                                         checkout::e2e::TestBrowser())),
            "Paid");
  AdvanceSandbox(31);

  auto settled = settlement::Settle(*store_, Bank(), clock_, {Today()});
  ASSERT_TRUE(settled.ok()) << settled.status().ToString();
  const json receivables = json::parse(settled->json)["receivables"];
  ASSERT_EQ(receivables["installments"].size(), 4u) << receivables.dump(2);
  std::int64_t credit_total = 0;
  int credit_count = 0;
  std::set<std::string> credit_dues;
  for (const json& r : receivables["installments"]) {
    if (r["sale_id"] == credit) {
      ++credit_count;
      credit_total += r["amount"].get<std::int64_t>();
      credit_dues.insert(r["due"].get<std::string>());
      EXPECT_EQ(r["funding"], "credit");
      EXPECT_EQ(r["network"], "visa");
    } else {
      EXPECT_EQ(r["sale_id"], debit);
      EXPECT_EQ(r["funding"], "debit");
      EXPECT_EQ(r["amount"], 2500);
    }
  }
  EXPECT_EQ(credit_count, 3);
  EXPECT_EQ(credit_total, 9000);
  EXPECT_EQ(credit_dues.size(), 3u) << "one due date a month";
  EXPECT_GE(receivables["by_due"].size(), 4u);
  EXPECT_EQ(json::parse(settled->json)["payout"]["status"], "off");
  EXPECT_NE(settled->text.find("Card receivables of the day"), std::string::npos) << settled->text;
}

}  // namespace
}  // namespace balcao::settlement::e2e
