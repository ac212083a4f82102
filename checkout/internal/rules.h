// Guards and actions of the checkout's transition table (checkout/internal/table.cc).
// A guard answers "may this row fire?" with kHolds or the reason it may not; an action
// builds the next state (its return type IS the row's target state, checked at compile
// time by the table's ROW macro) and appends effects to Out.
//   row guard:  Verdict G(const Sale&, const From&, const Ev&)
//   row action: To      A(Out&, const From&, const Ev&)
//   any-state rows (late money, duplicates): Verdict G(const Sale&, const Ev&);
//                                            void A(Out&, const Ev&)
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "checkout/checkout.h"

namespace balcao::checkout::internal {

// nullptr when the guard holds, otherwise why it does not ("method is not card").
using Verdict = const char*;
inline constexpr Verdict kHolds = nullptr;
constexpr Verdict Require(bool holds, const char* why_not) { return holds ? kHolds : why_not; }

// The transition under construction: a copy of the sale (actions update its sale-wide
// facts; the table sets its state) and the effects in order.
struct Out {
  Sale sale;
  std::vector<Effect> effects;

  void Call(BankCall call) { effects.emplace_back(std::move(call)); }
  void Display(Screen screen, std::string message = {}, std::string qr = {}, std::string link = {},
               UnixMicros deadline = 0);
  void Arm(Timer timer, UnixMicros at) { effects.emplace_back(SetTimer{timer, at}); }
  void Disarm(Timer timer) { effects.emplace_back(CancelTimer{timer}); }
  void Flag(std::string entity_id, Cents amount, std::string reason);
  void Remember(const EntityRef& ref);
  // Records money received through `ref`; returns its ledger line.
  Money& Receive(const EntityRef& ref, Cents amount, MoneyRole role);
  Money* Line(const std::string& entity_id);
  std::string Tag(int attempt) const { return AttemptTag(sale.settings.lane, sale.id, attempt); }
  UnixMicros Seconds(std::int64_t s) const { return s * kMicrosPerSecond; }
};

// ---- card store-and-forward (held_card.cc) ----
Verdict OfflineCardAcceptable(const Sale&, const ChoosingMethod&, const CardHeldOffline&);
CardHeld HoldCard(Out&, const ChoosingMethod&, const CardHeldOffline&);
Verdict ForwardApproved(const Sale&, const CardHeld&, const CardForwarded&);
Paid ForwardedPaid(Out&, const CardHeld&, const CardForwarded&);
Verdict ForwardDeclined(const Sale&, const CardHeld&, const CardForwarded&);
Voided ForwardedDeclined(Out&, const CardHeld&, const CardForwarded&);
CardHeld PrintHeld(Out&, const CardHeld&, const PrintCode&);

// ---- generic guards ----
constexpr Verdict Always(const Sale&, const auto&, const auto&) { return kHolds; }
constexpr Verdict ForAttempt(const Sale&, const auto& st, const auto& ev) {
  return Require(ev.attempt == st.attempt, "answer for another attempt");
}
inline Verdict Signed(const Sale&, const auto&, const Cancel& ev) {
  return Require(!ev.operator_id.empty() && !ev.reason.empty(), "operator and reason are required");
}
inline Verdict CreateRefused(const Sale&, const auto&, const CallFailed& ev) {
  return Require(ev.failure != Failure::kOutcomeUnknown && ev.call != Call::kLookup && ev.call != Call::kPoll,
                 "not a create that surely did not happen");
}
inline Verdict CreateUnknown(const Sale&, const auto&, const CallFailed& ev) {
  return Require(ev.failure == Failure::kOutcomeUnknown && ev.call != Call::kLookup && ev.call != Call::kPoll,
                 "not a create whose outcome is unknown");
}
inline Verdict LookupFailed(const Sale&, const auto&, const CallFailed& ev) {
  return Require(ev.call == Call::kLookup, "not a failed lookup");
}
inline Verdict PollFailed(const Sale&, const auto&, const CallFailed& ev) {
  return Require(ev.call == Call::kPoll, "not a failed poll");
}
inline Verdict PollDue(const Sale&, const auto&, const TimerFired& ev) {
  return Require(ev.timer == Timer::kPoll, "not the poll timer");
}
// Only after a failure: a stale timer must not put a second call in flight.
inline Verdict RetryDue(const Sale&, const auto& st, const TimerFired& ev) {
  return Require(ev.timer == Timer::kLookupRetry && st.waiting, "not the retry timer after a failed call");
}
inline Verdict LookupFoundNothing(const Sale&, const auto& st, const NothingFound& ev) {
  return Require(ev.attempt == st.attempt && ev.kind != EntityKind::kDeposit, "not this attempt's lookup");
}
inline Verdict PollFoundNothing(const Sale&, const auto& st, const NothingFound& ev) {
  return Require(ev.attempt == st.attempt && ev.kind == EntityKind::kDeposit, "not this attempt's deposit search");
}

// ---- generic actions ----
// Stay, and ask again after settings.lookup_retry_s.
template <typename St>
St WaitToRetry(Out& o, const St& st, const auto& ev) {
  o.Arm(Timer::kLookupRetry, ev.at + o.Seconds(o.sale.settings.lookup_retry_s));
  St next = st;
  next.waiting = true;
  return next;
}
// The state as it is once the retried call is in flight again.
template <typename St>
St Sending(St st) {
  st.waiting = false;
  return st;
}
// Stay; nothing to do (a poll found nothing new, a stale status).
template <typename St>
St Stay(Out&, const St& st, const auto&) {
  return st;
}
Voided VoidSale(Out& o, const auto&, const Cancel& ev) {
  o.Display(Screen::kVoided, ev.reason);
  return Voided{ev.reason, ev.operator_id};
}

// ---- sale start and method choice (checkout/internal/start.cc) ----
Verdict ValidStart(const Sale&, const NotStarted&, const Start&);
ChoosingMethod Open(Out&, const NotStarted&, const Start&);
Verdict MethodIsCard(const Sale&, const ChoosingMethod&, const ChooseMethod&);
Verdict MethodIsPix(const Sale&, const ChoosingMethod&, const ChooseMethod&);
Verdict MethodIsInvoice(const Sale&, const ChoosingMethod&, const ChooseMethod&);
Verdict LastWasCard(const Sale&, const ChoosingMethod&, const Retry&);
Verdict LastWasPix(const Sale&, const ChoosingMethod&, const Retry&);
Verdict AfterFailedAttempt(const Sale&, const ChoosingMethod&, const FallbackToInvoice&);
Verdict LateChargeOfThisSale(const Sale&, const ChoosingMethod&, const PurchaseSeen&);
Paid TakeLateCharge(Out&, const ChoosingMethod&, const PurchaseSeen&);
Verdict LateDepositOfThisSale(const Sale&, const ChoosingMethod&, const DepositSeen&);
Paid TakeLateDeposit(Out&, const ChoosingMethod&, const DepositSeen&);
ChoosingMethod BackToChoice(Out& o, Method method, std::string notice);
bool CardAttemptOfThisSale(const Sale& sale, int attempt);
// The create effects, shared by first sends and re-sends after "found nothing".
CreateSession MakeCreateSession(const Sale& sale, int attempt);
CreateBrcode MakeCreateBrcode(const Sale& sale, int attempt);
CreateInvoice MakeCreateInvoice(const Sale& sale, int attempt, const Customer& customer, UnixMicros at);
// The notice for a card or Pix create that did not happen: the bank's message, or, when the
// request could not be sent, that these need the bank now (an invoice can be queued).
std::string NotDoneNotice(const std::string& what, const CallFailed& ev);

// ---- a create whose answer may be lost (docs/style.md S3) ----
// The card session, the Pix brcode and the invoice are created the same way, so one set of
// moves serves the three flows:
//   begin           ChoosingMethod -> Creating   the create, under a new attempt's tag
//   refused         Creating -> ChoosingMethod   it surely did not happen: NotCreated says why
//   outcome unknown Creating -> Verifying        FindByTag(kind, attempt) before anything else
//   retry timer     Verifying -> Verifying       FindByTag again after a failed lookup
//   found nothing   Verifying -> Creating        the same create again: same attempt and tags
// A flow names its two states, what they share (`Asked`: the attempt, and for an invoice its
// customer), its entity and its method; CreateFor builds its create from the Creating state.
template <typename CreatingState, typename VerifyingState, typename AskedPart, EntityKind kEntity, Method kPaidBy>
struct CreateFlow {
  using Creating = CreatingState;
  using Verifying = VerifyingState;
  using Asked = AskedPart;
  static constexpr EntityKind kKind = kEntity;
  static constexpr Method kMethod = kPaidBy;
};
using SessionFlow = CreateFlow<CreatingSession, VerifyingSession, OfAttempt, EntityKind::kSession, Method::kCard>;
using BrcodeFlow = CreateFlow<CreatingBrcode, VerifyingBrcode, OfAttempt, EntityKind::kBrcode, Method::kPix>;
using InvoiceFlow =
    CreateFlow<CreatingInvoice, VerifyingInvoice, OfInvoiceAttempt, EntityKind::kInvoice, Method::kInvoice>;
// `at` is the time of the event that sends the create: an invoice's due date counts from it.
inline CreateSession CreateFor(const Sale& sale, const CreatingSession& st, UnixMicros) {
  return MakeCreateSession(sale, st.attempt);
}
inline CreateBrcode CreateFor(const Sale& sale, const CreatingBrcode& st, UnixMicros) {
  return MakeCreateBrcode(sale, st.attempt);
}
inline CreateInvoice CreateFor(const Sale& sale, const CreatingInvoice& st, UnixMicros at) {
  return MakeCreateInvoice(sale, st.attempt, st.customer, at);
}
inline std::string NotCreated(const CreatingSession&, const CallFailed& ev) {
  return NotDoneNotice("card session not created", ev);
}
inline std::string NotCreated(const CreatingBrcode&, const CallFailed& ev) {
  return NotDoneNotice("Pix code not created", ev);
}
inline std::string NotCreated(const CreatingInvoice&, const CallFailed& ev) {
  return "invoice not created: " + ev.message;
}

// The moves, each written once for every flow.
template <typename Flow>
typename Flow::Creating BeginAttempt(Out& o, typename Flow::Asked asked, UnixMicros at) {
  asked.attempt = ++o.sale.attempts;
  typename Flow::Creating next{asked};
  o.Call(CreateFor(o.sale, next, at));
  o.Display(Screen::kWorking);
  return next;
}
template <typename Flow>
struct RefusedCreate {
  ChoosingMethod operator()(Out& o, const typename Flow::Creating& st, const CallFailed& ev) const {
    return BackToChoice(o, Flow::kMethod, NotCreated(st, ev));
  }
};
// The lookup, first and after a failed one; the answer it finds is the flow's *Created event.
template <typename Flow>
struct LookUpCreate {
  typename Flow::Verifying operator()(Out& o, const typename Flow::Creating& st, const CallFailed&) const {
    o.Call(ByTag(o, st.attempt));
    o.Display(Screen::kVerifying);
    const typename Flow::Asked& asked = st;
    return typename Flow::Verifying{asked};
  }
  typename Flow::Verifying operator()(Out& o, const typename Flow::Verifying& st, const TimerFired&) const {
    o.Call(ByTag(o, st.attempt));
    return Sending(st);
  }
  static FindByTag ByTag(const Out& o, int attempt) { return FindByTag{Flow::kKind, attempt, o.Tag(attempt)}; }
};
template <typename Flow>
struct ResendCreate {
  typename Flow::Creating operator()(Out& o, const typename Flow::Verifying& st, const NothingFound& ev) const {
    const typename Flow::Asked& asked = st;
    typename Flow::Creating next{asked};
    o.Call(CreateFor(o.sale, next, ev.at));
    return next;
  }
};

// The table's actions of the three flows (the row names them, docs/checkout.md lists them).
CreatingSession BeginCard(Out& o, const ChoosingMethod&, const auto& ev) {
  return BeginAttempt<SessionFlow>(o, {}, ev.at);
}
CreatingBrcode BeginPix(Out& o, const ChoosingMethod&, const auto& ev) {
  return BeginAttempt<BrcodeFlow>(o, {}, ev.at);
}
CreatingInvoice BeginInvoice(Out& o, const ChoosingMethod&, const auto& ev) {
  return BeginAttempt<InvoiceFlow>(o, {{}, ev.customer}, ev.at);
}
inline constexpr RefusedCreate<SessionFlow> SessionFailed;
inline constexpr RefusedCreate<BrcodeFlow> BrcodeFailed;
inline constexpr RefusedCreate<InvoiceFlow> InvoiceFailed;
inline constexpr LookUpCreate<SessionFlow> FindSession;
inline constexpr LookUpCreate<BrcodeFlow> FindBrcode;
inline constexpr LookUpCreate<InvoiceFlow> FindInvoice;
inline constexpr ResendCreate<SessionFlow> ResendSession;
inline constexpr ResendCreate<BrcodeFlow> ResendBrcode;
inline constexpr ResendCreate<InvoiceFlow> ResendInvoice;
// What the create made, found by its first answer or by the lookup: the flow's next state.
AwaitingCard SessionReady(Out&, const OfAttempt&, const SessionCreated&);
ShowingPix ShowBrcode(Out&, const OfAttempt&, const BrcodeCreated&);
ShowingInvoice ShowInvoice(Out&, const OfAttempt&, const InvoiceCreated&);

// ---- card (checkout/internal/card.cc) ----
Verdict CardAcceptable(const Sale&, const AwaitingCard&, const SubmitCard&);
Charging ChargeCard(Out&, const AwaitingCard&, const SubmitCard&);
Verdict SessionExpired(const Sale&, const auto&, const TimerFired& ev) {
  return Require(ev.timer == Timer::kSessionExpiry, "not the session expiry");
}
ChoosingMethod SessionLapsed(Out&, const AwaitingCard&, const TimerFired&);
Voided AbandonSession(Out&, const AwaitingCard&, const Cancel&);
AwaitingCard PurchaseNotMade(Out&, const Charging&, const CallFailed&);
VerifyingPurchase FindPurchase(Out&, const Charging&, const CallFailed&);
VerifyingPurchase FindPurchase(Out&, const VerifyingPurchase&, const TimerFired&);
AwaitingCard PurchaseNotFound(Out&, const VerifyingPurchase&, const NothingFound&);
Challenge ChallengeStarts(Out&, const Charging&, const PurchaseSeen&);
Challenge ChallengeStarts(Out&, const VerifyingPurchase&, const PurchaseSeen&);
Challenge PollPurchase(Out&, const Challenge&, const TimerFired&);
ClosingChallenge CloseChallenge(Out&, const Challenge&, const TimerFired&);
ClosingChallenge ReadPurchase(Out&, const ClosingChallenge&, const TimerFired&);
Paid EnterCardPaid(Out&, const PurchaseSeen&, const std::string& card_mask);
ChoosingMethod RefuseCard(Out&, const PurchaseSeen&, bool challenge_was_open);
// The purchase this state waits for (its attempt; its id once known).
Verdict ThisPurchase(const auto& st, const PurchaseSeen& ev) {
  if (ev.attempt != st.attempt) return "purchase of another attempt";
  if constexpr (requires { st.purchase_id; }) {
    if (ev.purchase_id != st.purchase_id) return "another purchase";
  }
  return kHolds;
}
Verdict ChargedNow(const Sale&, const auto& st, const PurchaseSeen& ev) {
  Verdict v = ThisPurchase(st, ev);
  return v ? v : Require(IsCharged(ev.status), "purchase not charged");
}
Verdict RefusedNow(const Sale&, const auto& st, const PurchaseSeen& ev) {
  Verdict v = ThisPurchase(st, ev);
  return v ? v : Require(IsRefused(ev.status), "purchase not refused");
}
Verdict InProgressNow(const Sale&, const auto& st, const PurchaseSeen& ev) {
  Verdict v = ThisPurchase(st, ev);
  return v ? v
           : Require(ev.status == PurchaseStatus::kPending || ev.status == PurchaseStatus::kCreated,
                     "purchase not in progress");
}
// After the session expired, anything but a charge ends the attempt.
inline Verdict NotChargedNow(const Sale&, const ClosingChallenge& st, const PurchaseSeen& ev) {
  Verdict v = ThisPurchase(st, ev);
  return v ? v : Require(!IsCharged(ev.status), "purchase charged");
}
// The mask the box kept from a keyed card, else the purchase's own ("**** 4242": the phone's).
Paid CardApproved(Out& o, const auto& st, const PurchaseSeen& ev) {
  if constexpr (requires { st.card_mask; }) {
    if (!st.card_mask.empty()) return EnterCardPaid(o, ev, st.card_mask);
  }
  return EnterCardPaid(o, ev, ev.card_mask);
}
ChoosingMethod CardRefused(Out& o, const auto& st, const PurchaseSeen& ev) {
  // A poll is armed while a challenge is open, and while the phone is awaited.
  return RefuseCard(
      o, ev, requires { st.purchase_id; } || std::is_same_v<std::decay_t<decltype(st)>, AwaitingCard>);
}
// ---- card on the customer's phone: the purchase reaches the bank without the box ----
AwaitingCard PollPhone(Out&, const AwaitingCard&, const TimerFired&);
Challenge ChallengeStarts(Out&, const AwaitingCard&, const PurchaseSeen&);
inline Verdict PhonePurchaseNotYet(const Sale&, const AwaitingCard& st, const NothingFound& ev) {
  return Require(ev.attempt == st.attempt && ev.kind == EntityKind::kPurchase, "not this attempt's purchase search");
}

// ---- Pix (checkout/internal/pix.cc) ----
Verdict PaysThisBrcode(const Sale& sale, const auto& st, const DepositSeen& ev) {
  return Require(ev.brcode_uuid == st.brcode.uuid && ev.amount == sale.amount,
                 "not this brcode's deposit of the sale amount");
}
Verdict BrcodeExpired(const Sale&, const ShowingPix&, const TimerFired& ev);
Paid EnterPixPaid(Out&, const DepositSeen&);
Paid PixPaid(Out& o, const auto&, const DepositSeen& ev) { return EnterPixPaid(o, ev); }
ShowingPix PollDeposit(Out&, const ShowingPix&, const TimerFired&);
ShowingPix PrintPix(Out&, const ShowingPix&, const PrintCode&);
ClosingPix ClosePix(Out&, const ShowingPix&, const TimerFired&);
ClosingPix SearchDepositAgain(Out&, const ClosingPix&, const TimerFired&);
ChoosingMethod PixExpired(Out&, const ClosingPix&, const NothingFound&);
Voided VoidPix(Out&, const ShowingPix&, const Cancel&);

// ---- invoice (checkout/internal/invoice.cc) ----
void PrintSlip(Out&, const InvoiceInfo&);  // the invoice slip: QR and link
Verdict ValidCustomer(const Customer& customer);
Verdict InvoicePaid(const Sale&, const auto& st, const InvoiceSeen& ev) {
  return Require(ev.invoice_id == st.invoice.id && IsPaid(ev.status), "not this invoice paid");
}
Verdict InvoiceOpen(const Sale&, const auto& st, const InvoiceSeen& ev) {
  return Require(ev.invoice_id == st.invoice.id && IsOpen(ev.status), "not this invoice open");
}
Verdict InvoiceClosed(const Sale&, const auto& st, const InvoiceSeen& ev) {
  return Require(ev.invoice_id == st.invoice.id && !IsOpen(ev.status) && !IsPaid(ev.status),
                 "not this invoice canceled or expired");
}
Paid EnterInvoicePaid(Out&, const InvoiceSeen&, bool at_the_counter);
Paid InvoiceSettled(Out& o, const auto&, const InvoiceSeen& ev) { return EnterInvoicePaid(o, ev, true); }
inline Paid InvoiceSettledLater(Out& o, const PayLater&, const InvoiceSeen& ev) {
  return EnterInvoicePaid(o, ev, false);
}
Voided EndInvoice(Out&, std::string reason, std::string operator_id);
Voided InvoiceEnded(Out& o, const auto& st, const InvoiceSeen& ev) {
  if constexpr (requires { st.operator_id; }) {
    return EndInvoice(o, st.reason, st.operator_id);
  } else {
    return EndInvoice(o, std::string("invoice ") + Name(ev.status), "");
  }
}
ShowingInvoice PollInvoice(Out&, const ShowingInvoice&, const TimerFired&);
ShowingInvoice PrintInvoice(Out&, const ShowingInvoice&, const PrintCode&);
PayLater PrintInvoice(Out&, const PayLater&, const PrintCode&);
PayLater LeaveOpen(Out&, const ShowingInvoice&, const KeepOpen&);
CancelingInvoice AskCancel(Out&, const ShowingInvoice&, const Cancel&);
CancelingInvoice AskCancel(Out&, const PayLater&, const Cancel&);
Verdict CancelRefused(const Sale&, const CancelingInvoice&, const CallFailed& ev);
Verdict CancelNotAnswered(const Sale&, const CancelingInvoice&, const CallFailed& ev);
ShowingInvoice CancelFailed(Out&, const CancelingInvoice&, const CallFailed&);
CancelingInvoice ResendCancel(Out&, const CancelingInvoice&, const TimerFired&);

// ---- requests waiting in the outbox (checkout/internal/queued.cc) ----
Verdict QueuedCreate(const Sale&, const auto& st, const Queued& ev) {
  return Require(ev.call == Call::kCreateInvoice && ev.attempt == st.attempt && !ev.key.empty(),
                 "not this attempt's invoice create in the outbox");
}
// From CreatingInvoice, or from VerifyingInvoice when the lookup cannot reach the bank either.
InvoiceQueued QueueInvoice(Out&, const OfInvoiceAttempt&, const Queued&);
Verdict QueuedInvoiceCreated(const Sale&, const InvoiceQueued&, const InvoiceCreated&);
Verdict CancelAsked(const Sale&, const InvoiceQueued&, const InvoiceCreated&);
PayLater QueuedInvoiceReady(Out&, const InvoiceQueued&, const InvoiceCreated&);
CancelingInvoice CancelQueuedInvoice(Out&, const InvoiceQueued&, const InvoiceCreated&);
Verdict QueuedCreateRefused(const Sale&, const InvoiceQueued&, const CallFailed&);
Verdict RefusedAfterCancel(const Sale&, const InvoiceQueued&, const CallFailed&);
ChoosingMethod QueuedInvoiceRefused(Out&, const InvoiceQueued&, const CallFailed&);
Voided QueuedInvoiceDropped(Out&, const InvoiceQueued&, const CallFailed&);
InvoiceQueued NoteCancel(Out&, const InvoiceQueued&, const Cancel&);
InvoiceQueued PrintProvisional(Out&, const InvoiceQueued&, const PrintCode&);
Verdict QueuedCancel(const Sale&, const CancelingInvoice&, const Queued&);
Verdict QueuedReversal(const Sale&, const Reversing&, const Queued&);
// The PATCH (cancel or reversal) is in the outbox: "requested, queued" until the bank answers.
// Not `waiting`, so no retry timer re-sends it beside the outbox.
template <typename St>
St WaitForOutbox(Out& o, const St& st, const Queued& ev) {
  o.Display(Screen::kQueued, "requested, queued: no connection to the bank; sent as soon as it is back");
  St next = st;
  next.queued_key = ev.key;
  return next;
}

// ---- the payment after it is kept: reversal, duplicates, late money (checkout/internal/money.cc) ----
Verdict ReversalAllowed(const Sale&, const Paid&, const Reverse&);
Reversing StartReversal(Out&, const Paid&, const Reverse&);
Verdict ConfirmsPayment(const Sale&, const Paid&, const PurchaseSeen&);
Paid MarkConfirmed(Out&, const Paid&, const PurchaseSeen&);
Verdict ReversalLeavesMoney(const Sale&, const Reversing&, const Reversed&);
Verdict ReversalLeavesNothing(const Sale&, const Reversing&, const Reversed&);
Paid PartlyReversed(Out&, const Reversing&, const Reversed&);
Refunded FullyReversed(Out&, const Reversing&, const Reversed&);
Verdict ReversalRefused(const Sale&, const Reversing&, const CallFailed&);
Verdict ReversalNotAnswered(const Sale&, const Reversing&, const CallFailed&);
Paid ReversalFailed(Out&, const Reversing&, const CallFailed&);
Reversing ResendReversal(Out&, const Reversing&, const TimerFired&);
Verdict AboutThePayment(const Sale&, const Reversing&, const PurchaseSeen&);
Verdict AboutThePayment(const Sale&, const Reversing&, const InvoiceSeen&);
Reversing NoteAmount(Out&, const Reversing&, const PurchaseSeen&);
Reversing NoteAmount(Out&, const Reversing&, const InvoiceSeen&);
// Any-state rows.
Verdict LateCharge(const Sale&, const PurchaseSeen&);
Verdict PurchaseReducedElsewhere(const Sale&, const PurchaseSeen&);
Verdict PurchaseOfThisSale(const Sale&, const PurchaseSeen&);
Verdict LateDeposit(const Sale&, const DepositSeen&);
Verdict DepositAlreadyCounted(const Sale&, const DepositSeen&);
Verdict LateInvoicePayment(const Sale&, const InvoiceSeen&);
Verdict InvoiceReducedElsewhere(const Sale&, const InvoiceSeen&);
Verdict InvoiceOfThisSale(const Sale&, const InvoiceSeen&);
Verdict FlaggedAndSigned(const Sale&, const ReturnLateMoney&);
Verdict LateMoneyReturned(const Sale&, const Reversed&);
Verdict ReversalAlreadyCounted(const Sale&, const Reversed&);
Verdict LateReturnFailed(const Sale&, const CallFailed&);
void FlagLateCharge(Out&, const PurchaseSeen&);
void RecordReduction(Out&, const PurchaseSeen&);
void FlagLateDeposit(Out&, const DepositSeen&);
// A counted deposit seen again: what the bank holds below what the box collected is noted on
// its line (Money::bank_lowered), flagged when it grows; the money counted stays.
Verdict DepositLoweredAtBank(const Sale&, const DepositSeen&);
void NoteBankLowered(Out&, const DepositSeen&);
void NoteBankAmount(Out&, const DepositSeen&);
void FlagLateInvoicePayment(Out&, const InvoiceSeen&);
void RecordReduction(Out&, const InvoiceSeen&);
void ReturnLate(Out&, const ReturnLateMoney&);
void RecordLateReturn(Out&, const Reversed&);
void FlagFailedReturn(Out&, const CallFailed&);
void NoNews(Out&, const auto&) {}

}  // namespace balcao::checkout::internal
