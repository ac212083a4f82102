// Rules of the invoice flow (also the fallback after a failed Pix or card attempt): the
// invoice's QR, link and slip, payment through invoice events or polls, "pay later",
// and cancellation, which is only final once the bank says the invoice is canceled.
#include <string>

#include "checkout/internal/rules.h"

namespace balcao::checkout::internal {
void PrintSlip(Out& o, const InvoiceInfo& invoice) {
  o.effects.emplace_back(Print{Slip::kInvoiceSlip, o.sale.amount, invoice.id, invoice.brcode, ""});
}

namespace {

CancelingInvoice RequestCancel(Out& o, int attempt, const InvoiceInfo& invoice, const Cancel& ev) {
  o.Disarm(Timer::kPoll);
  o.Call(CancelInvoice{invoice.id});
  o.Display(Screen::kWorking);
  return CancelingInvoice{attempt, invoice, ev.operator_id, ev.reason};
}

}  // namespace

ShowingInvoice ShowInvoice(Out& o, const OfAttempt& st, const InvoiceCreated& ev) {
  const InvoiceInfo& invoice = ev.entity;
  o.Remember({EntityKind::kInvoice, invoice.id, st.attempt});
  o.Display(Screen::kInvoiceQr, "", invoice.brcode, invoice.link, invoice.due);
  PrintSlip(o, invoice);
  o.Arm(Timer::kPoll, ev.at + o.Seconds(o.sale.settings.poll_interval_s));
  return ShowingInvoice{st.attempt, invoice};
}

Paid EnterInvoicePaid(Out& o, const InvoiceSeen& ev, bool at_the_counter) {
  const EntityRef ref{EntityKind::kInvoice, ev.invoice_id, o.sale.AttemptOf(EntityKind::kInvoice, ev.invoice_id)};
  o.Receive(ref, ev.amount, MoneyRole::kPayment);
  if (at_the_counter) o.Disarm(Timer::kPoll);
  o.effects.emplace_back(Print{Slip::kSaleReceipt, ev.amount, ev.invoice_id, "", ""});
  if (at_the_counter) o.Display(Screen::kPaid);
  return Paid{Payment{Method::kInvoice, ref, true}};
}
Voided EndInvoice(Out& o, std::string reason, std::string operator_id) {
  o.Disarm(Timer::kPoll);
  o.Display(Screen::kVoided, reason);
  return Voided{std::move(reason), std::move(operator_id)};
}
ShowingInvoice PollInvoice(Out& o, const ShowingInvoice& st, const TimerFired& ev) {
  o.Call(GetInvoice{st.invoice.id});
  o.Arm(Timer::kPoll, ev.at + o.Seconds(o.sale.settings.poll_interval_s));
  return st;
}
ShowingInvoice PrintInvoice(Out& o, const ShowingInvoice& st, const PrintCode&) {
  PrintSlip(o, st.invoice);
  return st;
}
PayLater PrintInvoice(Out& o, const PayLater& st, const PrintCode&) {
  PrintSlip(o, st.invoice);
  return st;
}
PayLater LeaveOpen(Out& o, const ShowingInvoice& st, const KeepOpen&) {
  o.Disarm(Timer::kPoll);
  o.Display(Screen::kPayLater, "", "", st.invoice.link, st.invoice.due);
  return PayLater{st.attempt, st.invoice};
}
CancelingInvoice AskCancel(Out& o, const ShowingInvoice& st, const Cancel& ev) {
  return RequestCancel(o, st.attempt, st.invoice, ev);
}
CancelingInvoice AskCancel(Out& o, const PayLater& st, const Cancel& ev) {
  return RequestCancel(o, st.attempt, st.invoice, ev);
}
Verdict CancelRefused(const Sale&, const CancelingInvoice&, const CallFailed& ev) {
  return Require(ev.call == Call::kCancelInvoice && ev.failure == Failure::kRejected, "not a refused cancel");
}
Verdict CancelNotAnswered(const Sale&, const CancelingInvoice&, const CallFailed& ev) {
  return Require(ev.call == Call::kCancelInvoice && ev.failure != Failure::kRejected, "not an unanswered cancel");
}
// The bank refused to cancel (most likely: paid meanwhile). Read the invoice; keep showing it.
ShowingInvoice CancelFailed(Out& o, const CancelingInvoice& st, const CallFailed& ev) {
  o.Call(GetInvoice{st.invoice.id});
  o.Arm(Timer::kPoll, ev.at + o.Seconds(o.sale.settings.poll_interval_s));
  o.Display(Screen::kInvoiceQr, "could not cancel: " + ev.message, st.invoice.brcode, st.invoice.link, st.invoice.due);
  return ShowingInvoice{st.attempt, st.invoice};
}
CancelingInvoice ResendCancel(Out& o, const CancelingInvoice& st, const TimerFired&) {
  o.Call(CancelInvoice{st.invoice.id});
  return Sending(st);
}

}  // namespace balcao::checkout::internal
