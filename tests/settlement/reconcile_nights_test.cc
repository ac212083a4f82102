// The settlement's rules across nights, with hand-built inputs (reconcile_fixture.h): a sale's
// returns counted the night they happen, once, and late money given back shown apart from the
// totals.
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

TEST(Reconcile, ARefundMadeAfterItsSalesNightIsCountedTheNightItIsMade) {
  SaleBuilder pix("s-1", 5000);
  pix.PixPaid("b-1", "d-1", 5000);
  const Report night1 = Reconcile(Night(0, {pix.Build()}, {Deposit("s-1", "d-1", "b-1", 5000, 5000)}));
  const SaleFinding first = Finding(night1, "s-1");
  EXPECT_TRUE(first.counted);
  EXPECT_TRUE(first.done);
  EXPECT_EQ(night1.total.refunds, 0);

  // The next day the cashier gives 20,00 back: that night counts it, not the sale again.
  pix.DaysLater(1).Add(Reverse{2000, "op-7", "damaged"}).Add(Reversed{"d-1", 3000});
  const std::vector<BankEntity> bank = {Deposit("s-1", "d-1", "b-1", 3000, 5000, 2000)};
  const Report night2 = Reconcile(Night(1, {Carry(pix.Build(), {first})}, bank));
  const SaleFinding& f = Finding(night2, "s-1");
  EXPECT_EQ(f.cls, SaleClass::kMatched) << ReportText(night2);
  EXPECT_FALSE(f.counted);
  EXPECT_TRUE(f.done);
  EXPECT_EQ(f.refunded_tonight, 2000);
  EXPECT_EQ(f.refunds_counted, 2000);
  EXPECT_EQ(Total(night2, "pix").count, 0);
  EXPECT_EQ(Total(night2, "pix").gross, 0);
  EXPECT_EQ(Total(night2, "pix").refund_count, 1);
  EXPECT_EQ(Total(night2, "pix").refunds, 2000);
  EXPECT_EQ(night2.total.net(), -2000);
  EXPECT_NE(ReportText(night2).find("given back of a sale an earlier night counted"), std::string::npos);

  // The first night settled only now (after the refund): its totals hold the payment; the
  // refund is left to its own night, so the sale stays in scope.
  const Report late = Reconcile(Night(0, {pix.Build()}, bank));
  EXPECT_TRUE(Finding(late, "s-1").counted);
  EXPECT_EQ(Finding(late, "s-1").refunded_tonight, 0);
  EXPECT_FALSE(Finding(late, "s-1").done);
  EXPECT_EQ(late.total.gross, 5000);
  EXPECT_EQ(late.total.refunds, 0);
  const Report next = Reconcile(Night(1, {Carry(pix.Build(), {Finding(late, "s-1")})}, bank));
  EXPECT_EQ(next.total.refunds, 2000);
  EXPECT_TRUE(Finding(next, "s-1").done);
}

TEST(Reconcile, APartialThenAFullReversalAreCountedOnTheirTwoNights) {
  SaleBuilder pix("s-1", 5000);
  pix.PixPaid("b-1", "d-1", 5000);
  const Report night1 = Reconcile(Night(0, {pix.Build()}, {Deposit("s-1", "d-1", "b-1", 5000, 5000)}));
  pix.DaysLater(1).Add(Reverse{2000, "op-7", "one item back"}).Add(Reversed{"d-1", 3000});
  const Report night2 = Reconcile(
      Night(1, {Carry(pix.Build(), {Finding(night1, "s-1")})}, {Deposit("s-1", "d-1", "b-1", 3000, 5000, 2000)}));
  EXPECT_EQ(night2.total.refunds, 2000);
  pix.DaysLater(2).Add(Reverse{3000, "op-7", "the rest back"}).Add(Reversed{"d-1", 0});
  const Report night3 = Reconcile(Night(2, {Carry(pix.Build(), {Finding(night1, "s-1"), Finding(night2, "s-1")})},
                                        {Deposit("s-1", "d-1", "b-1", 0, 5000, 5000)}));
  const SaleFinding& f = Finding(night3, "s-1");
  EXPECT_EQ(f.cls, SaleClass::kRefunded) << ReportText(night3);
  EXPECT_EQ(f.refunded_tonight, 3000);
  EXPECT_EQ(f.refunds_counted, 5000);
  EXPECT_TRUE(f.done);
  EXPECT_EQ(Total(night3, "pix").refund_count, 1);
  EXPECT_EQ(Total(night3, "pix").refunds, 3000);
  EXPECT_EQ(night3.total.count, 0);
  // Across the three nights: 50,00 in, 50,00 back, each cent once.
  EXPECT_EQ(night1.total.net() + night2.total.net() + night3.total.net(), 0);
}

