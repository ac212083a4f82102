// The bank event intake end to end: sales whose polls are an hour apart become Paid only
// through bank events, taken either as webhook deliveries (the exact body and Digital-Signature
// the sandbox sent, checked by api::EventVerifier) or from GET /v2/event; delivered twice and in
// reverse order they change nothing; a Pix paid after the sale was voided is flagged to the
// operator once; events of no sale on this box are ignored; a card purchase's confirmation
// arrives as an event, after which it can be reversed partly and then fully; with the record
// of applied events, an event taken once is not fed again, by webhook or by the catch-up.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "api/events.h"
#include "checkout/driver/intake.h"
#include "offline/applied_events.h"
#include "tests/checkout/driver_fixture.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::StatusIs;

namespace balcao::checkout {
namespace {

using e2e::DriverE2E;
using e2e::Json;
using e2e::StateOf;

class IntakeE2E : public DriverE2E {
 protected:
  void SetUp() override {
    DriverE2E::SetUp();
    settings_.poll_interval_s = 3600;  // nothing but events can tell these sales they were paid
    auto hook = api().Post("/v2/webhook", {{"url", "http://127.0.0.1:9/balcao-webhook"},
                                           {"subscriptions", {"deposit", "invoice", "merchant-purchase"}}});
    ASSERT_EQ(hook.status, 200) << hook.body;
    webhook_id_ = hook.json["webhook"]["id"].get<std::string>();
    auto client = api::Client::FromEnvironment(sandbox().credentials().credentials_path);
    ASSERT_OK(client);
    bank_ = std::make_unique<api::Bank>(*client);
    verifier_ = std::make_unique<api::EventVerifier>([bank = *bank_] { return bank.FetchPublicKeyPem(); });
    intake_ = std::make_unique<Intake>(*driver_, *bank_, clock_);
  }
  void TearDown() override {
    api().Delete("/v2/webhook/" + webhook_id_);
    intake_.reset();
    DriverE2E::TearDown();
  }

  // The deliveries made to our webhook so far (body and signature as sent), oldest first.
  std::vector<api::Event> Delivered() {
    auto reply = api().Raw("GET", "/sandbox/webhook-deliveries");
    EXPECT_EQ(reply.status, 200);
    std::vector<api::Event> events;
    for (const Json& d : reply.json["deliveries"]) {
      if (d["webhookId"] != webhook_id_) continue;
      auto event = verifier_->Parse(d["body"].get<std::string>(), d["signature"].get<std::string>());
      EXPECT_OK(event);
      if (event.ok()) events.push_back(*event);
    }
    return events;
  }
  // Takes each event (a delivery, or an element of GET /v2/event); returns how many were
  // applied to `sale_id`.
  template <typename BankEvent>
  int TakeAll(const std::vector<BankEvent>& events, const std::string& sale_id) {
    int applied = 0;
    for (const BankEvent& event : events) {
      auto taken = intake_->Take(event);
      EXPECT_OK(taken);
      if (taken.ok() && taken->sale_id == sale_id) {
        EXPECT_NE(taken->outcome, IntakeOutcome::kNotYet) << taken->reason;
        applied += taken->outcome == IntakeOutcome::kApplied;
      }
    }
    return applied;
  }
  template <typename BankEvent>
  std::vector<BankEvent> Twice(std::vector<BankEvent> events) {
    std::vector<BankEvent> both = events;
    std::reverse(events.begin(), events.end());
    both.insert(both.end(), events.begin(), events.end());
    return both;
  }
  ShowingPix StartPix(const std::string& id, Cents amount) {
    EXPECT_OK(driver_->Open(id, amount, settings_));
    Sale sale = Fed(id, ChooseMethod{Method::kPix, {}, Now()});
    const auto* pix = std::get_if<ShowingPix>(&sale.state);
    EXPECT_TRUE(pix) << StateOf(sale);
    return pix ? *pix : ShowingPix{};
  }

