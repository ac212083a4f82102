// Every row of the transition table, checked: a sale is driven into the row's state, the
// row's event is applied, and the test asserts that exactly that row fired, that the next
// state is the row's, and that the effects are the ones the row (and docs/checkout.md)
// lists. Then: every row is covered, every (state, event) pair without a row is rejected
// with a reason, and the docs embed the table as the code has it.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "checkout/checkout.h"
#include "checkout/resume.h"
#include "tests/checkout/scenarios.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::StatusIs;

namespace balcao::checkout {
namespace {

using namespace testing;  // NOLINT: test fixtures
using PS = PurchaseStatus;
using IS = InvoiceStatus;

struct Case {
  std::string state;
  std::vector<Event> extra;  // after PathTo(state)
  Event event;
  std::string from;  // row's state ("(any)" for any-state rows)
  std::string guard;
  Method paid_by = Method::kCard;
};

const Event kLateDepositAfterVoid = Deposit("d1", "u1");
const Event kReturnD1 = ReturnLateMoney{"d1", "op-7", "customer asked", kT0 + 90 * kSec};

std::vector<Case> Cases() {
  const Event denied = Purchase(1, "p1", PS::kDenied);
  const Event approved = Purchase(1, "p1", PS::kApproved);
  const Event pending = Purchase(1, "p1", PS::kPending);
  const Event retry_timer = Fired(Timer::kLookupRetry);
  const std::vector<Event> pix_expired = {Found(EntityKind::kDeposit)};
  const std::vector<Event> challenge_lapsed = {pending, Fired(Timer::kSessionExpiry, kT0 + 600 * kSec),
                                               Purchase(1, "p1", PS::kPending, kAmount, kT0 + 601 * kSec)};
  const std::vector<Event> late_d1 = {Cancelled(), kLateDepositAfterVoid};
  const Method pix = Method::kPix, inv = Method::kInvoice;
  return {
      {"NotStarted", {}, StartSale(), "NotStarted", "ValidStart"},
      {"ChoosingMethod", {}, Choose(Method::kCard), "ChoosingMethod", "MethodIsCard"},
      {"ChoosingMethod", {}, Choose(Method::kPix), "ChoosingMethod", "MethodIsPix"},
      {"ChoosingMethod", {}, Choose(Method::kInvoice), "ChoosingMethod", "MethodIsInvoice"},
      {"Charging", {denied}, Retry{kT0 + 40 * kSec}, "ChoosingMethod", "LastWasCard"},
      {"ClosingPix", pix_expired, Retry{kT0 + 700 * kSec}, "ChoosingMethod", "LastWasPix"},
      {"ClosingPix", pix_expired, FallbackToInvoice{TestCustomer(), kT0 + 700 * kSec}, "ChoosingMethod",
       "AfterFailedAttempt"},
      {"ChoosingMethod", {}, Cancelled(), "ChoosingMethod", "Signed"},
      {"Charging", challenge_lapsed, approved, "ChoosingMethod", "LateChargeOfThisSale"},
      {"ClosingPix", pix_expired, Deposit("d1", "u1"), "ChoosingMethod", "LateDepositOfThisSale"},
      {"CreatingSession", {}, SessionOk(), "CreatingSession", "ForAttempt"},
      {"CreatingSession", {}, Failed(Call::kCreateSession, Failure::kRejected), "CreatingSession", "CreateRefused"},
      {"CreatingSession",
       {},
       Failed(Call::kCreateSession, Failure::kOutcomeUnknown),
       "CreatingSession",
       "CreateUnknown"},
      {"VerifyingSession", {}, SessionOk(), "VerifyingSession", "ForAttempt"},
      {"VerifyingSession", {}, Found(EntityKind::kSession), "VerifyingSession", "LookupFoundNothing"},
      {"VerifyingSession", {}, Failed(Call::kLookup, Failure::kNotSent), "VerifyingSession", "LookupFailed"},
      {"VerifyingSession", {Failed(Call::kLookup, Failure::kNotSent)}, retry_timer, "VerifyingSession", "RetryDue"},
      {"AwaitingCard", {}, Card(), "AwaitingCard", "CardAcceptable"},
      {"AwaitingCard", {}, Fired(Timer::kSessionExpiry), "AwaitingCard", "SessionExpired"},
      {"AwaitingCard", {}, Cancelled(), "AwaitingCard", "Signed"},
      {"AwaitingCard", {}, Fired(Timer::kPoll, kT0 + 5 * kSec), "AwaitingCard", "PollDue"},
      {"AwaitingCard", {}, Found(EntityKind::kPurchase), "AwaitingCard", "PhonePurchaseNotYet"},
      {"AwaitingCard", {}, Failed(Call::kLookup, Failure::kOutcomeUnknown), "AwaitingCard", "LookupFailed"},
      {"AwaitingCard", {}, approved, "AwaitingCard", "ChargedNow"},
      {"AwaitingCard", {}, denied, "AwaitingCard", "RefusedNow"},
      {"AwaitingCard", {}, pending, "AwaitingCard", "InProgressNow"},
      {"Charging", {}, approved, "Charging", "ChargedNow"},
      {"Charging", {}, denied, "Charging", "RefusedNow"},
      {"Charging", {}, pending, "Charging", "InProgressNow"},
      {"Charging", {}, Failed(Call::kCreatePurchase, Failure::kRejected), "Charging", "CreateRefused"},
      {"Charging", {}, Failed(Call::kCreatePurchase, Failure::kOutcomeUnknown), "Charging", "CreateUnknown"},
      {"VerifyingPurchase", {}, approved, "VerifyingPurchase", "ChargedNow"},
      {"VerifyingPurchase", {}, denied, "VerifyingPurchase", "RefusedNow"},
      {"VerifyingPurchase", {}, pending, "VerifyingPurchase", "InProgressNow"},
      {"VerifyingPurchase", {}, Found(EntityKind::kPurchase), "VerifyingPurchase", "LookupFoundNothing"},
      {"VerifyingPurchase", {}, Failed(Call::kLookup, Failure::kOutcomeUnknown), "VerifyingPurchase", "LookupFailed"},
      {"VerifyingPurchase", {Failed(Call::kLookup, Failure::kNotSent)}, retry_timer, "VerifyingPurchase", "RetryDue"},
      {"Challenge", {}, approved, "Challenge", "ChargedNow"},
      {"Challenge", {}, denied, "Challenge", "RefusedNow"},
      {"Challenge", {}, pending, "Challenge", "InProgressNow"},
      {"Challenge", {}, Fired(Timer::kPoll), "Challenge", "PollDue"},
      {"Challenge", {}, Failed(Call::kPoll, Failure::kNotSent), "Challenge", "PollFailed"},
      {"Challenge", {}, Fired(Timer::kSessionExpiry), "Challenge", "SessionExpired"},
      {"ClosingChallenge", {}, approved, "ClosingChallenge", "ChargedNow"},
      {"ClosingChallenge", {}, pending, "ClosingChallenge", "NotChargedNow"},
      {"ClosingChallenge", {}, Failed(Call::kPoll, Failure::kOutcomeUnknown), "ClosingChallenge", "PollFailed"},
      {"ClosingChallenge", {Failed(Call::kPoll, Failure::kNotSent)}, retry_timer, "ClosingChallenge", "RetryDue"},
      {"CreatingBrcode", {}, BrcodeOk(), "CreatingBrcode", "ForAttempt"},
      {"CreatingBrcode", {}, Failed(Call::kCreateBrcode, Failure::kNotSent), "CreatingBrcode", "CreateRefused"},
      {"CreatingBrcode", {}, Failed(Call::kCreateBrcode, Failure::kOutcomeUnknown), "CreatingBrcode", "CreateUnknown"},
      {"VerifyingBrcode", {}, BrcodeOk(), "VerifyingBrcode", "ForAttempt"},
      {"VerifyingBrcode", {}, Found(EntityKind::kBrcode), "VerifyingBrcode", "LookupFoundNothing"},
      {"VerifyingBrcode", {}, Failed(Call::kLookup, Failure::kRejected), "VerifyingBrcode", "LookupFailed"},
      {"VerifyingBrcode", {Failed(Call::kLookup, Failure::kNotSent)}, retry_timer, "VerifyingBrcode", "RetryDue"},
      {"ShowingPix", {}, Deposit("d1", "u1"), "ShowingPix", "PaysThisBrcode"},
      {"ShowingPix", {}, Fired(Timer::kPoll), "ShowingPix", "PollDue"},
      {"ShowingPix", {}, Found(EntityKind::kDeposit), "ShowingPix", "PollFoundNothing"},
      {"ShowingPix", {}, Failed(Call::kPoll, Failure::kNotSent), "ShowingPix", "PollFailed"},
      {"ShowingPix", {}, PrintCode{kT0 + 9 * kSec}, "ShowingPix", "Always"},
      {"ShowingPix", {}, Fired(Timer::kBrcodeExpiry), "ShowingPix", "BrcodeExpired"},
      {"ShowingPix", {}, Cancelled(), "ShowingPix", "Signed"},
      {"ClosingPix", {}, Deposit("d1", "u1"), "ClosingPix", "PaysThisBrcode"},
      {"ClosingPix", {}, Found(EntityKind::kDeposit), "ClosingPix", "PollFoundNothing"},
      {"ClosingPix", {}, Failed(Call::kPoll, Failure::kNotSent), "ClosingPix", "PollFailed"},
      {"ClosingPix", {Failed(Call::kPoll, Failure::kNotSent)}, retry_timer, "ClosingPix", "RetryDue"},
      {"CreatingInvoice", {}, InvoiceOk(), "CreatingInvoice", "ForAttempt"},
      {"CreatingInvoice", {}, Failed(Call::kCreateInvoice, Failure::kRejected), "CreatingInvoice", "CreateRefused"},
      {"CreatingInvoice",
       {},
       Failed(Call::kCreateInvoice, Failure::kOutcomeUnknown),
       "CreatingInvoice",
       "CreateUnknown"},
      {"VerifyingInvoice", {}, InvoiceOk(), "VerifyingInvoice", "ForAttempt"},
      {"VerifyingInvoice", {}, Found(EntityKind::kInvoice), "VerifyingInvoice", "LookupFoundNothing"},
      {"VerifyingInvoice", {}, Failed(Call::kLookup, Failure::kNotSent), "VerifyingInvoice", "LookupFailed"},
      {"VerifyingInvoice", {Failed(Call::kLookup, Failure::kNotSent)}, retry_timer, "VerifyingInvoice", "RetryDue"},
      {"ShowingInvoice", {}, InvoiceUpdate("i1", IS::kPaid, 1050), "ShowingInvoice", "InvoicePaid"},
      {"ShowingInvoice", {}, InvoiceUpdate("i1", IS::kOverdue), "ShowingInvoice", "InvoiceOpen"},
      {"ShowingInvoice", {}, InvoiceUpdate("i1", IS::kExpired), "ShowingInvoice", "InvoiceClosed"},
      {"ShowingInvoice", {}, Fired(Timer::kPoll), "ShowingInvoice", "PollDue"},
      {"ShowingInvoice", {}, Failed(Call::kPoll, Failure::kOutcomeUnknown), "ShowingInvoice", "PollFailed"},
      {"ShowingInvoice", {}, PrintCode{kT0 + 9 * kSec}, "ShowingInvoice", "Always"},
      {"ShowingInvoice", {}, KeepOpen{kT0 + 9 * kSec}, "ShowingInvoice", "Always"},
      {"ShowingInvoice", {}, Cancelled(), "ShowingInvoice", "Signed"},
      {"PayLater", {}, InvoiceUpdate("i1", IS::kCredited), "PayLater", "InvoicePaid"},
      {"PayLater", {}, InvoiceUpdate("i1", IS::kCreated), "PayLater", "InvoiceOpen"},
      {"PayLater", {}, InvoiceUpdate("i1", IS::kExpired), "PayLater", "InvoiceClosed"},
      {"PayLater", {}, PrintCode{kT0 + 9 * kSec}, "PayLater", "Always"},
      {"PayLater", {}, Cancelled(), "PayLater", "Signed"},
      {"CancelingInvoice", {}, InvoiceUpdate("i1", IS::kCanceled), "CancelingInvoice", "InvoiceClosed"},
      {"CancelingInvoice", {}, InvoiceUpdate("i1", IS::kPaid), "CancelingInvoice", "InvoicePaid"},
      {"CancelingInvoice", {}, InvoiceUpdate("i1", IS::kCreated), "CancelingInvoice", "InvoiceOpen"},
      {"CancelingInvoice", {}, Failed(Call::kCancelInvoice, Failure::kRejected), "CancelingInvoice", "CancelRefused"},
      {"CancelingInvoice",
       {},
       Failed(Call::kCancelInvoice, Failure::kNotSent),
       "CancelingInvoice",
       "CancelNotAnswered"},
      {"CancelingInvoice",
       {Failed(Call::kCancelInvoice, Failure::kNotSent)},
       retry_timer,
       "CancelingInvoice",
       "RetryDue"},
      {"Paid", {}, Purchase(1, "p1", PS::kConfirmed), "Paid", "ConfirmsPayment"},
      {"Paid", {}, ReverseBy(kAmount), "Paid", "ReversalAllowed"},
      // offline: requests waiting in the outbox
      {"CreatingInvoice", {}, QueuedAs(Call::kCreateInvoice), "CreatingInvoice", "QueuedCreate"},
      {"VerifyingInvoice", {}, QueuedAs(Call::kCreateInvoice), "VerifyingInvoice", "QueuedCreate"},
      {"InvoiceQueued", {}, InvoiceOk(), "InvoiceQueued", "QueuedInvoiceCreated"},
      {"InvoiceQueued", {Cancelled()}, InvoiceOk(), "InvoiceQueued", "CancelAsked"},
      {"InvoiceQueued", {}, Failed(Call::kCreateInvoice, Failure::kRejected), "InvoiceQueued", "QueuedCreateRefused"},
      {"InvoiceQueued",
       {Cancelled()},
       Failed(Call::kCreateInvoice, Failure::kNotSent),
       "InvoiceQueued",
       "RefusedAfterCancel"},
      {"InvoiceQueued", {}, Cancelled(), "InvoiceQueued", "Signed"},
      {"InvoiceQueued", {}, PrintCode{kT0 + 9 * kSec}, "InvoiceQueued", "Always"},
      {"CancelingInvoice", {}, QueuedAs(Call::kCancelInvoice), "CancelingInvoice", "QueuedCancel"},
      // offline: a card sealed in the store-and-forward
      {"ChoosingMethod", {}, HeldOffline(), "ChoosingMethod", "OfflineCardAcceptable"},
      {"CardHeld", {}, ForwardedOk(), "CardHeld", "ForwardApproved"},
      {"CardHeld", {}, ForwardedDeclined(), "CardHeld", "ForwardDeclined"},
      {"CardHeld", {}, PrintCode{kT0 + 9 * kSec}, "CardHeld", "Always"},
      {"Reversing", {}, QueuedAs(Call::kReversal), "Reversing", "QueuedReversal"},
      {"Paid", {ReverseBy(400)}, ReversedTo("d1", 600), "Reversing", "ReversalLeavesMoney", pix},
      {"Reversing", {}, ReversedTo("p1", 0), "Reversing", "ReversalLeavesNothing"},
      {"Reversing", {}, Failed(Call::kReversal, Failure::kRejected), "Reversing", "ReversalRefused"},
      {"Reversing", {}, Failed(Call::kReversal, Failure::kOutcomeUnknown), "Reversing", "ReversalNotAnswered"},
      {"Reversing", {Failed(Call::kReversal, Failure::kOutcomeUnknown)}, retry_timer, "Reversing", "RetryDue"},
      {"Reversing", {}, approved, "Reversing", "AboutThePayment"},
      {"Reversing", {}, InvoiceUpdate("i1", IS::kPaid), "Reversing", "AboutThePayment", inv},
      {"Charging", {denied, Choose(Method::kPix)}, approved, "(any)", "LateCharge"},
      {"Paid", {}, Purchase(1, "p1", PS::kReversed, 0), "(any)", "PurchaseReducedElsewhere"},
      {"Paid", {}, approved, "(any)", "PurchaseOfThisSale"},
      {"ShowingPix", {Cancelled()}, kLateDepositAfterVoid, "(any)", "LateDeposit"},
      {"Paid", {}, Deposit("d1", "u1"), "(any)", "DepositAlreadyCounted", pix},
      {"Paid", {}, Deposit("d1", "u1", 700), "(any)", "DepositLoweredAtBank", pix},
      {"ShowingInvoice",
       {Cancelled(), InvoiceUpdate("i1", IS::kCanceled)},
       InvoiceUpdate("i1", IS::kPaid),
       "(any)",
       "LateInvoicePayment"},
      {"Paid", {}, InvoiceUpdate("i1", IS::kPaid, 500), "(any)", "InvoiceReducedElsewhere", inv},
      {"Paid", {}, InvoiceUpdate("i1", IS::kPaid), "(any)", "InvoiceOfThisSale", inv},
      {"ShowingPix", late_d1, kReturnD1, "(any)", "FlaggedAndSigned"},
      {"ShowingPix",
       {Cancelled(), kLateDepositAfterVoid, kReturnD1},
       ReversedTo("d1", 0),
       "(any)",
       "LateMoneyReturned"},
      {"Refunded", {}, ReversedTo("p1", 0), "(any)", "ReversalAlreadyCounted"},
      {"ShowingPix",
       {Cancelled(), kLateDepositAfterVoid, kReturnD1},
       Failed(Call::kLateReturn, Failure::kRejected),
       "(any)",
       "LateReturnFailed"},
  };
}

std::string EffectsText(const std::vector<Effect>& effects) {
  std::string text;
  for (const Effect& e : effects) text += (text.empty() ? "" : "; ") + Describe(e);
  return text.empty() ? "-" : text;
}
// The row's effects column without its note (" — ...").
std::string ListedEffects(const RowInfo& row) {
  std::string text = row.effects;
  const auto note = text.find(" \u2014 ");
  return note == std::string::npos ? text : text.substr(0, note);
}

TEST(TransitionTable, EveryRowFiresAsListed) {
  std::set<int> covered;
  for (const Case& c : Cases()) {
    std::vector<Event> path = PathTo(c.state, c.paid_by);
    path.insert(path.end(), c.extra.begin(), c.extra.end());
    const Sale before = Drive(path);
    const Step step = Next(before, c.event);
    const std::string what = c.from + " + " + EventName(static_cast<int>(c.event.index())) + " [" + c.guard + "]";
    ASSERT_TRUE(step.accepted()) << what << ": " << step.rejection.message();
    const RowInfo& row = Rows()[step.row];
    EXPECT_EQ(StateName(row.from), c.from) << what;
    EXPECT_EQ(row.guard, c.guard) << what;
    const int expected_next = row.to == kSameState ? static_cast<int>(before.state.index()) : row.to;
    EXPECT_EQ(StateName(static_cast<int>(step.sale.state.index())), std::string(StateName(expected_next))) << what;
    EXPECT_EQ(EffectsText(step.effects), ListedEffects(row)) << what << " (row " << step.row << ")";
    covered.insert(step.row);
  }
  for (int i = 0; i < static_cast<int>(Rows().size()); ++i) {
    EXPECT_TRUE(covered.count(i)) << "row " << i << " (" << StateName(Rows()[i].from) << " + "
                                  << EventName(Rows()[i].on) << " [" << Rows()[i].guard << "]) has no case";
  }
}

// One sample event of every kind, to try in every state.
std::vector<Event> OneOfEachEvent() {
  std::vector<Event> events = {StartSale(),
                               Choose(Method::kCard),
                               Card(),
                               Cancelled(),
                               Retry{kT0},
                               FallbackToInvoice{TestCustomer(), kT0},
                               KeepOpen{kT0},
                               PrintCode{kT0},
                               ReverseBy(100),
                               kReturnD1,
                               SessionOk(),
                               BrcodeOk(),
                               InvoiceOk(),
                               Found(EntityKind::kSession),
                               Failed(Call::kCreateSession, Failure::kRejected),
                               ReversedTo("p1", 0),
                               Purchase(1, "p1", PS::kApproved),
                               Deposit("d1", "u1"),
                               InvoiceUpdate("i1", IS::kPaid),
                               Fired(Timer::kPoll),
                               QueuedAs(Call::kCreateInvoice),
                               HeldOffline(),
                               ForwardedOk()};
  EXPECT_EQ(static_cast<int>(events.size()), kEventCount);
  for (int i = 0; i < kEventCount; ++i) EXPECT_EQ(static_cast<int>(events[i].index()), i);
  return events;
}

TEST(TransitionTable, PairsWithoutRowsAreRejectedWithAReason) {
  int rejected_pairs = 0;
  for (int s = 0; s < kStateCount; ++s) {
    const Sale sale = Drive(PathTo(StateName(s)));
    ASSERT_EQ(static_cast<int>(sale.state.index()), s) << StateName(s);
    for (const Event& event : OneOfEachEvent()) {
      const int e = static_cast<int>(event.index());
      bool has_row = false;
      for (const RowInfo& row : Rows()) {
        has_row |= row.on == e && (row.from == s || (row.from == kAnyState && s != 0));
      }
      if (has_row) continue;
      const Step step = Next(sale, event);
      ++rejected_pairs;
      EXPECT_FALSE(step.accepted()) << StateName(s) << " + " << EventName(e);
      EXPECT_THAT(step.rejection, StatusIs(StatusCode::kFailedPrecondition));
      EXPECT_NE(step.rejection.message().find(EventName(e)), std::string::npos) << step.rejection.message();
      EXPECT_NE(step.rejection.message().find(StateName(s)), std::string::npos) << step.rejection.message();
      EXPECT_EQ(step.sale, sale) << "a rejection must leave the sale unchanged";
      EXPECT_TRUE(step.effects.empty());
    }
  }
  EXPECT_GT(rejected_pairs, 250);
}

TEST(TransitionTable, GuardFailuresNameEveryReason) {
  const Sale sale = Drive(PathTo("ChoosingMethod"));
  const Step step = Next(sale, ChooseMethod{Method::kInvoice, Customer{"Ana", "123"}, kT0});
  ASSERT_FALSE(step.accepted());
  EXPECT_NE(step.rejection.message().find("method is not card"), std::string::npos);
  EXPECT_NE(step.rejection.message().find("CPF (11) or CNPJ (14 digits)"), std::string::npos)
      << step.rejection.message();
}

// The customer's phone paid (ADR 0009): the box never submitted a card; the purchase it found by
// the attempt's tag carries the last 4 digits, the funding and installments chosen on the phone,
// and its challenge is opened on the phone (no QR on the touchscreen).
TEST(PhoneCard, PurchaseFromThePhoneIsPaidWithItsOwnMaskAndItsChallengeHasNoQr) {
  const Sale awaiting = Drive(PathTo("AwaitingCard"));
  PurchaseSeen pending = std::get<PurchaseSeen>(Purchase(1, "p9", PS::kPending));
  pending.card_mask = "**** 0004";
  pending.funding = FundingType::kDebit;
  pending.installments = 1;
  const Step challenge = Next(awaiting, pending);
  ASSERT_TRUE(challenge.accepted()) << challenge.rejection.ToString();
  const auto& open = std::get<Challenge>(challenge.sale.state);
  EXPECT_TRUE(open.on_phone);
  bool shown = false;
  for (const Effect& e : challenge.effects)
    if (const auto* show = std::get_if<Show>(&e)) {
      shown = true;
      EXPECT_EQ(show->qr, "") << "the phone opened the bank's page itself";
      EXPECT_NE(show->message.find("phone"), std::string::npos) << show->message;
    }
  EXPECT_TRUE(shown);
  PurchaseSeen approved = pending;
  approved.status = PS::kApproved;
  approved.challenge_url = "";
  const Step paid = Next(challenge.sale, approved);
  ASSERT_TRUE(paid.accepted()) << paid.rejection.ToString();
  ASSERT_TRUE(std::holds_alternative<Paid>(paid.sale.state));
  bool printed = false;
  for (const Effect& e : paid.effects)
    if (const auto* print = std::get_if<Print>(&e)) {
      printed = true;
      EXPECT_EQ(print->card_mask, "**** 0004");
    }
  EXPECT_TRUE(printed);
}

// Declined on the phone: back at the choice with the reason; Retry makes a new session (a new QR).
TEST(PhoneCard, DeclineOnThePhoneOffersANewSessionInOneTap) {
  std::vector<Event> events = PathTo("AwaitingCard");
  events.push_back(Purchase(1, "p1", PS::kDenied));
  const Sale declined = Drive(events);
  ASSERT_TRUE(std::holds_alternative<ChoosingMethod>(declined.state));
  const Step again = Next(declined, Retry{kT0 + 40 * kSec});
  ASSERT_TRUE(again.accepted()) << again.rejection.ToString();
  EXPECT_TRUE(std::holds_alternative<CreatingSession>(again.sale.state));
  bool creates = false;
  for (const Effect& e : again.effects)
    if (const auto* call = std::get_if<BankCall>(&e)) creates = creates || std::holds_alternative<CreateSession>(*call);
  EXPECT_TRUE(creates);
}

TEST(TransitionTable, DocsEmbedTheTableAsTheCodeHasIt) {
  std::ifstream in(std::string(BALCAO_SOURCE_DIR) + "/docs/checkout.md");
  ASSERT_TRUE(in) << "docs/checkout.md missing";
  std::stringstream doc;
  doc << in.rdbuf();
  EXPECT_NE(doc.str().find(RenderTableMarkdown()), std::string::npos)
      << "docs/checkout.md is out of date; paste this table:\n"
      << RenderTableMarkdown();
}

// While offline the driver asks NeedsTheBankNow before feeding a cashier event: card and Pix
// (chosen or retried) are refused with a reason for the screen; an invoice can be queued.
TEST(Offline, CardAndPixNeedTheBankNowAnInvoiceCanWait) {
  const Sale choosing = Drive(PathTo("ChoosingMethod"));
  EXPECT_NE(std::string(NeedsTheBankNow(choosing, Choose(Method::kCard))).find("card needs the bank now"),
            std::string::npos);
  EXPECT_NE(std::string(NeedsTheBankNow(choosing, Choose(Method::kPix))).find("Pix needs the bank now"),
            std::string::npos);
  EXPECT_EQ(NeedsTheBankNow(choosing, Choose(Method::kInvoice)), nullptr);
  std::vector<Event> declined = PathTo("Charging");
  declined.push_back(Purchase(1, "p1", PS::kDenied));
  const Sale after_decline = Drive(declined);
  EXPECT_NE(NeedsTheBankNow(after_decline, Retry{kT0 + 40 * kSec}), nullptr);
  EXPECT_EQ(NeedsTheBankNow(after_decline, FallbackToInvoice{TestCustomer(), kT0 + 40 * kSec}), nullptr);
  EXPECT_EQ(NeedsTheBankNow(Drive(PathTo("ShowingPix")), Cancelled()), nullptr);
}

// A queued invoice prints the provisional receipt (sale id, amount); when the outbox creates
// it the sale waits as "pay later" with the slip printed, and its payment closes the sale.
TEST(Offline, AQueuedInvoiceBecomesPayLaterThenPaid) {
  Sale sale = Drive(PathTo("InvoiceQueued"));
  const auto* queued = std::get_if<InvoiceQueued>(&sale.state);
  ASSERT_TRUE(queued);
  EXPECT_EQ(queued->key, AttemptTag(kSaleId, 1));
  const Step receipt = Next(sale, PrintCode{kT0 + 20 * kSec});
  ASSERT_EQ(receipt.effects.size(), 1u);
  EXPECT_EQ(std::get<Print>(receipt.effects[0]), (Print{Slip::kProvisionalReceipt, kAmount, kSaleId, "", ""}));
  Step created = Next(sale, InvoiceOk());
  ASSERT_TRUE(created.accepted());
  const auto* later = std::get_if<PayLater>(&created.sale.state);
  ASSERT_TRUE(later);
  EXPECT_EQ(later->invoice.link, "https://bank.example/invoice/i1");
  EXPECT_TRUE(created.sale.Knows(EntityKind::kInvoice, "i1"));
  Step paid = Next(created.sale, InvoiceUpdate("i1", IS::kPaid, kAmount + 30));
  ASSERT_TRUE(std::holds_alternative<Paid>(paid.sale.state));
  EXPECT_EQ(paid.sale.collected(), kAmount + 30);
}

// A restart finds queued requests in the journal: nothing is re-sent by the sale itself (the
// outbox owns them) and no retry timer is armed.
TEST(Offline, ResumeLeavesQueuedRequestsToTheOutbox) {
  std::vector<Event> cancel = PathTo("CancelingInvoice");
  cancel.push_back(QueuedAs(Call::kCancelInvoice));
  std::vector<Event> reverse = PathTo("Reversing");
  reverse.push_back(QueuedAs(Call::kReversal));
  for (const std::vector<Event>& path : {PathTo("InvoiceQueued"), cancel, reverse}) {
    const Sale sale = Drive(path);
    EXPECT_TRUE(ResumeEvents(sale, kT0 + 100 * kSec).empty()) << StateName(static_cast<int>(sale.state.index()));
    EXPECT_TRUE(TimersFor(sale, kT0 + 100 * kSec).empty()) << StateName(static_cast<int>(sale.state.index()));
  }
}

}  // namespace
}  // namespace balcao::checkout
