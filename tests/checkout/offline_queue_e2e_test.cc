// What queues while the store is offline (docs/offline.md, "What queues while offline"),
// end to end: the driver with a real SQLite store (journal + outbox in one file), a bank that
// cannot be reached (a client pointed at a closed loopback port), then the in-process sandbox
// when the connection is back, drained by the real drainer (offline::DrainNow over
// offline::ApiGateway). Restarts in between are new Store/Journal/Outbox/Driver objects on
// the same file. Receipts are rendered by printer/ and decoded back from the ESC/POS bytes.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "checkout/driver/driver.h"
#include "checkout/driver/intake.h"
#include "printer/interpreter.h"
#include "printer/profile.h"
#include "printer/render.h"
#include "printer/templates.h"
#include "tests/checkout/offline_fixture.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::IsOk;
using ::testing::Not;

namespace balcao::checkout::e2e {
namespace {

// The receipt as the printer would print it: the template, ESC/POS bytes, decoded back.
printer::VirtualPage Printed(const printer::Document& doc) {
  auto bytes = printer::RenderEscPos(doc, *printer::FindProfile("80mm"));
  EXPECT_OK(bytes);
  auto pages = printer::Interpret(bytes.ok() ? *bytes : "");
  EXPECT_EQ(pages.size(), 1u);
  return pages.empty() ? printer::VirtualPage{} : pages.front();
}
const printer::Merchant kStore{"Padaria Balcão", "", "12345678000195", "Rua A, 1", "São Paulo - SP", "T-01"};

class OfflineQueueE2E : public OfflineE2E {
 protected:
  std::string InvoiceStatusAtBank(const std::string& sale_id) {
    Json listed = Listed("invoice", SaleTag(sale_id));
    return listed.size() == 1 ? listed[0]["status"].get<std::string>() : "count=" + std::to_string(listed.size());
  }
  std::vector<Show> Shown(const std::string& sale_id, Screen screen) const {
    std::vector<Show> shown;
    for (const auto& [id, effect] : seen_) {
      if (const auto* show = std::get_if<Show>(&effect); show && id == sale_id && show->screen == screen) {
        shown.push_back(*show);
      }
    }
    return shown;
  }
};

// The brief's whole story: the bank is unreachable, so the invoice fallback is queued and the
// customer leaves with a provisional receipt; the process restarts; the connection is back
// (and the bank drops the first answer after committing it); the drainer creates exactly one
// invoice; the sale learns it and prints the slip; the payer pays; the sale is Paid.
TEST_F(OfflineQueueE2E, InvoiceQueuedOfflineIsCreatedOnceWhenTheBankIsBackThenPaid) {
  Restart(/*bank_reachable=*/false);
  // Sale 1: the box does not know yet that it is offline: the create is tried, not sent, queued.
  int not_sent = 0;  // what the connectivity monitor would hear (ReportNotSent)
  driver_->OnNotSent([&] { ++not_sent; });
  const std::string first = NewSaleId();
  ASSERT_OK(driver_->Open(first, 4590, settings_));
  Sale sale = Fed(first, ChooseMethod{Method::kInvoice, customer_, Now()});
  ASSERT_TRUE(std::holds_alternative<InvoiceQueued>(sale.state)) << StateOf(sale);
  EXPECT_EQ(not_sent, 1);
  // Sale 2: the monitor said offline: card and Pix are refused with the reason on the screen;
  // the invoice is queued without being tried.
  driver_->SetBankOnline(false);
  const std::string second = NewSaleId();
  ASSERT_OK(driver_->Open(second, 1200, settings_));
  auto card = driver_->Feed(second, ChooseMethod{Method::kCard, {}, Now()});
  ASSERT_THAT(card, Not(IsOk()));
  EXPECT_NE(card.status().message().find("card needs the bank now"), std::string::npos);
  auto pix = driver_->Feed(second, ChooseMethod{Method::kPix, {}, Now()});
  ASSERT_THAT(pix, Not(IsOk()));
  ASSERT_EQ(Shown(second, Screen::kChooseMethod).size(), 3u);  // opened, card refused, Pix refused
  EXPECT_NE(Shown(second, Screen::kChooseMethod).back().message.find("Pix needs the bank now"), std::string::npos);
  ASSERT_TRUE(
      std::holds_alternative<InvoiceQueued>(Fed(second, ChooseMethod{Method::kInvoice, customer_, Now()}).state));
  EXPECT_EQ(not_sent, 1) << "known offline: the invoice create was not even tried";
  auto journal = journal_->Read(second);
  ASSERT_OK(journal);
  std::string kinds;
  for (const auto& e : *journal) kinds += e.kind + " ";
  EXPECT_EQ(kinds, "Start ChooseMethod Queued ") << "refused choices are not journaled";

  // Both are in the outbox, nothing at the bank; the counter is free.
  for (const std::string& id : {first, second}) {
    auto row = outbox_->GetByKey(AttemptTag(id, 1));
    ASSERT_OK(row);
    EXPECT_EQ(row->state, offline::OutboxState::kPending);
    EXPECT_EQ(row->request.sale_id, id);
    EXPECT_EQ(AtBank("invoice", id), 0u);
  }
  // The provisional receipt: sale id (text and barcode), amount, "payment pending".
  const std::vector<Print> provisional = Prints(first, Slip::kProvisionalReceipt);
  ASSERT_EQ(provisional.size(), 1u);
  EXPECT_EQ(provisional[0].reference, first);
  const printer::VirtualPage receipt = Printed(printer::OfflineProvisionalReceipt(
      printer::OfflineSale{kStore, Now(), provisional[0].amount, "invoice", provisional[0].reference}));
  EXPECT_NE(receipt.Text().find("COMPROVANTE PROVISÓRIO"), std::string::npos) << receipt.Text();
  EXPECT_NE(receipt.Text().find(first), std::string::npos) << receipt.Text();
  EXPECT_NE(receipt.Text().find("45,90"), std::string::npos) << receipt.Text();
  EXPECT_NE(receipt.Text().find("Fatura"), std::string::npos) << receipt.Text();
  ASSERT_EQ(receipt.barcodes.size(), 1u);
  EXPECT_EQ(receipt.barcodes[0], first);

  // Restart with the connection back: the sales resume still waiting for the outbox.
  Restart(/*bank_reachable=*/true);
  for (const std::string& id : {first, second}) {
    auto resumed = driver_->Resume(id);
    ASSERT_OK(resumed);
    EXPECT_TRUE(std::holds_alternative<InvoiceQueued>(resumed->state)) << StateOf(*resumed);
  }
  Fault("POST /v2/invoice");  // the first create's answer is lost after the bank committed it
  const offline::DrainerStats stats = Drain();
  EXPECT_EQ(stats.done, 2);
  EXPECT_EQ(stats.unknown, 1);
  EXPECT_GE(stats.lookups, 1);
  for (const std::string& id : {first, second}) {
    EXPECT_EQ(AtBank("invoice", id), 1u) << "exactly one invoice per sale";
    auto row = outbox_->GetByKey(AttemptTag(id, 1));
    ASSERT_OK(row);
    EXPECT_EQ(row->state, offline::OutboxState::kDone);
  }

  // The sale learns its invoice: pay later, the slip (QR and link) prints now.
  sale = *driver_->Reconcile(first);
  const auto* later = std::get_if<PayLater>(&sale.state);
  ASSERT_TRUE(later) << StateOf(sale);
  EXPECT_EQ(later->invoice.id, Listed("invoice", SaleTag(first))[0]["id"].get<std::string>());
  EXPECT_NE(later->invoice.link.find(later->invoice.id), std::string::npos) << later->invoice.link;
  const std::vector<Print> slips = Prints(first, Slip::kInvoiceSlip);
  ASSERT_EQ(slips.size(), 1u);
  EXPECT_EQ(slips[0].reference, later->invoice.id);
  const printer::VirtualPage slip = Printed(printer::InvoiceReceipt(
      printer::InvoiceSlip{kStore, Now(), slips[0].reference, customer_.name, slips[0].amount,
                           FormatDate(later->invoice.due), later->invoice.link, slips[0].qr, 200, 100}));
  ASSERT_EQ(slip.qr_payloads.size(), 1u);
  EXPECT_EQ(slip.qr_payloads[0], later->invoice.brcode);
  EXPECT_FALSE(later->invoice.brcode.empty());

  // The payer pays; the bank's invoice events (GET /v2/event, through the intake) close it.
  auto hook = api().Post("/v2/webhook", {{"url", "http://127.0.0.1:9/balcao-webhook"}, {"subscriptions", {"invoice"}}});
  ASSERT_EQ(hook.status, 200) << hook.body;
  ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", later->invoice.id}}).status, 200);
  api().Delete("/v2/webhook/" + hook.json["webhook"]["id"].get<std::string>());
  auto client = api::Client::FromEnvironment(sandbox().credentials().credentials_path);
  ASSERT_OK(client);
  const api::Bank bank(*client);
  Intake intake(*driver_, bank, clock_);
  std::vector<api::BankEvent> events;
  for (const auto& listed : bank.event().List(api::ListParams().Limit(200))) {
    ASSERT_OK(listed);
    events.insert(events.begin(), *listed);  // the bank lists newest first
  }
  for (const api::BankEvent& event : events) ASSERT_OK(intake.Take(event));
  sale = *driver_->Get(first);
  ASSERT_TRUE(std::holds_alternative<Paid>(sale.state)) << StateOf(sale);
  EXPECT_EQ(sale.collected(), 4590);
  EXPECT_EQ(journal_->Sale(first)->final_state, "Paid");
  EXPECT_TRUE(std::holds_alternative<PayLater>(driver_->Reconcile(second)->state));
}

// The process dies around the invoice create (before it was sent, or after the bank created
// it but before the answer was journaled) and restarts while the bank is unreachable: the sale
// cannot ask the bank what happened, so the create goes to the outbox as "may have reached the
// bank" and the customer gets the provisional receipt. When the bank is back the outbox looks
// it up first: exactly one invoice either way.
TEST_F(OfflineQueueE2E, RestartWhileOfflineAfterAnUnknownCreateIsLookedUpByTheOutbox) {
  for (const int crash_at : {2, 3}) {  // 1 Start journaled, 2 ChooseMethod journaled, 3 create answered
    SCOPED_TRACE(crash_at == 2 ? "crash before the create was sent" : "crash after the bank created it");
    Restart(/*bank_reachable=*/true);
    const std::string id = NewSaleId();
    int points = 0;
    driver_->SetCrashHookForTest([&](const char*) { return ++points == crash_at; });
    ASSERT_OK(driver_->Open(id, 3300, settings_));
    (void)driver_->Feed(id, ChooseMethod{Method::kInvoice, customer_, Now()});
    ASSERT_TRUE(driver_->crashed());
    EXPECT_EQ(AtBank("invoice", id), crash_at == 2 ? 0u : 1u);

    Restart(/*bank_reachable=*/false);
    auto resumed = driver_->Resume(id);
    ASSERT_OK(resumed);
    ASSERT_TRUE(std::holds_alternative<InvoiceQueued>(resumed->state)) << StateOf(*resumed);
    EXPECT_EQ(Prints(id, Slip::kProvisionalReceipt).size(), 1u);
    auto row = outbox_->GetByKey(AttemptTag(id, 1));
    ASSERT_OK(row);
    EXPECT_EQ(row->state, offline::OutboxState::kUnknown) << "looked up before any send";

    Restart(/*bank_reachable=*/true);
    ASSERT_OK(driver_->Resume(id));
    const offline::DrainerStats stats = Drain();
    EXPECT_EQ(stats.lookups, 1);
    EXPECT_EQ(stats.sent, crash_at == 2 ? 1 : 0) << "sent only when the bank had nothing";
    EXPECT_EQ(AtBank("invoice", id), 1u) << "exactly one invoice";
    Sale sale = *driver_->Reconcile(id);
    ASSERT_TRUE(std::holds_alternative<PayLater>(sale.state)) << StateOf(sale);
    EXPECT_EQ(std::get<PayLater>(sale.state).invoice.id, Listed("invoice", SaleTag(id))[0]["id"].get<std::string>());
  }
}

// A cancel asked for while the bank is unreachable is queued ("requested, queued"); a restart
// does not re-send it beside the outbox; when the bank confirms, the sale is Voided.
TEST_F(OfflineQueueE2E, CancelQueuedOfflineVoidsTheSaleWhenTheBankConfirms) {
  Restart(/*bank_reachable=*/true);
  const std::string id = NewSaleId();
  ASSERT_OK(driver_->Open(id, 3000, settings_));
  ASSERT_TRUE(std::holds_alternative<ShowingInvoice>(Fed(id, ChooseMethod{Method::kInvoice, customer_, Now()}).state));
  ASSERT_TRUE(std::holds_alternative<PayLater>(Fed(id, KeepOpen{Now()}).state));

  Restart(/*bank_reachable=*/false);
  ASSERT_OK(driver_->Resume(id));
  Sale sale = Fed(id, Cancel{"op-7", "customer changed their mind", Now()});
  const auto* canceling = std::get_if<CancelingInvoice>(&sale.state);
  ASSERT_TRUE(canceling) << StateOf(sale);
  EXPECT_FALSE(canceling->queued_key.empty());
  ASSERT_FALSE(Shown(id, Screen::kQueued).empty());
  EXPECT_NE(Shown(id, Screen::kQueued).back().message.find("requested, queued"), std::string::npos);
  EXPECT_EQ(InvoiceStatusAtBank(id), "created");

  Restart(/*bank_reachable=*/true);
  sale = *driver_->Resume(id);
  ASSERT_TRUE(std::holds_alternative<CancelingInvoice>(sale.state)) << StateOf(sale);
  EXPECT_EQ(InvoiceStatusAtBank(id), "created") << "only the outbox sends a queued PATCH";
  EXPECT_EQ(Drain().done, 1);
  EXPECT_EQ(InvoiceStatusAtBank(id), "canceled");
  sale = *driver_->Reconcile(id);
  const auto* voided = std::get_if<Voided>(&sale.state);
  ASSERT_TRUE(voided) << StateOf(sale);
  EXPECT_EQ(voided->operator_id, "op-7");
  EXPECT_EQ(journal_->Sale(id)->final_state, "Voided");
}

// A cancel asked for while the invoice itself is still queued: it cannot be canceled before it
// exists, so the sale notes it and cancels the invoice as soon as the outbox created it.
TEST_F(OfflineQueueE2E, CancelOfAQueuedInvoiceIsAppliedOnceTheInvoiceExists) {
  Restart(/*bank_reachable=*/false);
  const std::string id = NewSaleId();
  ASSERT_OK(driver_->Open(id, 2500, settings_));
  ASSERT_TRUE(std::holds_alternative<InvoiceQueued>(Fed(id, ChooseMethod{Method::kInvoice, customer_, Now()}).state));
  Sale sale = Fed(id, Cancel{"op-7", "wrong customer", Now()});
  ASSERT_TRUE(std::holds_alternative<InvoiceQueued>(sale.state)) << StateOf(sale);
  EXPECT_EQ(std::get<InvoiceQueued>(sale.state).cancel_operator, "op-7");

  Restart(/*bank_reachable=*/true);
  EXPECT_EQ(Drain().done, 1);
  sale = *driver_->Reconcile(id);  // what OnSettled leads to: the sale is resumed, then reconciled
  ASSERT_TRUE(std::holds_alternative<Voided>(sale.state)) << StateOf(sale);
  EXPECT_EQ(InvoiceStatusAtBank(id), "canceled");
  EXPECT_TRUE(Prints(id, Slip::kInvoiceSlip).empty()) << "a canceled invoice is not printed";
}

// A reversal asked for while the bank is unreachable is queued and applied when it is back:
// the sale stays "reversing" (queued) meanwhile, then holds the lower amount.
TEST_F(OfflineQueueE2E, ReversalQueuedOfflineIsAppliedWhenTheBankIsBack) {
  Restart(/*bank_reachable=*/true);
  const std::string id = NewSaleId();
  ASSERT_OK(driver_->Open(id, 1800, settings_));
  Sale sale = Fed(id, ChooseMethod{Method::kPix, {}, Now()});
  const auto* pix = std::get_if<ShowingPix>(&sale.state);
  ASSERT_TRUE(pix) << StateOf(sale);
  ASSERT_EQ(api().Sim("/sandbox/dynamic-brcode/pay", {{"uuid", pix->brcode.uuid}}).status, 200);
  ASSERT_TRUE(std::holds_alternative<Paid>(Settle(id).state));

  Restart(/*bank_reachable=*/false);
  ASSERT_OK(driver_->Resume(id));
  sale = Fed(id, Reverse{500, "op-7", "one item returned", Now()});
  const auto* reversing = std::get_if<Reversing>(&sale.state);
  ASSERT_TRUE(reversing) << StateOf(sale);
  EXPECT_FALSE(reversing->queued_key.empty());
  EXPECT_EQ(sale.collected(), 1800);

  Restart(/*bank_reachable=*/true);
  ASSERT_OK(driver_->Resume(id));
  EXPECT_EQ(Drain().done, 1);
  sale = *driver_->Reconcile(id);
  ASSERT_TRUE(std::holds_alternative<Paid>(sale.state)) << StateOf(sale);
  EXPECT_EQ(sale.collected(), 1300);
  EXPECT_EQ(Prints(id, Slip::kRefundReceipt).size(), 1u);
}

}  // namespace
}  // namespace balcao::checkout::e2e