  std::string webhook_id_;
  std::unique_ptr<api::Bank> bank_;
  std::unique_ptr<api::EventVerifier> verifier_;
  std::unique_ptr<Intake> intake_;
};

TEST_F(IntakeE2E, PixPaidThroughWebhookDeliveriesOnly) {
  const std::string id = NewSaleId();
  const ShowingPix pix = StartPix(id, 1234);
  ASSERT_EQ(api().Sim("/sandbox/dynamic-brcode/pay", {{"uuid", pix.brcode.uuid}}).status, 200);
  const std::vector<api::Event> events = Delivered();
  EXPECT_GE(TakeAll(events, id), 1);
  Sale paid = *driver_->Get(id);
  ASSERT_TRUE(std::holds_alternative<Paid>(paid.state)) << StateOf(paid);
  EXPECT_EQ(paid.collected(), 1234);
  EXPECT_EQ(Prints(id, Slip::kSaleReceipt).size(), 1u);
  // No poll ran: the deposit came from the delivery.
  auto entries = journal_->Read(id);
  ASSERT_OK(entries);
  for (const auto& entry : *entries) EXPECT_NE(entry.kind, "TimerFired");
  // The same deliveries again, twice and in reverse order: nothing changes.
  TakeAll(Twice(events), id);
  EXPECT_EQ(*driver_->Get(id), paid);
  EXPECT_EQ(Prints(id, Slip::kSaleReceipt).size(), 1u);
  EXPECT_TRUE(Flags(id).empty());
}

TEST_F(IntakeE2E, InvoicePaidThroughGetEventOnly) {
  const std::string id = NewSaleId();
  ASSERT_OK(driver_->Open(id, 5000, settings_));
  Sale sale = Fed(id, ChooseMethod{Method::kInvoice, {"Maria da Silva", "337.451.076-08"}, Now()});
  const auto* invoice = std::get_if<ShowingInvoice>(&sale.state);
  ASSERT_TRUE(invoice) << StateOf(sale);
  ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", invoice->invoice.id}}).status, 200);
  std::vector<api::BankEvent> events;
  for (const auto& listed : bank_->event().List(api::ListParams().Limit(200))) {
    ASSERT_OK(listed);
    events.push_back(*listed);
  }
  std::reverse(events.begin(), events.end());  // the bank lists newest first
  EXPECT_GE(TakeAll(events, id), 2);           // created, paid, credited
  Sale paid = *driver_->Get(id);
  ASSERT_TRUE(std::holds_alternative<Paid>(paid.state)) << StateOf(paid);
  EXPECT_EQ(paid.collected(), 5000);
  TakeAll(Twice(events), id);
  EXPECT_EQ(*driver_->Get(id), paid);
  EXPECT_EQ(Prints(id, Slip::kSaleReceipt).size(), 1u);
}

TEST_F(IntakeE2E, PixPaidAfterVoidIsFlaggedOnce) {
  const std::string id = NewSaleId();
  const ShowingPix pix = StartPix(id, 800);
  Sale voided = Fed(id, Cancel{"op-2", "customer walked away", Now()});
  ASSERT_TRUE(std::holds_alternative<Voided>(voided.state)) << StateOf(voided);
  // The customer's bank pays the QR anyway (the brcode has not expired at the bank).
  ASSERT_EQ(api().Sim("/sandbox/dynamic-brcode/pay", {{"uuid", pix.brcode.uuid}}).status, 200);
  TakeAll(Twice(Delivered()), id);
  Sale after = *driver_->Get(id);
  EXPECT_TRUE(std::holds_alternative<Voided>(after.state)) << StateOf(after);
  EXPECT_EQ(after.collected(), 0);
  EXPECT_EQ(after.late_outstanding(), 800);
  const std::vector<FlagOperator> flags = Flags(id);
  ASSERT_EQ(flags.size(), 1u) << "flagged once, however often the event comes";
  EXPECT_EQ(flags[0].amount, 800);
  EXPECT_EQ(flags[0].entity_id, Listed("deposit", BrcodeDepositTag(pix.brcode.uuid))[0]["id"].get<std::string>());
  // The operator returns it; the bank applies the PATCH but its answer is lost: the operator
  // is told, and the second try finds the deposit already at 0 (read back, not refused).
  Fault("PATCH /v2/deposit/{id}");
  Sale unsure = Fed(id, ReturnLateMoney{flags[0].entity_id, "op-2", "Pix paid after cancel", Now()});
  EXPECT_EQ(Listed("deposit", BrcodeDepositTag(pix.brcode.uuid))[0]["amount"].get<Cents>(), 0);
  EXPECT_EQ(unsure.late_outstanding(), 800) << "the sale cannot know yet";
  ASSERT_EQ(Flags(id).size(), 2u);
  EXPECT_NE(Flags(id)[1].reason.find("late money not returned"), std::string::npos);
  Sale returned = Fed(id, ReturnLateMoney{flags[0].entity_id, "op-2", "Pix paid after cancel", Now()});
  EXPECT_EQ(returned.late_outstanding(), 0);
  EXPECT_EQ(LedgerOf(BrcodeDepositTag(pix.brcode.uuid)).debits, 1) << "returned once";
}

// An event naming no sale is ignored (and acknowledged); one naming a sale this box never
// journaled is another box's: left alone, never acknowledged (docs/adr/0006-lane-event-intake.md).
TEST_F(IntakeE2E, EventsOfNoSaleOnThisBoxAreIgnored) {
  ASSERT_EQ(api().Sim("/sandbox/deposit", {{"amount", 700}}).status, 200);  // a passive cash-in
  auto other = api().Post(
      "/v2/invoice",
      {{"invoices",
        {{{"amount", 900}, {"name", "Outra Loja"}, {"taxId", "337.451.076-08"}, {"tags", {"sale/not-on-this-box"}}}}}});
  ASSERT_EQ(other.status, 200) << other.body;
  std::set<std::string> ignored, foreign;
  for (const api::Event& event : Delivered()) {
    auto taken = intake_->Take(event);
    ASSERT_OK(taken);
    ASSERT_TRUE(taken->outcome == IntakeOutcome::kIgnored || taken->outcome == IntakeOutcome::kForeign)
        << Name(taken->outcome);
    (taken->outcome == IntakeOutcome::kIgnored ? ignored : foreign)
        .insert(taken->reason.substr(0, taken->reason.find(' ')));
  }
  EXPECT_TRUE(ignored.count("deposit")) << "the cash-in pays no brcode";
  EXPECT_TRUE(foreign.count("invoice")) << "sale not-on-this-box has no journal here";
}

// The invoice's create answer is lost and the lookup fails, so the sale does not know its
// invoice yet when the customer pays it: the events are "not yet" (the webhook answers an
// error, the bank delivers again); once the lookup found the invoice, the same events pay it.
TEST_F(IntakeE2E, EventsBeforeTheLookupCaughtUpAreTakenOnRedelivery) {
  Fault("POST /v2/invoice");
  ASSERT_EQ(api().Sim("/sandbox/faults", {{"GET /v2/invoice", {"http-500", "http-500", "http-500"}}}).status, 200);
  const std::string id = NewSaleId();
  ASSERT_OK(driver_->Open(id, 3100, settings_));
  Sale verifying = Fed(id, ChooseMethod{Method::kInvoice, {"Maria da Silva", "337.451.076-08"}, Now()});
  ASSERT_TRUE(std::holds_alternative<VerifyingInvoice>(verifying.state)) << StateOf(verifying);
  const Json invoices = Listed("invoice", SaleTag(id));
  ASSERT_EQ(invoices.size(), 1u);
  ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", invoices[0]["id"]}}).status, 200);
  const std::vector<api::Event> events = Delivered();
  ASSERT_FALSE(events.empty());
  for (const api::Event& event : events) {
    auto taken = intake_->Take(event);
    ASSERT_OK(taken);
    EXPECT_EQ(taken->outcome, IntakeOutcome::kNotYet) << "the sale cannot know this invoice yet";
    EXPECT_EQ(taken->sale_id, id);
  }
  Sale showing = RunUntil(id, [](const Sale& s) { return !std::holds_alternative<VerifyingInvoice>(s.state); });
  ASSERT_TRUE(std::holds_alternative<ShowingInvoice>(showing.state)) << StateOf(showing);
  EXPECT_GE(TakeAll(events, id), 1);  // the bank's next delivery
  Sale paid = *driver_->Get(id);
  ASSERT_TRUE(std::holds_alternative<Paid>(paid.state)) << StateOf(paid);
  EXPECT_EQ(paid.collected(), 3100);
  EXPECT_EQ(AtBank("invoice", id), 1u);
}

// A card purchase is approved, confirmed by the bank 30 s (sandbox time) later, and the
// sale learns it from the event; then it is reversed partly, then fully (PATCH reversed).
TEST_F(IntakeE2E, ConfirmedPurchaseReversedPartlyThenFully) {
  const std::string id = NewSaleId();
  ASSERT_OK(driver_->Open(id, 3000, settings_));
  Fed(id, ChooseMethod{Method::kCard, {}, Now()});
  auto sale = driver_->SubmitCard(id, Card("4242424242424242"), FundingType::kCredit, 1, e2e::TestBrowser());
  ASSERT_OK(sale);
  ASSERT_TRUE(std::holds_alternative<Paid>(sale->state));
  // Unconfirmed, only a full cancel is allowed.
  auto partial = driver_->Feed(id, Reverse{1000, "op-5", "one item back", Now()});
  EXPECT_THAT(partial, StatusIs(StatusCode::kFailedPrecondition));
  AdvanceSandbox(31);
  TakeAll(Delivered(), id);
  Sale confirmed = *driver_->Get(id);
  ASSERT_TRUE(std::get<Paid>(confirmed.state).payment.confirmed);
  Sale part = Fed(id, Reverse{1000, "op-5", "one item back", Now()});
  EXPECT_TRUE(std::holds_alternative<Paid>(part.state)) << StateOf(part);
  EXPECT_EQ(part.collected(), 2000);
  Sale full = Fed(id, Reverse{2000, "op-5", "the rest back", Now()});
  EXPECT_TRUE(std::holds_alternative<Refunded>(full.state)) << StateOf(full);
  EXPECT_EQ(full.collected(), 0);
  const Json purchase = Listed("merchant-purchase", SaleTag(id))[0];
  EXPECT_EQ(purchase["status"], "voided");
  EXPECT_EQ(purchase["amount"], 0);
  const Ledger ledger = LedgerOf(SaleTag(id));
  EXPECT_EQ(ledger.net, 0);
  EXPECT_EQ(ledger.credits, 1);
  EXPECT_EQ(ledger.debits, 2);
  // The reversal events (and the older ones again) change nothing and flag nothing.
  TakeAll(Twice(Delivered()), id);
  EXPECT_EQ(*driver_->Get(id), full);
  EXPECT_TRUE(Flags(id).empty());
  EXPECT_EQ(Prints(id, Slip::kRefundReceipt).size(), 2u);
}

// With the store's record of applied events: an event is fed once, whichever way it comes
// again (a replayed delivery, the same event from GET /v2/event); the catch-up still marks it
// delivered. An event fed but not recorded (a crash in between) is fed once more on its next
// delivery, which the sale takes as a duplicate (one more journal row, nothing else), and
// recorded then.
TEST_F(IntakeE2E, AnEventTakenOnceIsReplayedWhicheverWayItComesAgain) {
  offline::AppliedEvents applied(*store_, clock_);
  const std::string id = NewSaleId();
  const ShowingPix pix = StartPix(id, 1500);
  ASSERT_EQ(api().Sim("/sandbox/dynamic-brcode/pay", {{"uuid", pix.brcode.uuid}}).status, 200);
  const std::vector<api::Event> events = Delivered();
  ASSERT_FALSE(events.empty());

  // The first event is fed before the crash but never recorded.
  ASSERT_OK(intake_->Take(events.front()));
  const std::size_t rows_before_restart = journal_->Read(id)->size();
  intake_->SetAppliedEvents(&applied);
  EXPECT_GE(TakeAll(events, id), 1);
  Sale paid = *driver_->Get(id);
  ASSERT_TRUE(std::holds_alternative<Paid>(paid.state)) << StateOf(paid);
  EXPECT_GT(journal_->Read(id)->size(), rows_before_restart) << "the unrecorded event was fed again";
  for (const api::Event& event : events) {
    auto seen = applied.Find(event.id);
    ASSERT_OK(seen) << event.id;
    ASSERT_TRUE(seen->has_value()) << event.id << " not recorded";
  }

  const std::size_t rows = journal_->Read(id)->size();
  for (const api::Event& event : Twice(events)) {
    auto taken = intake_->Take(event);
    ASSERT_OK(taken);
    EXPECT_EQ(taken->outcome, IntakeOutcome::kReplayed);
  }
  // The webhook never reached (127.0.0.1:9): the catch-up reads the same events from the bank.
  auto caught_up = intake_->CatchUp();
  ASSERT_OK(caught_up);
  EXPECT_EQ(*caught_up, 0) << "nothing applied a second time";
  EXPECT_EQ(journal_->Read(id)->size(), rows) << "a replay reached the journal";
  EXPECT_EQ(*driver_->Get(id), paid);
  EXPECT_EQ(Prints(id, Slip::kSaleReceipt).size(), 1u);
  auto left = bank_->event().ListPage(api::ListParams().Filter("isDelivered", "false").Limit(100));
  ASSERT_OK(left);
  for (const api::BankEvent& event : left->items)
    for (const api::Event& taken : events) EXPECT_NE(event.id.value_or(""), taken.id) << "not marked delivered";
}

}  // namespace
}  // namespace balcao::checkout

