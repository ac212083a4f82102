// SIGKILL at every point of a sale queued while offline: a child process (kill_child.h), told the box is
// offline, opens a sale, chooses the invoice (queued in the outbox, with its journal event in
// the same transaction) and then cancels it (noted until the invoice exists); it SIGKILLs
// itself right after its k-th journal write or bank call. A restarted process, with the bank
// back, resumes the sale, drains the outbox and finishes the cashier's intent. Whatever k:
// the sale ends Voided, at most one invoice exists for it and, if one does, it is canceled;
// no outbox row of the sale is left unsettled.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "offline/store.h"
#include "tests/checkout/kill_child.h"
#include "tests/checkout/offline_fixture.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::StatusIs;

namespace balcao::checkout::e2e {
namespace {

// The killed child's flow (tests/checkout/kill_child.h): offline, an invoice queued, then canceled.
const bool kOfflineFlow = RegisterChildFlow("offline-invoice-cancel", [](Driver& d, const ChildContext& c) {
  auto store = offline::Store::Open(c.db);  // the child's outbox: a second handle on the file
  if (!store.ok()) return;
  offline::Outbox outbox(**store);
  d.SetOutbox(&outbox);
  d.SetBankOnline(false);
  if (!d.Open(c.sale_id, 2100, c.settings).ok()) return;
  d.Feed(c.sale_id, ChooseMethod{Method::kInvoice, {"Maria da Silva", "337.451.076-08"}, c.clock.Now()})
      .IgnoreError();  // the kill test checks the outcome
  d.Feed(c.sale_id, Cancel{"op-7", "customer left without buying", c.clock.Now()})
      .IgnoreError();  // the kill test checks the outcome
});

TEST_F(OfflineE2E, SaleQueuedOfflineSurvivesSigkillAtEveryPoint) {
  int k = 1;
  int kills = 0;
  for (;; ++k) {
    SCOPED_TRACE("SIGKILL at hook point " + std::to_string(k));
    const std::string id = NewSaleId();
    outbox_.reset();
    const bool killed = RunChildKilledAt(k, "offline-invoice-cancel", id);
    kills += killed;
    Restart(/*bank_reachable=*/true);
    auto resumed = driver_->Resume(id);
    if (!resumed.ok()) {  // killed before Start reached the journal
      EXPECT_THAT(resumed, StatusIs(StatusCode::kNotFound));
      continue;
    }
    (void)Drain();
    Sale sale = *driver_->Reconcile(id);
    if (!std::holds_alternative<Voided>(sale.state) && !std::holds_alternative<InvoiceQueued>(sale.state)) {
      // The cancel never reached the journal: the cashier asks again.
      sale = Fed(id, Cancel{"op-7", "customer left without buying", Now()});
    }
    EXPECT_TRUE(std::holds_alternative<Voided>(sale.state)) << StateOf(sale);
    const Json invoices = Listed("invoice", SaleTag(id));
    ASSERT_LE(invoices.size(), 1u) << "never two invoices for one sale";
    if (invoices.size() == 1) {
      EXPECT_EQ(invoices[0]["status"].get<std::string>(), "canceled");
    }
    auto rows = outbox_->List(std::nullopt, 10, id);
    ASSERT_OK(rows);
    for (const offline::OutboxItem& row : *rows) {
      EXPECT_EQ(row.state, offline::OutboxState::kDone) << row.request.key;
    }
    if (!killed || k >= 20 || HasFatalFailure()) break;
  }
  std::cout << "[ killed   ] " << kills << " times, at every hook point of the flow\n";
  EXPECT_EQ(kills, k - 1) << "the child dies at each point until the flow ends undisturbed";
  EXPECT_GE(kills, 5) << "Start, ChooseMethod, the queueing, Queued, Cancel";
}

}  // namespace
}  // namespace balcao::checkout::e2e
