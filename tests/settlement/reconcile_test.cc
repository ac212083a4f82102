// The settlement's rules with hand-built inputs: sales replayed from event lists (the
// journal's form) and bank entities as the bank would show them. Every class of finding,
// the totals, the events fed back to the sales, and the report's forms.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "checkout/journal_codec.h"
#include "settlement/report.h"
#include "settlement/settlement.h"

namespace balcao::settlement {
namespace {

using namespace checkout;

constexpr UnixMicros kT0 = 1'763'700'000'000'000;  // 2025-11-21, during the business day
constexpr UnixMicros kNow = kT0 + 12 * 3600 * kMicrosPerSecond;
constexpr UnixMicros kDay = 86400 * kMicrosPerSecond;

// A sale's journal, event by event, each a second after the previous one.
class SaleBuilder {
 public:
  SaleBuilder(std::string id, Cents amount) : id_(std::move(id)) { Add(Start{id_, amount, Settings{}, 0}); }
  SaleBuilder& Add(Event event) {
    std::visit([&](auto& e) { e.at = base_ + static_cast<UnixMicros>(events_.size()) * kMicrosPerSecond; }, event);
    events_.push_back(std::move(event));
    return *this;
  }
  SaleBuilder& CardPaid(const std::string& purchase, Cents amount) {
    Add(ChooseMethod{Method::kCard});
    Add(SessionCreated{1, "session-" + id_, "uuid-" + id_, kT0 + 3600 * kMicrosPerSecond});
    Add(SubmitCard{"ref-1", "424242******4242", FundingType::kCredit, 1});
    return Add(PurchaseSeen{1, purchase, PurchaseStatus::kApproved, amount});
  }
  SaleBuilder& PixShown(const std::string& uuid) {
    Add(ChooseMethod{Method::kPix});
    return Add(BrcodeCreated{1, uuid, "000201pix", kT0 + 600 * kMicrosPerSecond});
  }
  SaleBuilder& PixPaid(const std::string& uuid, const std::string& deposit, Cents amount) {
    PixShown(uuid);
    return Add(DepositSeen{deposit, uuid, amount});
  }
  SaleBuilder& PayLater(const std::string& invoice, UnixMicros due) {
    Add(ChooseMethod{Method::kInvoice, Customer{"Maria da Silva", "337.451.076-08"}});
    Add(InvoiceCreated{1, invoice, "000201inv", "https://bank/invoice/" + invoice, due});
    return Add(KeepOpen{});
  }
  // The events added from now on happen `days` business days after the sale's.
  SaleBuilder& DaysLater(int days) {
    base_ = kT0 + days * kDay;
    return *this;
  }
  JournalSale Build(bool in_day = true) const {
    JournalSale s{Replay(events_), kT0, in_day};
    s.events = events_;
    EXPECT_EQ(s.sale.id, id_) << "the journal of " << id_ << " did not start";
    return s;
  }