namespace balcao::checkout {
namespace {

// Two lanes of one store on one account: this box (lane caixa-1) takes the events of its
// own sale, by delivery and by catch-up, and leaves lane caixa-2's invoice events alone: not
// fed, and still undelivered at the bank after this box's catch-up, for caixa-2 to take.
TEST_F(IntakeE2E, AnotherLanesEventsAreNeitherTakenNorAcknowledged) {
  const std::string mine = LaneRoot("loja-1", "caixa-1");
  settings_.lane = mine;
  intake_->SetLane(mine);
  const std::string id = NewSaleId();
  ASSERT_OK(driver_->Open(id, 4100, settings_));
  Fed(id, ChooseMethod{Method::kInvoice, {"Maria da Silva", "337.451.076-08"}, Now()});
  const Json own = Listed("invoice", SaleTag(mine, id));
  ASSERT_EQ(own.size(), 1u) << "the invoice carries the lane's sale tag";
  const Json own_tags = own[0]["tags"];
  for (const std::string& tag : {std::string("store/loja-1"), mine, AttemptTag(mine, id, 1)})
    EXPECT_NE(std::find(own_tags.begin(), own_tags.end(), Json(tag)), own_tags.end()) << tag;
  EXPECT_TRUE(Listed("invoice", SaleTag(id)).empty()) << "no tag of the old layout on a lane's sale";

  const std::string theirs = LaneRoot("loja-1", "caixa-2");
  auto other = api().Post("/v2/invoice", {{"invoices",
                                           {{{"amount", 900},
                                             {"name", "Outra Caixa"},
                                             {"taxId", "337.451.076-08"},
                                             {"tags", EntityTags(theirs, "v-other-1", 1)}}}}});
  ASSERT_EQ(other.status, 200) << other.body;
  const std::string other_id = other.json["invoices"][0]["id"].get<std::string>();
  ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", own[0]["id"]}}).status, 200);
  ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", other_id}}).status, 200);

  int foreign = 0;
  for (const api::Event& event : Delivered()) {
    auto taken = intake_->Take(event);
    ASSERT_OK(taken);
    if (taken->outcome == IntakeOutcome::kForeign) {
      ++foreign;
      EXPECT_NE(taken->reason.find(theirs), std::string::npos) << taken->reason;
    }
  }
  EXPECT_GE(foreign, 2) << "caixa-2's invoice: created and paid";
  EXPECT_TRUE(std::holds_alternative<Paid>(driver_->Get(id)->state)) << StateOf(*driver_->Get(id));

  auto caught_up = intake_->CatchUp(2);  // pages of 2: every page is read
  ASSERT_OK(caught_up);
  EXPECT_GE(intake_->foreign_left(), 2);
  auto left = bank_->event().ListPage(api::ListParams().Filter("isDelivered", "false").Limit(100));
  ASSERT_OK(left);
  int theirs_left = 0, mine_left = 0;
  for (const api::BankEvent& event : left->items) {
    const std::string text = api::ToJsonText(event);
    theirs_left += text.find(theirs + "/sale/") != std::string::npos;
    mine_left += text.find(mine + "/sale/") != std::string::npos;
  }
  EXPECT_EQ(mine_left, 0) << "this lane's events were marked delivered";
  EXPECT_GE(theirs_left, 2) << "caixa-2's events are still undelivered for caixa-2";
}

TEST(LaneTags, LayoutAndParsing) {
  const std::string lane = LaneRoot("loja-1", "caixa-03");
  EXPECT_EQ(lane, "store/loja-1/lane/caixa-03");
  EXPECT_EQ(EntityTags(lane, "v1", 2),
            (std::vector<std::string>{"store/loja-1", lane, lane + "/sale/v1", lane + "/sale/v1/a2"}));
  EXPECT_EQ(EntityTags("", "v1", 2), (std::vector<std::string>{"sale/v1", "sale/v1/a2"}));
  const TaggedSale tagged = SaleOfTags(EntityTags(lane, "v1", 2));
  EXPECT_EQ(tagged.store, "loja-1");
  EXPECT_EQ(tagged.terminal, "caixa-03");
  EXPECT_EQ(tagged.sale_id, "v1");
  EXPECT_EQ(tagged.lane(), lane);
  const TaggedSale old = SaleOfTags({"sale/v2/a1", "sale/v2"});
  EXPECT_EQ(old.sale_id, "v2");
  EXPECT_TRUE(old.store.empty());
  EXPECT_EQ(SaleIdFromTags({"dynamic-brcode/abc"}), "");
  EXPECT_EQ(LaneIdRule("caixa-1"), "");
  EXPECT_NE(LaneIdRule("Caixa"), "");
  EXPECT_NE(LaneIdRule("a/b"), "");
  EXPECT_NE(LaneIdRule("-a"), "");
  EXPECT_NE(LaneIdRule(""), "");
  EXPECT_NE(LaneIdRule(std::string(25, 'a')), "");
}

}  // namespace
}  // namespace balcao::checkout
