// THE transition table of the checkout, and Next(), which is driven by it.
// One row = (state, event) -> guard -> next state + effects. ROW checks at compile time
// that the action's return type is the row's target state, so the table cannot claim a
// transition the code does not make. Rows are tried in order: first the rows of the
// current state, then the any-state rows (late money, duplicates), first guard that holds
// wins; when none holds the event is rejected with every guard's reason.
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "checkout/checkout.h"
#include "checkout/internal/rules.h"

namespace balcao::checkout {
namespace internal {
namespace {

template <typename T, typename... Ts>
constexpr int IndexIn(const std::variant<Ts...>*) {
  constexpr bool kMatch[] = {std::is_same_v<T, Ts>...};
  for (int i = 0; i < static_cast<int>(sizeof...(Ts)); ++i) {
    if (kMatch[i]) return i;
  }
  return -1;
}
template <typename T>
constexpr int kState = IndexIn<T>(static_cast<const State*>(nullptr));
template <typename T>
constexpr int kEvent = IndexIn<T>(static_cast<const Event*>(nullptr));

struct Row {
  RowInfo info;
  Verdict (*guard)(const Sale&, const Event&);
  void (*apply)(Out&, const Sale&, const Event&);
};

#define ROW(From, Ev, Guard, To, Action, effects)                                                                    \
  Row {                                                                                                              \
    {kState<From>, kEvent<Ev>, #Guard, kState<To>, #Action, effects},                                                \
        [](const Sale& s, const Event& e) -> Verdict { return Guard(s, std::get<From>(s.state), std::get<Ev>(e)); }, \
        [](Out& o, const Sale& s, const Event& e) {                                                                  \
          To next = Action(o, std::get<From>(s.state), std::get<Ev>(e));                                             \
          o.sale.state = std::move(next);                                                                            \
        }                                                                                                            \
  }
#define ANY_ROW(Ev, Guard, Action, effects)                                                 \
  Row {                                                                                     \
    {kAnyState, kEvent<Ev>, #Guard, kSameState, #Action, effects},                          \
        [](const Sale& s, const Event& e) -> Verdict { return Guard(s, std::get<Ev>(e)); }, \
        [](Out& o, const Sale&, const Event& e) { Action(o, std::get<Ev>(e)); }             \
  }

// clang-format off
const std::vector<Row>& Table() {
  static const std::vector<Row> kTable = {
    // ---- opening and choosing ----
    ROW(NotStarted, Start, ValidStart, ChoosingMethod, Open, "Show(choose-method)"),
    ROW(ChoosingMethod, ChooseMethod, MethodIsCard, CreatingSession, BeginCard, "CreateSession; Show(working)"),
    ROW(ChoosingMethod, ChooseMethod, MethodIsPix, CreatingBrcode, BeginPix, "CreateBrcode; Show(working)"),
    ROW(ChoosingMethod, ChooseMethod, MethodIsInvoice, CreatingInvoice, BeginInvoice, "CreateInvoice; Show(working)"),
    ROW(ChoosingMethod, Retry, LastWasCard, CreatingSession, BeginCard, "CreateSession; Show(working)"),
    ROW(ChoosingMethod, Retry, LastWasPix, CreatingBrcode, BeginPix, "CreateBrcode; Show(working)"),
    ROW(ChoosingMethod, FallbackToInvoice, AfterFailedAttempt, CreatingInvoice, BeginInvoice, "CreateInvoice; Show(working)"),
    ROW(ChoosingMethod, Cancel, Signed, Voided, VoidSale, "Show(voided)"),
    ROW(ChoosingMethod, PurchaseSeen, LateChargeOfThisSale, Paid, TakeLateCharge, "CancelTimer(poll); CancelTimer(session-expiry); Print(sale-receipt); Show(paid)"),
    ROW(ChoosingMethod, DepositSeen, LateDepositOfThisSale, Paid, TakeLateDeposit, "CancelTimer(poll); CancelTimer(brcode-expiry); Print(sale-receipt); Show(paid)"),
    // ---- card: merchant session ----
    ROW(CreatingSession, SessionCreated, ForAttempt, AwaitingCard, SessionReady, "SetTimer(session-expiry); SetTimer(poll); Show(enter-card)"),
    ROW(CreatingSession, CallFailed, CreateRefused, ChoosingMethod, SessionFailed, "Show(choose-method)"),
    ROW(CreatingSession, CallFailed, CreateUnknown, VerifyingSession, FindSession, "FindByTag(session); Show(verifying)"),
    ROW(VerifyingSession, SessionCreated, ForAttempt, AwaitingCard, SessionReady, "SetTimer(session-expiry); SetTimer(poll); Show(enter-card)"),
    ROW(VerifyingSession, NothingFound, LookupFoundNothing, CreatingSession, ResendSession, "CreateSession — same attempt and tags"),
    ROW(VerifyingSession, CallFailed, LookupFailed, VerifyingSession, WaitToRetry, "SetTimer(lookup-retry)"),
    ROW(VerifyingSession, TimerFired, RetryDue, VerifyingSession, FindSession, "FindByTag(session)"),
    ROW(AwaitingCard, SubmitCard, CardAcceptable, Charging, ChargeCard, "CancelTimer(poll); CreatePurchase; Show(working)"),
    ROW(AwaitingCard, TimerFired, SessionExpired, ChoosingMethod, SessionLapsed, "CancelTimer(poll); Show(choose-method)"),
    ROW(AwaitingCard, Cancel, Signed, Voided, AbandonSession, "CancelTimer(poll); CancelTimer(session-expiry); Show(voided)"),
    // ---- card: the customer's phone posts the purchase to the bank (ADR 0009) ----
    ROW(AwaitingCard, TimerFired, PollDue, AwaitingCard, PollPhone, "FindByTag(purchase); SetTimer(poll)"),
    ROW(AwaitingCard, NothingFound, PhonePurchaseNotYet, AwaitingCard, Stay, "-"),
    ROW(AwaitingCard, CallFailed, LookupFailed, AwaitingCard, Stay, "- — the next poll is armed"),
    ROW(AwaitingCard, PurchaseSeen, ChargedNow, Paid, CardApproved, "CancelTimer(poll); CancelTimer(session-expiry); Print(sale-receipt); Show(paid)"),
    ROW(AwaitingCard, PurchaseSeen, RefusedNow, ChoosingMethod, CardRefused, "CancelTimer(poll); CancelTimer(session-expiry); Show(choose-method)"),
    ROW(AwaitingCard, PurchaseSeen, InProgressNow, Challenge, ChallengeStarts, "Show(challenge-qr); SetTimer(poll); SetTimer(session-expiry) — the phone opens the bank's page"),
    // ---- card: purchase ----
    ROW(Charging, PurchaseSeen, ChargedNow, Paid, CardApproved, "CancelTimer(poll); CancelTimer(session-expiry); Print(sale-receipt); Show(paid)"),
    ROW(Charging, PurchaseSeen, RefusedNow, ChoosingMethod, CardRefused, "CancelTimer(session-expiry); Show(choose-method)"),
    ROW(Charging, PurchaseSeen, InProgressNow, Challenge, ChallengeStarts, "Show(challenge-qr); SetTimer(poll); SetTimer(session-expiry)"),
    ROW(Charging, CallFailed, CreateRefused, AwaitingCard, PurchaseNotMade, "Show(enter-card); SetTimer(poll)"),
    ROW(Charging, CallFailed, CreateUnknown, VerifyingPurchase, FindPurchase, "FindByTag(purchase); Show(verifying)"),
    ROW(VerifyingPurchase, PurchaseSeen, ChargedNow, Paid, CardApproved, "CancelTimer(poll); CancelTimer(session-expiry); Print(sale-receipt); Show(paid)"),
    ROW(VerifyingPurchase, PurchaseSeen, RefusedNow, ChoosingMethod, CardRefused, "CancelTimer(session-expiry); Show(choose-method)"),
    ROW(VerifyingPurchase, PurchaseSeen, InProgressNow, Challenge, ChallengeStarts, "Show(challenge-qr); SetTimer(poll); SetTimer(session-expiry)"),
    ROW(VerifyingPurchase, NothingFound, LookupFoundNothing, AwaitingCard, PurchaseNotFound, "Show(enter-card); SetTimer(poll)"),
    ROW(VerifyingPurchase, CallFailed, LookupFailed, VerifyingPurchase, WaitToRetry, "SetTimer(lookup-retry)"),
    ROW(VerifyingPurchase, TimerFired, RetryDue, VerifyingPurchase, FindPurchase, "FindByTag(purchase)"),
    // ---- card: 3-D Secure challenge on the customer's phone ----
    ROW(Challenge, PurchaseSeen, ChargedNow, Paid, CardApproved, "CancelTimer(poll); CancelTimer(session-expiry); Print(sale-receipt); Show(paid)"),
    ROW(Challenge, PurchaseSeen, RefusedNow, ChoosingMethod, CardRefused, "CancelTimer(poll); CancelTimer(session-expiry); Show(choose-method)"),
    ROW(Challenge, PurchaseSeen, InProgressNow, Challenge, Stay, "-"),
    ROW(Challenge, TimerFired, PollDue, Challenge, PollPurchase, "GetPurchase; SetTimer(poll)"),
    ROW(Challenge, CallFailed, PollFailed, Challenge, Stay, "- — the next poll is armed"),
    ROW(Challenge, TimerFired, SessionExpired, ClosingChallenge, CloseChallenge, "CancelTimer(poll); GetPurchase; Show(verifying)"),
    ROW(ClosingChallenge, PurchaseSeen, ChargedNow, Paid, CardApproved, "CancelTimer(poll); CancelTimer(session-expiry); Print(sale-receipt); Show(paid)"),
    ROW(ClosingChallenge, PurchaseSeen, NotChargedNow, ChoosingMethod, CardRefused, "CancelTimer(poll); CancelTimer(session-expiry); Show(choose-method)"),
    ROW(ClosingChallenge, CallFailed, PollFailed, ClosingChallenge, WaitToRetry, "SetTimer(lookup-retry)"),
    ROW(ClosingChallenge, TimerFired, RetryDue, ClosingChallenge, ReadPurchase, "GetPurchase"),
    // ---- Pix: dynamic brcode ----
    ROW(CreatingBrcode, BrcodeCreated, ForAttempt, ShowingPix, ShowBrcode, "Show(pix-qr); SetTimer(brcode-expiry); SetTimer(poll)"),
    ROW(CreatingBrcode, CallFailed, CreateRefused, ChoosingMethod, BrcodeFailed, "Show(choose-method)"),
    ROW(CreatingBrcode, CallFailed, CreateUnknown, VerifyingBrcode, FindBrcode, "FindByTag(brcode); Show(verifying)"),
    ROW(VerifyingBrcode, BrcodeCreated, ForAttempt, ShowingPix, ShowBrcode, "Show(pix-qr); SetTimer(brcode-expiry); SetTimer(poll)"),
    ROW(VerifyingBrcode, NothingFound, LookupFoundNothing, CreatingBrcode, ResendBrcode, "CreateBrcode — same attempt and tags"),
    ROW(VerifyingBrcode, CallFailed, LookupFailed, VerifyingBrcode, WaitToRetry, "SetTimer(lookup-retry)"),
    ROW(VerifyingBrcode, TimerFired, RetryDue, VerifyingBrcode, FindBrcode, "FindByTag(brcode)"),
    ROW(ShowingPix, DepositSeen, PaysThisBrcode, Paid, PixPaid, "CancelTimer(poll); CancelTimer(brcode-expiry); Print(sale-receipt); Show(paid)"),
    ROW(ShowingPix, TimerFired, PollDue, ShowingPix, PollDeposit, "FindDeposit; SetTimer(poll)"),
    ROW(ShowingPix, NothingFound, PollFoundNothing, ShowingPix, Stay, "-"),
    ROW(ShowingPix, CallFailed, PollFailed, ShowingPix, Stay, "- — the next poll is armed"),
    ROW(ShowingPix, PrintCode, Always, ShowingPix, PrintPix, "Print(pix-code)"),
    ROW(ShowingPix, TimerFired, BrcodeExpired, ClosingPix, ClosePix, "CancelTimer(poll); FindDeposit; Show(verifying)"),
    ROW(ShowingPix, Cancel, Signed, Voided, VoidPix, "CancelTimer(poll); CancelTimer(brcode-expiry); Show(voided)"),
    ROW(ClosingPix, DepositSeen, PaysThisBrcode, Paid, PixPaid, "CancelTimer(poll); CancelTimer(brcode-expiry); Print(sale-receipt); Show(paid)"),
    ROW(ClosingPix, NothingFound, PollFoundNothing, ChoosingMethod, PixExpired, "Show(choose-method)"),
    ROW(ClosingPix, CallFailed, PollFailed, ClosingPix, WaitToRetry, "SetTimer(lookup-retry)"),
    ROW(ClosingPix, TimerFired, RetryDue, ClosingPix, SearchDepositAgain, "FindDeposit"),
    // ---- invoice ----
    ROW(CreatingInvoice, InvoiceCreated, ForAttempt, ShowingInvoice, ShowInvoice, "Show(invoice-qr); Print(invoice-slip); SetTimer(poll)"),
    ROW(CreatingInvoice, CallFailed, CreateRefused, ChoosingMethod, InvoiceFailed, "Show(choose-method)"),
    ROW(CreatingInvoice, CallFailed, CreateUnknown, VerifyingInvoice, FindInvoice, "FindByTag(invoice); Show(verifying)"),
    ROW(VerifyingInvoice, InvoiceCreated, ForAttempt, ShowingInvoice, ShowInvoice, "Show(invoice-qr); Print(invoice-slip); SetTimer(poll)"),
    ROW(VerifyingInvoice, NothingFound, LookupFoundNothing, CreatingInvoice, ResendInvoice, "CreateInvoice — same attempt and tags"),
    ROW(VerifyingInvoice, CallFailed, LookupFailed, VerifyingInvoice, WaitToRetry, "SetTimer(lookup-retry)"),
    ROW(VerifyingInvoice, TimerFired, RetryDue, VerifyingInvoice, FindInvoice, "FindByTag(invoice)"),
    ROW(ShowingInvoice, InvoiceSeen, InvoicePaid, Paid, InvoiceSettled, "CancelTimer(poll); Print(sale-receipt); Show(paid)"),
    ROW(ShowingInvoice, InvoiceSeen, InvoiceOpen, ShowingInvoice, Stay, "-"),
    ROW(ShowingInvoice, InvoiceSeen, InvoiceClosed, Voided, InvoiceEnded, "CancelTimer(poll); Show(voided)"),
    ROW(ShowingInvoice, TimerFired, PollDue, ShowingInvoice, PollInvoice, "GetInvoice; SetTimer(poll)"),
    ROW(ShowingInvoice, CallFailed, PollFailed, ShowingInvoice, Stay, "- — the next poll is armed"),
    ROW(ShowingInvoice, PrintCode, Always, ShowingInvoice, PrintInvoice, "Print(invoice-slip)"),
    ROW(ShowingInvoice, KeepOpen, Always, PayLater, LeaveOpen, "CancelTimer(poll); Show(pay-later)"),
    ROW(ShowingInvoice, Cancel, Signed, CancelingInvoice, AskCancel, "CancelTimer(poll); CancelInvoice; Show(working)"),
    ROW(PayLater, InvoiceSeen, InvoicePaid, Paid, InvoiceSettledLater, "Print(sale-receipt)"),
    ROW(PayLater, InvoiceSeen, InvoiceOpen, PayLater, Stay, "-"),
    ROW(PayLater, InvoiceSeen, InvoiceClosed, Voided, InvoiceEnded, "CancelTimer(poll); Show(voided)"),
    ROW(PayLater, PrintCode, Always, PayLater, PrintInvoice, "Print(invoice-slip)"),
    ROW(PayLater, Cancel, Signed, CancelingInvoice, AskCancel, "CancelTimer(poll); CancelInvoice; Show(working)"),
    ROW(CancelingInvoice, InvoiceSeen, InvoiceClosed, Voided, InvoiceEnded, "CancelTimer(poll); Show(voided)"),
    ROW(CancelingInvoice, InvoiceSeen, InvoicePaid, Paid, InvoiceSettled, "CancelTimer(poll); Print(sale-receipt); Show(paid)"),
    ROW(CancelingInvoice, InvoiceSeen, InvoiceOpen, CancelingInvoice, Stay, "- — the PATCH answer decides"),
    ROW(CancelingInvoice, CallFailed, CancelRefused, ShowingInvoice, CancelFailed, "GetInvoice; SetTimer(poll); Show(invoice-qr)"),
    ROW(CancelingInvoice, CallFailed, CancelNotAnswered, CancelingInvoice, WaitToRetry, "SetTimer(lookup-retry)"),
    ROW(CancelingInvoice, TimerFired, RetryDue, CancelingInvoice, ResendCancel, "CancelInvoice — PATCH, idempotent"),
    // ---- offline: requests waiting in the outbox (the driver queued them; only the outbox sends) ----
    ROW(CreatingInvoice, Queued, QueuedCreate, InvoiceQueued, QueueInvoice, "Print(provisional-receipt); Show(queued)"),
    ROW(VerifyingInvoice, Queued, QueuedCreate, InvoiceQueued, QueueInvoice, "Print(provisional-receipt); Show(queued) — the outbox looks it up before any send"),
    ROW(InvoiceQueued, InvoiceCreated, QueuedInvoiceCreated, PayLater, QueuedInvoiceReady, "Print(invoice-slip) — the customer already left"),
    ROW(InvoiceQueued, InvoiceCreated, CancelAsked, CancelingInvoice, CancelQueuedInvoice, "CancelInvoice — the cancel asked for meanwhile"),
    ROW(InvoiceQueued, CallFailed, QueuedCreateRefused, ChoosingMethod, QueuedInvoiceRefused, "FlagOperator; Show(choose-method) — no invoice: collect another way"),
    ROW(InvoiceQueued, CallFailed, RefusedAfterCancel, Voided, QueuedInvoiceDropped, "Show(voided)"),
    ROW(InvoiceQueued, Cancel, Signed, InvoiceQueued, NoteCancel, "Show(queued) — canceled once the invoice exists"),
    ROW(InvoiceQueued, PrintCode, Always, InvoiceQueued, PrintProvisional, "Print(provisional-receipt)"),
    ROW(ChoosingMethod, CardHeldOffline, OfflineCardAcceptable, CardHeld, HoldCard, "Print(provisional-receipt); Show(queued)"),
    ROW(CardHeld, CardForwarded, ForwardApproved, Paid, ForwardedPaid, "Print(sale-receipt); Show(paid)"),
    ROW(CardHeld, CardForwarded, ForwardDeclined, Voided, ForwardedDeclined, "FlagOperator; Show(voided) — the customer left: collect another way"),
    ROW(CardHeld, PrintCode, Always, CardHeld, PrintHeld, "Print(provisional-receipt)"),
    ROW(CancelingInvoice, Queued, QueuedCancel, CancelingInvoice, WaitForOutbox, "Show(queued)"),
    ROW(Reversing, Queued, QueuedReversal, Reversing, WaitForOutbox, "Show(queued)"),
    // ---- after payment: confirmation and the refund path ----
    ROW(Paid, PurchaseSeen, ConfirmsPayment, Paid, MarkConfirmed, "-"),
    ROW(Paid, Reverse, ReversalAllowed, Reversing, StartReversal, "ReduceAmount; Show(working) — canceled/reversed PATCH for a card, amount PATCH for a deposit or invoice"),
    ROW(Reversing, Reversed, ReversalLeavesMoney, Paid, PartlyReversed, "Print(refund-receipt); Show(paid)"),
    ROW(Reversing, Reversed, ReversalLeavesNothing, Refunded, FullyReversed, "Print(refund-receipt); Show(refunded)"),
    ROW(Reversing, CallFailed, ReversalRefused, Paid, ReversalFailed, "Show(paid)"),
    ROW(Reversing, CallFailed, ReversalNotAnswered, Reversing, WaitToRetry, "SetTimer(lookup-retry)"),
    ROW(Reversing, TimerFired, RetryDue, Reversing, ResendReversal, "ReduceAmount — PATCH to the same target"),
    ROW(Reversing, PurchaseSeen, AboutThePayment, Reversing, NoteAmount, "- — a lower amount is recorded; the PATCH answer decides the state"),
    ROW(Reversing, InvoiceSeen, AboutThePayment, Reversing, NoteAmount, "- — a lower amount is recorded; the PATCH answer decides the state"),
    // ---- any started state: late money, reductions made elsewhere, duplicates ----
    ANY_ROW(PurchaseSeen, LateCharge, FlagLateCharge, "FlagOperator — late money to return"),
    ANY_ROW(PurchaseSeen, PurchaseReducedElsewhere, RecordReduction, "FlagOperator — reversed outside Balcão"),
    ANY_ROW(PurchaseSeen, PurchaseOfThisSale, NoNews, "-"),
    ANY_ROW(DepositSeen, LateDeposit, FlagLateDeposit, "FlagOperator — late money to return"),
    ANY_ROW(DepositSeen, DepositLoweredAtBank, NoteBankLowered, "FlagOperator — reversed at the bank outside Balcão: noted beside the money counted"),
    ANY_ROW(DepositSeen, DepositAlreadyCounted, NoteBankAmount, "- — what the bank holds is noted"),
    ANY_ROW(InvoiceSeen, LateInvoicePayment, FlagLateInvoicePayment, "FlagOperator — late money to return"),
    ANY_ROW(InvoiceSeen, InvoiceReducedElsewhere, RecordReduction, "FlagOperator — reversed outside Balcão"),
    ANY_ROW(InvoiceSeen, InvoiceOfThisSale, NoNews, "-"),
    ANY_ROW(ReturnLateMoney, FlaggedAndSigned, ReturnLate, "ReduceAmount — the late money, to 0"),
    ANY_ROW(Reversed, LateMoneyReturned, RecordLateReturn, "-"),
    ANY_ROW(Reversed, ReversalAlreadyCounted, NoNews, "-"),
    ANY_ROW(CallFailed, LateReturnFailed, FlagFailedReturn, "FlagOperator — late money not returned"),
  };
  return kTable;
}
// clang-format on

#undef ROW
#undef ANY_ROW

}  // namespace
}  // namespace internal

const std::vector<RowInfo>& Rows() {
  static const std::vector<RowInfo> kInfos = [] {
    std::vector<RowInfo> infos;
    for (const internal::Row& row : internal::Table()) infos.push_back(row.info);
    return infos;
  }();
  return kInfos;
}

Step Next(const Sale& sale, const Event& event) {
  const std::vector<internal::Row>& table = internal::Table();
  const int state = static_cast<int>(sale.state.index());
  const int on = static_cast<int>(event.index());
  const bool started = !std::holds_alternative<NotStarted>(sale.state);
  std::string why_not;
  for (const int from : {state, kAnyState}) {
    if (from == kAnyState && !started) break;
    for (std::size_t i = 0; i < table.size(); ++i) {
      const internal::Row& row = table[i];
      if (row.info.from != from || row.info.on != on) continue;
      if (internal::Verdict v = row.guard(sale, event)) {
        why_not += why_not.empty() ? "" : "; ";
        why_not += std::string(row.info.guard) + ": " + v;
        continue;
      }
      internal::Out out{sale, {}};
      row.apply(out, sale, event);
      return Step{std::move(out.sale), std::move(out.effects), static_cast<int>(i), OkStatus()};
    }
  }
  std::string message = std::string(EventName(on)) + " rejected in " + StateName(state) + ": ";
  message += why_not.empty() ? "no transition for this event in this state" : why_not;
  return Step{sale, {}, -1, FailedPreconditionError(std::move(message))};
}

}  // namespace balcao::checkout