 private:
  std::string id_;
  UnixMicros base_ = kT0;
  std::vector<Event> events_;
};

BankEntity Purchase(const std::string& sale, const std::string& id, const std::string& status, Cents amount,
                    Cents ledger_in, Cents ledger_out = 0, const std::string& funding = "credit") {
  BankEntity e{BankKind::kPurchase, id, sale, status, amount, funding};
  e.ledger_in = ledger_in;
  e.ledger_out = ledger_out;
  return e;
}
BankEntity Deposit(const std::string& sale, const std::string& id, const std::string& uuid, Cents amount,
                   Cents ledger_in, Cents ledger_out = 0) {
  BankEntity e{BankKind::kDeposit, id, sale, "created", amount};
  e.brcode_uuid = uuid;
  e.ledger_in = ledger_in;
  e.ledger_out = ledger_out;
  return e;
}
BankEntity Invoice(const std::string& sale, const std::string& id, const std::string& status, Cents amount,
                   Cents ledger_in) {
  BankEntity e{BankKind::kInvoice, id, sale, status, amount};
  e.ledger_in = ledger_in;
  return e;
}

DayInput Day(std::vector<JournalSale> sales, std::vector<BankEntity> bank) {
  DayInput in;
  in.day = "2025-11-21";
  in.now = kNow;
  for (const JournalSale& s : sales) in.journaled.insert(s.sale.id);
  in.sales = std::move(sales);
  in.bank = std::move(bank);
  return in;
}

const SaleFinding& Finding(const Report& r, const std::string& id) {
  for (const SaleFinding& f : r.sales) {
    if (f.sale_id == id) return f;
  }
  ADD_FAILURE() << "no finding for " << id;
  static const SaleFinding none;
  return none;
}
const MethodTotal& Total(const Report& r, const std::string& method) {
  for (const MethodTotal& t : r.totals) {
    if (t.method == method) return t;
  }
  ADD_FAILURE() << "no total for " << method;
  static const MethodTotal none;
  return none;
}

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

// Night `n` after the sale's day (0: its own night).
DayInput Night(int n, std::vector<JournalSale> sales, std::vector<BankEntity> bank) {
  DayInput in = Day(std::move(sales), std::move(bank));
  in.day = BusinessDayOf(kT0 + n * kDay);
  in.now = kNow + n * kDay;
  return in;
}
// What the store keeps of the sale's findings of earlier nights (offline::SaleMark): the night
// that counted its payment, and what the last one counted of its returns.
JournalSale Carry(JournalSale sale, const std::vector<SaleFinding>& nights) {
  sale.in_day = false;
  for (const SaleFinding& f : nights) {
    sale.counted_before = sale.counted_before || f.counted;
    sale.refunds_counted = f.refunds_counted;
    sale.late_returned_counted = f.late_returned_counted;
  }
  return sale;
}

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

TEST(Report, TheJsonIsDeterministicAndGivesTheSummaryBack) {
  DayInput in = Day({SaleBuilder("s-card", 5000)
                         .CardPaid("p-1", 5000)
                         .Add(Reverse{5000, "op-7", "returned"})
                         .Add(Reversed{"p-1", 0})
                         .Build(),
                     SaleBuilder("s-pix", 3000).PixPaid("b-1", "d-1", 3000).Build()},
                    {Purchase("s-card", "p-1", "canceled", 0, 0), Deposit("s-pix", "d-1", "b-1", 3000, 3000)});
  in.outbox = {{3, "sale/s-9/a1", "invoice.create", "pending", "s-9", 4500, ""}};
  in.ledger = {true, 2, 3000, 0, 3000, true, 123456};
  const std::string json = ReportJson(Reconcile(in));
  EXPECT_EQ(json, ReportJson(Reconcile(in)));
  const auto doc = nlohmann::json::parse(json);
  EXPECT_EQ(doc["status"], "attention");
  EXPECT_EQ(doc["ledger"]["net"], 3000);
  EXPECT_EQ(doc["ledger"]["other_net"], 0);
  EXPECT_EQ(doc["sales"].size(), 2u);

  auto summary = DaySummaryFromJson(json, printer::Merchant{"PADARIA"}, kNow);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  EXPECT_EQ(summary->business_day, "2025-11-21");
  ASSERT_EQ(summary->totals.size(), 2u);
  EXPECT_EQ(summary->totals[0].method, "credit");
  EXPECT_EQ(summary->totals[0].amount_cents, 5000);
  EXPECT_EQ(summary->totals[1].method, "pix");
  EXPECT_EQ(summary->refund_count, 1);
  EXPECT_EQ(summary->refunds_cents, 5000);
  EXPECT_EQ(summary->pending_offline, 1);
  EXPECT_FALSE(DaySummaryFromJson("[1]", {}, kNow).ok());
  auto missing = DaySummaryFromJson(R"({"day":"2025-11-21"})", {}, kNow);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("totals"), std::string::npos);
}

}  // namespace
}  // namespace balcao::settlement
