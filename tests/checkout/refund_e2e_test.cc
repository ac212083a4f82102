// End-to-end paths around the money against the in-process sandbox: an invoice paid after its
// due date (fine and interest, as the bank charged them), and every way back before and after
// payment: cancel an open invoice, cancel an approved but unconfirmed card purchase, let a
// dynamic brcode expire and void the sale, reverse an invoice partly then fully. Each is
// signed by an operator with a reason, which the journal keeps; unsigned ones are refused.
// (Pix deposit reversals: driver_e2e_test.cc; confirmed purchase reversals: intake_e2e_test.cc.)
#include <gtest/gtest.h>

#include <string>

#include "checkout/journal_codec.h"
#include "tests/checkout/driver_fixture.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::StatusIs;

namespace balcao::checkout {
namespace {

using e2e::DriverE2E;
using e2e::Json;
using e2e::StateOf;

const Customer kCustomer{"Maria da Silva", "337.451.076-08"};

class RefundE2E : public DriverE2E {
 protected:
  void SetUp() override {
    DriverE2E::SetUp();
    clock_.SetSpeed(5);  // 1 s polls take 0.2 s
  }
  ShowingInvoice StartInvoice(const std::string& id, Cents amount) {
    EXPECT_OK(driver_->Open(id, amount, settings_));
    Sale sale = Fed(id, ChooseMethod{Method::kInvoice, kCustomer, Now()});
    const auto* invoice = std::get_if<ShowingInvoice>(&sale.state);
    EXPECT_TRUE(invoice) << StateOf(sale);
    return invoice ? *invoice : ShowingInvoice{};
  }
  Json InvoiceAtBank(const std::string& invoice_id) {
    auto reply = api().Get("/v2/invoice/" + invoice_id);
    EXPECT_EQ(reply.status, 200) << reply.body;
    return reply.json["invoice"];
  }
  // The journaled events of `type` for the sale (operator and reason live there).
  std::vector<Event> Journaled(const std::string& id, const std::string& type) {
    std::vector<Event> events;
    auto entries = journal_->Read(id);
    EXPECT_OK(entries);
    for (const auto& entry : entries.ok() ? *entries : std::vector<offline::JournalEntry>{}) {
      if (entry.kind != type) continue;
      auto event = EventFromJson(entry.payload);
      EXPECT_OK(event);
      if (event.ok()) events.push_back(*event);
    }
    return events;
  }
};

TEST_F(RefundE2E, InvoicePaidAfterDueRecordsFineAndInterest) {
  const std::string id = NewSaleId();
  const ShowingInvoice shown = StartInvoice(id, 5000);
  ASSERT_GT(shown.invoice.due, 0);
  AdvanceSandbox(settings_.invoice_due_s + 2 * 86400 + 43200);  // two and a half days late: 3 days of interest
  Sale overdue = RunUntil(
      id, [](const Sale&) { return false; }, 1);  // one poll: overdue, still open
  ASSERT_TRUE(std::holds_alternative<ShowingInvoice>(overdue.state)) << StateOf(overdue);
  EXPECT_EQ(InvoiceAtBank(shown.invoice.id)["status"], "overdue");
  ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", shown.invoice.id}}).status, 200);
  Sale paid = Settle(id);
  ASSERT_TRUE(std::holds_alternative<Paid>(paid.state)) << StateOf(paid);
  const Json bank = InvoiceAtBank(shown.invoice.id);
  const Cents fine = bank["fineAmount"].get<Cents>(), interest = bank["interestAmount"].get<Cents>();
  EXPECT_EQ(fine, 100);    // 2 % of 5000 (the bank's default fine)
  EXPECT_EQ(interest, 5);  // 1 % a month, pro rata by started day: 3 days of 30 on 5000
  EXPECT_EQ(bank["amount"].get<Cents>(), 5000 + fine + interest);
  EXPECT_EQ(paid.collected(), 5000 + fine + interest) << "the sale records what was actually paid";
  const auto receipts = Prints(id, Slip::kSaleReceipt);
  ASSERT_EQ(receipts.size(), 1u);
  EXPECT_EQ(receipts[0].amount, 5000 + fine + interest) << "and its receipt shows it";
  const Ledger ledger = LedgerOf(SaleTag(id));
  EXPECT_EQ(ledger.net, paid.collected());
}

TEST_F(RefundE2E, OpenInvoiceCanceledVoidsTheSale) {
  const std::string id = NewSaleId();
  const ShowingInvoice shown = StartInvoice(id, 2500);
  auto unsigned_cancel = driver_->Feed(id, Cancel{"op-3", "", Now()});
  EXPECT_THAT(unsigned_cancel, StatusIs(StatusCode::kFailedPrecondition)) << "a reason is required";
  Sale voided = Fed(id, Cancel{"op-3", "customer changed their mind", Now()});
  const auto* v = std::get_if<Voided>(&voided.state);
  ASSERT_TRUE(v) << StateOf(voided);
  EXPECT_EQ(v->operator_id, "op-3");
  EXPECT_EQ(v->reason, "customer changed their mind");
  EXPECT_EQ(InvoiceAtBank(shown.invoice.id)["status"], "canceled");
  EXPECT_NE(api().Sim("/sandbox/invoice/pay", {{"id", shown.invoice.id}}).status, 200) << "no longer payable";
  EXPECT_EQ(voided.collected(), 0);
}

TEST_F(RefundE2E, ApprovedUnconfirmedPurchaseIsCanceled) {
  const std::string id = NewSaleId();
  ASSERT_OK(driver_->Open(id, 1990, settings_));
  Fed(id, ChooseMethod{Method::kCard, {}, Now()});
  auto sale = driver_->SubmitCard(id, Card("4242424242424242"), FundingType::kCredit, 1, e2e::TestBrowser());
  ASSERT_OK(sale);
  ASSERT_TRUE(std::holds_alternative<Paid>(sale->state));
  EXPECT_EQ(driver_->Feed(id, Reverse{1990, "", "no operator", Now()}).status().code(),
            StatusCode::kFailedPrecondition);
  EXPECT_THAT(driver_->Feed(id, Reverse{990, "op-4", "partial", Now()}), StatusIs(StatusCode::kFailedPrecondition))
      << "an unconfirmed authorization is canceled in full or not at all";
  Sale canceled = Fed(id, Reverse{1990, "op-4", "wrong amount typed", Now()});
  EXPECT_TRUE(std::holds_alternative<Refunded>(canceled.state)) << StateOf(canceled);
  EXPECT_EQ(canceled.collected(), 0);
  const Json purchase = Listed("merchant-purchase", SaleTag(id))[0];
  EXPECT_EQ(purchase["status"], "canceled");
  EXPECT_EQ(purchase["amount"], 0);
  EXPECT_EQ(LedgerOf(SaleTag(id)).credits, 0) << "canceled before confirmation: never credited";
  const auto reverses = Journaled(id, "Reverse");
  ASSERT_EQ(reverses.size(), 3u);  // the two refused ones stay in the record too
  EXPECT_EQ(std::get<Reverse>(reverses.back()).operator_id, "op-4");
  EXPECT_EQ(std::get<Reverse>(reverses.back()).reason, "wrong amount typed");
  EXPECT_EQ(Prints(id, Slip::kRefundReceipt).size(), 1u);
}

// The bank captured the purchase by itself after the sale was paid (the sandbox confirms 30 s
// after approval): the sale still holds it as approved, and its refund is a reversal all the same.
TEST_F(RefundE2E, APurchaseTheBankCapturedMeanwhileIsReversedNotCanceled) {
  const std::string id = NewSaleId();
  ASSERT_OK(driver_->Open(id, 2590, settings_));
  Fed(id, ChooseMethod{Method::kCard, {}, Now()});
  auto sale = driver_->SubmitCard(id, Card("4242424242424242"), FundingType::kCredit, 1, e2e::TestBrowser());
  ASSERT_OK(sale);
  ASSERT_TRUE(std::holds_alternative<Paid>(sale->state)) << StateOf(*sale);
  ASSERT_FALSE(std::get<Paid>(sale->state).payment.confirmed);
  AdvanceSandbox(31);
  ASSERT_EQ(Listed("merchant-purchase", SaleTag(id))[0]["status"], "confirmed");
  Sale refunded = Fed(id, Reverse{2590, "op-4", "cliente devolveu", Now()});
  EXPECT_TRUE(std::holds_alternative<Refunded>(refunded.state)) << StateOf(refunded);
  EXPECT_EQ(refunded.collected(), 0);
  const Json purchase = Listed("merchant-purchase", SaleTag(id))[0];
  EXPECT_NE(purchase["status"], "canceled") << purchase.dump();
  EXPECT_EQ(purchase["amount"], 0) << purchase.dump();
  EXPECT_EQ(Prints(id, Slip::kRefundReceipt).size(), 1u);
}

TEST_F(RefundE2E, ExpiredBrcodeThenCancelVoidsTheSale) {
  clock_.SetSpeed(1);  // the bank must see the QR expire when the counter does
  const std::string id = NewSaleId();
  Settings s = settings_;
  s.pix_expiration_s = 1;
  ASSERT_OK(driver_->Open(id, 1500, s));
  Sale showing = Fed(id, ChooseMethod{Method::kPix, {}, Now()});
  const auto* pix = std::get_if<ShowingPix>(&showing.state);
  ASSERT_TRUE(pix) << StateOf(showing);
  const std::string uuid = pix->brcode.uuid;
  Sale expired = Settle(id);  // countdown over, one last search found nothing
  const auto* choosing = std::get_if<ChoosingMethod>(&expired.state);
  ASSERT_TRUE(choosing) << StateOf(expired);
  EXPECT_NE(api().Sim("/sandbox/dynamic-brcode/pay", {{"uuid", uuid}}).status, 200) << "expired at the bank";
  Sale voided = Fed(id, Cancel{"op-1", "customer left without paying", Now()});
  const auto* v = std::get_if<Voided>(&voided.state);
  ASSERT_TRUE(v) << StateOf(voided);
  EXPECT_EQ(v->operator_id, "op-1");
  EXPECT_EQ(v->reason, "customer left without paying");
  EXPECT_EQ(AtBank("dynamic-brcode", id), 1u);
  EXPECT_EQ(Tagged("deposit", BrcodeDepositTag(uuid)), 0u);
  EXPECT_EQ(voided.collected(), 0);
}

TEST_F(RefundE2E, PaidInvoiceReversedPartlyThenFully) {
  const std::string id = NewSaleId();
  const ShowingInvoice shown = StartInvoice(id, 4000);
  ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", shown.invoice.id}}).status, 200);
  Sale paid = Settle(id);
  ASSERT_TRUE(std::holds_alternative<Paid>(paid.state)) << StateOf(paid);
  Sale part = Fed(id, Reverse{1500, "op-6", "one item returned", Now()});
  EXPECT_TRUE(std::holds_alternative<Paid>(part.state)) << StateOf(part);
  EXPECT_EQ(part.collected(), 2500);
  EXPECT_EQ(InvoiceAtBank(shown.invoice.id)["amount"], 2500);
  EXPECT_EQ(driver_->Feed(id, Reverse{2600, "op-6", "more than is left", Now()}).status().code(),
            StatusCode::kFailedPrecondition);
  Sale full = Fed(id, Reverse{2500, "op-6", "everything returned", Now()});
  EXPECT_TRUE(std::holds_alternative<Refunded>(full.state)) << StateOf(full);
  EXPECT_EQ(full.collected(), 0);
  const Json bank = InvoiceAtBank(shown.invoice.id);
  EXPECT_EQ(bank["amount"], 0);
  EXPECT_EQ(bank["status"], "paid");  // a reversed invoice stays paid, at amount 0
  const Ledger ledger = LedgerOf(SaleTag(id));
  EXPECT_EQ(ledger.net, 0);
  EXPECT_EQ(ledger.debits, 2);
  const auto refunds = Prints(id, Slip::kRefundReceipt);
  ASSERT_EQ(refunds.size(), 2u);
  EXPECT_EQ(refunds[0].amount, 1500);
  EXPECT_EQ(refunds[1].amount, 2500);
}

}  // namespace
}  // namespace balcao::checkout