TEST(Reconcile, ANightRunAgainCountsNoRefundTwice) {
  SaleBuilder pix("s-1", 5000);
  pix.PixPaid("b-1", "d-1", 5000);
  const Report night1 = Reconcile(Night(0, {pix.Build()}, {Deposit("s-1", "d-1", "b-1", 5000, 5000)}));
  pix.DaysLater(1).Add(Reverse{2000, "op-7", "damaged"}).Add(Reversed{"d-1", 3000});
  const std::vector<BankEntity> bank = {Deposit("s-1", "d-1", "b-1", 3000, 5000, 2000)};
  const DayInput in = Night(1, {Carry(pix.Build(), {Finding(night1, "s-1")})}, bank);
  EXPECT_EQ(ReportJson(Reconcile(in)), ReportJson(Reconcile(in)));
  // Once its marks are kept, the sale seen again (the same night or any later one) adds nothing.
  const JournalSale kept = Carry(pix.Build(), {Finding(night1, "s-1"), Finding(Reconcile(in), "s-1")});
  for (int n : {1, 2}) {
    const Report again = Reconcile(Night(n, {kept}, bank));
    EXPECT_EQ(again.total.refunds, 0) << "night " << n;
    EXPECT_EQ(again.total.refund_count, 0);
    EXPECT_EQ(Finding(again, "s-1").refunded_tonight, 0);
    EXPECT_TRUE(Finding(again, "s-1").done);
  }
}

TEST(Reconcile, LateMoneyGivenBackIsShownTheNightItGoesBackOutsideTheTotals) {
  SaleBuilder voided("s-1", 3000);
  voided.PixShown("b-1").Add(Cancel{"op-7", "gave up"}).Add(DepositSeen{"d-9", "b-1", 3000});
  const Report night1 = Reconcile(Night(0, {voided.Build()}, {Deposit("s-1", "d-9", "b-1", 3000, 3000)}));
  EXPECT_EQ(Finding(night1, "s-1").cls, SaleClass::kLateMoney);
  EXPECT_FALSE(Finding(night1, "s-1").done);

  voided.DaysLater(1).Add(ReturnLateMoney{"d-9", "op-7", "not ours"}).Add(Reversed{"d-9", 0});
  const std::vector<BankEntity> bank = {Deposit("s-1", "d-9", "b-1", 0, 3000, 3000)};
  const Report night2 = Reconcile(Night(1, {Carry(voided.Build(), {Finding(night1, "s-1")})}, bank));
  const SaleFinding& f = Finding(night2, "s-1");
  EXPECT_EQ(f.cls, SaleClass::kVoided) << ReportText(night2);
  EXPECT_TRUE(f.done);
  EXPECT_EQ(f.late_returned_tonight, 3000);
  EXPECT_EQ(night2.late_returned_count, 1);
  EXPECT_EQ(night2.late_returned, 3000);
  EXPECT_EQ(night2.total.refunds, 0) << "late money was never revenue";
  EXPECT_EQ(night2.total.count, 0);
  EXPECT_NE(ReportText(night2).find("Late money given back to payers: 1 / R$ 30,00"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(ReportJson(night2))["late_returned"]["amount"], 3000);
  // The printed summary shows it beside the totals.
  auto printed = DaySummaryFromJson(ReportJson(night2), printer::Merchant{"PADARIA"}, kNow);
  ASSERT_TRUE(printed.ok()) << printed.status().ToString();
  EXPECT_EQ(printed->late_returned_count, 1);
  EXPECT_EQ(printed->late_returned_cents, 3000);
  const Report night3 = Reconcile(Night(2, {Carry(voided.Build(), {Finding(night1, "s-1"), f})}, bank));
  EXPECT_EQ(night3.late_returned, 0);
}

}  // namespace
}  // namespace balcao::settlement
