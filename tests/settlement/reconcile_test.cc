// The settlement's rules for one night, with hand-built inputs (reconcile_fixture.h): every
// class of finding, the totals, the events fed back to the sales, orphans, money at risk and the
// journal chain's verdict.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "settlement/report.h"
#include "settlement/settlement.h"
#include "tests/settlement/reconcile_fixture.h"

namespace balcao::settlement {
namespace {

using namespace checkout;
using namespace fixture;

TEST(Reconcile, CardAndPixMatchToTheCentAndAreTotalledByMethod) {
  const Report r = Reconcile(Day(
      {SaleBuilder("s-card", 5000).CardPaid("p-1", 5000).Build(),
       SaleBuilder("s-debit", 1200).CardPaid("p-2", 1200).Build(),
       SaleBuilder("s-pix", 3000).PixPaid("b-1", "d-1", 3000).Build()},
      {Purchase("s-card", "p-1", "confirmed", 5000, 5000),
       Purchase("s-debit", "p-2", "confirmed", 1200, 1200, 0, "debit"), Deposit("s-pix", "d-1", "b-1", 3000, 3000)}));
  EXPECT_TRUE(r.reconciled()) << ReportText(r);
  for (const char* id : {"s-card", "s-debit", "s-pix"}) {
    EXPECT_EQ(Finding(r, id).cls, SaleClass::kMatched) << id;
    EXPECT_EQ(Finding(r, id).collected, Finding(r, id).bank_net) << id;
  }
  EXPECT_EQ(Finding(r, "s-debit").method, "debit");
  EXPECT_EQ(Total(r, "credit").gross, 5000);
  EXPECT_EQ(Total(r, "debit").count, 1);
  EXPECT_EQ(Total(r, "pix").gross, 3000);
  EXPECT_EQ(Total(r, "invoice").count, 0);
  EXPECT_EQ(r.total.count, 3);
  EXPECT_EQ(r.total.net(), 9200);
  EXPECT_TRUE(r.feeds.empty());
}

TEST(Reconcile, AnApprovedPurchaseAwaitingCaptureIsNotADiscrepancy) {
  const Report r = Reconcile(
      Day({SaleBuilder("s-1", 5000).CardPaid("p-1", 5000).Build()}, {Purchase("s-1", "p-1", "approved", 5000, 0)}));
  EXPECT_TRUE(r.reconciled()) << ReportText(r);
  ASSERT_EQ(Finding(r, "s-1").notes.size(), 1u);
  EXPECT_NE(Finding(r, "s-1").notes[0].find("awaiting capture"), std::string::npos);
}

TEST(Reconcile, ARefundMatchesWhenTheBankGaveTheMoneyBack) {
  JournalSale sale = SaleBuilder("s-1", 5000)
                         .CardPaid("p-1", 5000)
                         .Add(Reverse{5000, "op-7", "returned"})
                         .Add(Reversed{"p-1", 0})
                         .Build();
  ASSERT_TRUE(std::holds_alternative<Refunded>(sale.sale.state));
  const Report r = Reconcile(Day({sale}, {Purchase("s-1", "p-1", "canceled", 0, 0)}));
  EXPECT_TRUE(r.reconciled()) << ReportText(r);
  EXPECT_EQ(Finding(r, "s-1").cls, SaleClass::kRefunded);
  EXPECT_EQ(Total(r, "credit").refunds, 5000);
  EXPECT_EQ(Total(r, "credit").refund_count, 1);
  EXPECT_EQ(r.total.net(), 0);
}

TEST(Reconcile, AmountsThatDifferAreADiscrepancy) {
  // The bank reversed 500 of the Pix behind the box's back.
  const Report r = Reconcile(Day({SaleBuilder("s-1", 3000).PixPaid("b-1", "d-1", 3000).Build()},
                                 {Deposit("s-1", "d-1", "b-1", 2500, 3000, 500)}));
  EXPECT_EQ(Finding(r, "s-1").cls, SaleClass::kDiscrepancy);
  EXPECT_TRUE(Finding(r, "s-1").attention);
  EXPECT_EQ(Finding(r, "s-1").bank_net, 2500);
  EXPECT_EQ(Finding(r, "s-1").collected, 3000);
  EXPECT_EQ(r.attention, 1);
}

TEST(Reconcile, TheJournalPaidButTheBankDidNotIsADiscrepancy) {
  const Report r = Reconcile(
      Day({SaleBuilder("s-1", 5000).CardPaid("p-1", 5000).Build()}, {Purchase("s-1", "p-1", "denied", 5000, 0)}));
  EXPECT_EQ(Finding(r, "s-1").cls, SaleClass::kDiscrepancy);
  EXPECT_EQ(Finding(r, "s-1").bank_net, 0);
}

TEST(Reconcile, MoneyTheJournalHasAndTheBankDoesNotShowIsADiscrepancy) {
  const Report r = Reconcile(Day({SaleBuilder("s-1", 3000).PixPaid("b-1", "d-1", 3000).Build()}, {}));
  EXPECT_EQ(Finding(r, "s-1").cls, SaleClass::kDiscrepancy);
  EXPECT_NE(ReportText(r).find("the bank does not show"), std::string::npos);
}

TEST(Reconcile, ALedgerThatDisagreesWithTheEntityIsADiscrepancy) {
  const Report r = Reconcile(
      Day({SaleBuilder("s-1", 5000).CardPaid("p-1", 5000).Build()}, {Purchase("s-1", "p-1", "confirmed", 5000, 0)}));
  EXPECT_EQ(Finding(r, "s-1").cls, SaleClass::kDiscrepancy);
  EXPECT_NE(ReportText(r).find("the ledger nets"), std::string::npos);
}

TEST(Reconcile, BankMoneyForAVoidedSaleIsFedToItAndFlaggedAsLateMoney) {
  JournalSale sale = SaleBuilder("s-1", 3000).PixShown("b-1").Add(Cancel{"op-7", "gave up"}).Build();
  ASSERT_TRUE(std::holds_alternative<Voided>(sale.sale.state));
  const Report r = Reconcile(Day({sale}, {Deposit("s-1", "d-9", "b-1", 3000, 3000)}));
  ASSERT_EQ(r.feeds.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<DepositSeen>(r.feeds[0].event));
  const SaleFinding& f = Finding(r, "s-1");
  EXPECT_EQ(f.cls, SaleClass::kLateMoney);
  EXPECT_TRUE(f.attention);
  EXPECT_EQ(f.late_outstanding, 3000);
  EXPECT_EQ(f.state, "Voided");
  EXPECT_EQ(f.method, "pix");
  EXPECT_EQ(r.total.count, 0) << "late money is not revenue";
}

TEST(Reconcile, BankMoneyTheSaleCannotOwnIsADiscrepancy) {
  // A deposit for a brcode the sale never showed (its tag names the sale nonetheless).
  JournalSale sale = SaleBuilder("s-1", 3000).PixShown("b-1").Add(Cancel{"op-7", "gave up"}).Build();
  const Report r = Reconcile(Day({sale}, {Deposit("s-1", "d-9", "b-other", 3000, 3000)}));
  EXPECT_TRUE(r.feeds.empty());
  EXPECT_EQ(Finding(r, "s-1").cls, SaleClass::kDiscrepancy);
}

TEST(Reconcile, APayLaterInvoicePaidAtTheBankClosesTheSale) {
  JournalSale sale = SaleBuilder("s-1", 5000).PayLater("i-1", kNow + 86400 * kMicrosPerSecond).Build();
  ASSERT_TRUE(std::holds_alternative<PayLater>(sale.sale.state));
  const Report r = Reconcile(Day({sale}, {Invoice("s-1", "i-1", "paid", 5105, 5105)}));
  ASSERT_EQ(r.feeds.size(), 1u);
  const auto* seen = std::get_if<InvoiceSeen>(&r.feeds[0].event);
  ASSERT_NE(seen, nullptr);
  EXPECT_EQ(seen->status, InvoiceStatus::kPaid);
  EXPECT_EQ(seen->amount, 5105);
  const SaleFinding& f = Finding(r, "s-1");
  EXPECT_EQ(f.cls, SaleClass::kPayLaterClosed);
  EXPECT_FALSE(f.attention);
  EXPECT_EQ(f.state, "Paid");
  EXPECT_EQ(f.collected, 5105);
  EXPECT_EQ(Total(r, "invoice").gross, 5105);
  EXPECT_TRUE(r.reconciled()) << ReportText(r);
}

TEST(Reconcile, DeferredFeedsKeepTheirSalesInScope) {
  JournalSale sale = SaleBuilder("s-1", 5000).PayLater("i-1", kNow + 86400 * kMicrosPerSecond).Build();
  Report r =
      Reconcile(Day({sale, SaleBuilder("s-2", 1000).CardPaid("p-2", 1000).Build()},
                    {Invoice("s-1", "i-1", "paid", 5000, 5000), Purchase("s-2", "p-2", "confirmed", 1000, 1000)}));
  ASSERT_TRUE(Finding(r, "s-1").done);
  DeferFeeds(r, "the service owns the store");
  EXPECT_TRUE(r.feeds_deferred);
  EXPECT_FALSE(Finding(r, "s-1").done);
  EXPECT_EQ(Finding(r, "s-1").notes.back(), "not journaled yet: the service owns the store");
  EXPECT_TRUE(Finding(r, "s-2").done) << "a sale without feeds is untouched";
  EXPECT_EQ(nlohmann::json::parse(ReportJson(r))["fed_deferred"], true);
}

TEST(Reconcile, AnInvoiceStillOnTheCounterScreenButPaidClosesTheSaleToo) {
  JournalSale sale = SaleBuilder("s-1", 5000)
                         .Add(ChooseMethod{Method::kInvoice, Customer{"Maria da Silva", "337.451.076-08"}})
                         .Add(InvoiceCreated{1, "i-1", "000201inv", "https://bank/invoice/i-1", kNow})
                         .Build();
  ASSERT_TRUE(std::holds_alternative<ShowingInvoice>(sale.sale.state));
  const Report r = Reconcile(Day({sale}, {Invoice("s-1", "i-1", "paid", 5000, 5000)}));
  ASSERT_EQ(r.feeds.size(), 1u);
  EXPECT_EQ(Finding(r, "s-1").cls, SaleClass::kPayLaterClosed);
  EXPECT_EQ(Finding(r, "s-1").state, "Paid");
  EXPECT_TRUE(r.reconciled()) << ReportText(r);
}

TEST(Reconcile, APayLaterInvoiceCanceledAtTheBankVoidsTheSale) {
  JournalSale sale = SaleBuilder("s-1", 5000).PayLater("i-1", kNow + 86400 * kMicrosPerSecond).Build();
  const Report r = Reconcile(Day({sale}, {Invoice("s-1", "i-1", "canceled", 5000, 0)}));
  EXPECT_EQ(Finding(r, "s-1").cls, SaleClass::kPayLaterClosed);
  EXPECT_EQ(Finding(r, "s-1").state, "Voided");
}

TEST(Reconcile, AnOpenPayLaterIsReportedAndAnOverdueOneFlagged) {
  const Report r =
      Reconcile(Day({SaleBuilder("s-open", 5000).PayLater("i-1", kNow + 86400 * kMicrosPerSecond).Build(),
                     SaleBuilder("s-late", 4000).PayLater("i-2", kNow - kMicrosPerSecond).Build(false)},
                    {Invoice("s-open", "i-1", "created", 5000, 0), Invoice("s-late", "i-2", "overdue", 4000, 0)}));
  EXPECT_EQ(Finding(r, "s-open").cls, SaleClass::kPayLaterOpen);
  EXPECT_FALSE(Finding(r, "s-open").attention);
  EXPECT_EQ(Finding(r, "s-open").method, "invoice");
  EXPECT_EQ(Finding(r, "s-late").cls, SaleClass::kPayLaterOverdue);
  EXPECT_TRUE(Finding(r, "s-late").attention);
  EXPECT_FALSE(Finding(r, "s-late").in_day);
  EXPECT_EQ(r.attention, 1);
  EXPECT_EQ(r.total.count, 0);
}

TEST(Reconcile, ASaleLeftInTheMiddleIsUnfinished) {
  const Report r = Reconcile(Day({SaleBuilder("s-1", 3000).PixShown("b-1").Build()}, {}));
  EXPECT_EQ(Finding(r, "s-1").cls, SaleClass::kUnfinished);
  EXPECT_TRUE(Finding(r, "s-1").attention);
  EXPECT_EQ(Finding(r, "s-1").state, "ShowingPix");
}

TEST(Reconcile, AVoidedSaleWithNothingAtTheBankIsClean) {
  const Report r =
      Reconcile(Day({SaleBuilder("s-1", 3000).PixShown("b-1").Add(Cancel{"op-7", "gave up"}).Build()}, {}));
  EXPECT_EQ(Finding(r, "s-1").cls, SaleClass::kVoided);
  EXPECT_TRUE(r.reconciled());
}

TEST(Reconcile, ASaleIsCountedInOneNightsTotalsOnly) {
  // An earlier day's pay-later paid tonight: counted tonight (its own night saw no payment).
  JournalSale later = SaleBuilder("s-later", 5000).PayLater("i-1", kNow + 86400 * kMicrosPerSecond).Build(false);
  JournalSale counted = SaleBuilder("s-counted", 2000).CardPaid("p-1", 2000).Build(false);
  counted.counted_before = true;
  const Report r = Reconcile(Day({later, counted}, {Invoice("s-later", "i-1", "paid", 5000, 5000),
                                                    Purchase("s-counted", "p-1", "confirmed", 2000, 2000)}));
  EXPECT_TRUE(Finding(r, "s-later").counted);
  EXPECT_TRUE(Finding(r, "s-later").done);
  EXPECT_FALSE(Finding(r, "s-counted").counted);
  EXPECT_TRUE(Finding(r, "s-counted").done);
  EXPECT_EQ(r.total.count, 1);
  EXPECT_EQ(Total(r, "invoice").gross, 5000);
  EXPECT_NE(ReportText(r).find("earlier day, counted tonight"), std::string::npos);
  // Not final: looked at again the next night.
  const Report open = Reconcile(Day({SaleBuilder("s-open", 5000).PayLater("i-2", kNow + kMicrosPerSecond).Build()},
                                    {Invoice("s-open", "i-2", "created", 5000, 0)}));
  EXPECT_FALSE(Finding(open, "s-open").done);
  EXPECT_FALSE(Finding(open, "s-open").counted);
}

TEST(Reconcile, EntitiesOfSalesTheBoxNeverJournaledAreOrphans) {
  DayInput in = Day({}, {Purchase("s-ghost", "p-9", "confirmed", 700, 700)});
  const Report r = Reconcile(in);
  ASSERT_EQ(r.orphans.size(), 1u);
  EXPECT_EQ(r.orphans[0].sale_id, "s-ghost");
  EXPECT_EQ(r.attention, 1);
  // Entities of a journaled sale outside the day are neither orphans nor findings.
  in.journaled.insert("s-ghost");
  EXPECT_TRUE(Reconcile(in).reconciled());
}

TEST(Reconcile, OutboxRowsAreMoneyAtRiskAndCardOutcomesAreReported) {
  DayInput in = Day({}, {});
  in.outbox = {{3, "sale/s-1/a1", "invoice.create", "pending", "s-1", 4500, ""},
               {5, "sale/s-2/a1/cancel", "invoice.cancel", "failed", "s-2", 0, "invalidOperation"}};
  in.card_outcomes = {{"s-3", 2000, "424242******4242", "approved", "", "p-3"},
                      {"s-4", 1500, "400000******0002", "declined", "cardDeclined", "p-4"}};
  const Report r = Reconcile(in);
  EXPECT_EQ(r.outbox_at_risk, 4500);
  EXPECT_EQ(r.attention, 3) << "two outbox rows and one declined card";
  const std::string text = ReportText(r);
  EXPECT_NE(text.find("collect another way"), std::string::npos);
  EXPECT_EQ(text.find("4242424242424242"), std::string::npos);
}

TEST(Reconcile, ABrokenJournalChainIsAnItemForTheOperator) {
  DayInput in = Day({SaleBuilder("s-pix", 3000).PixPaid("b-1", "d-1", 3000).Build()},
                    {Deposit("s-pix", "d-1", "b-1", 3000, 3000)});
  EXPECT_EQ(nlohmann::json::parse(ReportJson(Reconcile(in))).contains("journal"), false) << "not checked: not said";
  in.journal = {true, true, 12, std::string(64, 'a')};
  Report r = Reconcile(in);
  EXPECT_TRUE(r.reconciled()) << ReportText(r);
  auto doc = nlohmann::json::parse(ReportJson(r));
  EXPECT_EQ(doc["journal"], nlohmann::json({{"verified", true}, {"rows", 12}, {"head", std::string(64, 'a')}}));
  EXPECT_NE(ReportText(r).find("Journal chain holds: 12 row(s)"), std::string::npos) << ReportText(r);

  in.journal = {
      true, false, 12, std::string(64, 'a'), 5, "s-pix", 2, "content changed", "row 5 (sale s-pix seq 2) ..."};
  r = Reconcile(in);
  EXPECT_FALSE(r.reconciled());
  EXPECT_EQ(r.attention, 1);
  doc = nlohmann::json::parse(ReportJson(r));
  EXPECT_EQ(doc["status"], "attention");
  EXPECT_EQ(doc["journal"]["verified"], false);
  EXPECT_EQ(doc["journal"]["broken"]["row"], 5);
  EXPECT_EQ(doc["journal"]["broken"]["sale_id"], "s-pix");
  EXPECT_EQ(doc["journal"]["broken"]["kind"], "content changed");
  const std::string text = ReportText(r);
  EXPECT_NE(text.find("! JOURNAL CHAIN BROKEN: content changed at sale s-pix seq 2 (journal row 5)"), std::string::npos)
      << text;
}

}  // namespace
}  // namespace balcao::settlement
