// Rules for requests that wait in the outbox while the bank cannot be reached
// (docs/offline.md, "What queues while offline"): the invoice fallback (the customer leaves
// with a provisional receipt carrying the sale id; the invoice slip prints when the invoice
// exists), an invoice cancellation and a reversal ("requested, queued" until the bank
// answers). Card and Pix need the bank now.
#include <optional>
#include <string>

#include "checkout/internal/rules.h"

namespace balcao::checkout::internal {
namespace {

constexpr const char* kQueuedInvoiceNotice =
    "no connection to the bank: the invoice is queued and will be created as soon as the connection is back; "
    "the customer takes the provisional receipt";

void PrintProvisionalReceipt(Out& o) {
  o.effects.emplace_back(Print{Slip::kProvisionalReceipt, o.sale.amount, o.sale.id, "", ""});
}

}  // namespace

std::string NotDoneNotice(const std::string& what, const CallFailed& ev) {
  if (ev.failure != Failure::kNotSent) return what + ": " + ev.message;
  if (ev.message.rfind(kClockRefusedPrefix, 0) == 0)
    return what + ": the bank refused the time of the box (relógio do caixa); nothing was done, try again";
  return what + ": the bank cannot be reached, and card and Pix need it now (an invoice can be queued)";
}

// From VerifyingInvoice (the create's outcome was unknown and the lookup cannot reach the bank
// either) the outbox takes the intent as "may have reached the bank" and looks it up itself
// before any send.
InvoiceQueued QueueInvoice(Out& o, const OfInvoiceAttempt& st, const Queued& ev) {
  PrintProvisionalReceipt(o);
  o.Display(Screen::kQueued, kQueuedInvoiceNotice);
  return InvoiceQueued{st, ev.key, "", ""};
}

Verdict QueuedInvoiceCreated(const Sale&, const InvoiceQueued& st, const InvoiceCreated& ev) {
  if (ev.attempt != st.attempt) return "answer for another attempt";
  return Require(st.cancel_operator.empty(), "a cancel was asked for");
}
Verdict CancelAsked(const Sale&, const InvoiceQueued& st, const InvoiceCreated& ev) {
  if (ev.attempt != st.attempt) return "answer for another attempt";
  return Require(!st.cancel_operator.empty(), "no cancel was asked for");
}
// The customer already left: the invoice waits for its payment like a "pay later" one; its
// slip (QR and link) prints now so the store can hand or send it.
PayLater QueuedInvoiceReady(Out& o, const InvoiceQueued& st, const InvoiceCreated& ev) {
  o.Remember({EntityKind::kInvoice, ev.entity.id, st.attempt});
  PrintSlip(o, ev.entity);
  return PayLater{st.attempt, ev.entity};
}
CancelingInvoice CancelQueuedInvoice(Out& o, const InvoiceQueued& st, const InvoiceCreated& ev) {
  o.Remember({EntityKind::kInvoice, ev.entity.id, st.attempt});
  o.Call(CancelInvoice{ev.entity.id});
  return CancelingInvoice{st.attempt, ev.entity, st.cancel_operator, st.cancel_reason};
}

Verdict QueuedCreateRefused(const Sale&, const InvoiceQueued& st, const CallFailed& ev) {
  if (ev.call != Call::kCreateInvoice || ev.failure == Failure::kOutcomeUnknown) {
    return "not a queued create that surely did not happen";
  }
  return Require(st.cancel_operator.empty(), "a cancel was asked for");
}
Verdict RefusedAfterCancel(const Sale&, const InvoiceQueued& st, const CallFailed& ev) {
  if (ev.call != Call::kCreateInvoice || ev.failure == Failure::kOutcomeUnknown) {
    return "not a queued create that surely did not happen";
  }
  return Require(!st.cancel_operator.empty(), "no cancel was asked for");
}
// The bank refused the invoice (a 400: say, the tax id) or it never got there: no invoice
// exists, the customer has left with a provisional receipt. Someone must collect another way.
ChoosingMethod QueuedInvoiceRefused(Out& o, const InvoiceQueued& st, const CallFailed& ev) {
  o.Flag(st.key, o.sale.amount,
         "queued invoice not created (" + ev.message + "); the customer left with a provisional receipt");
  return BackToChoice(o, Method::kInvoice, "queued invoice not created: " + ev.message);
}
Voided QueuedInvoiceDropped(Out& o, const InvoiceQueued& st, const CallFailed&) {
  o.Display(Screen::kVoided, st.cancel_reason);
  return Voided{st.cancel_reason, st.cancel_operator};
}

// Nothing can be canceled at the bank before the invoice exists: the cancel is noted and
// sent once the outbox has created it.
InvoiceQueued NoteCancel(Out& o, const InvoiceQueued& st, const Cancel& ev) {
  o.Display(Screen::kQueued, "cancel requested, queued: the invoice will be canceled as soon as the bank has it");
  InvoiceQueued next = st;
  next.cancel_operator = ev.operator_id;
  next.cancel_reason = ev.reason;
  return next;
}
InvoiceQueued PrintProvisional(Out& o, const InvoiceQueued& st, const PrintCode&) {
  PrintProvisionalReceipt(o);
  return st;
}

Verdict QueuedCancel(const Sale&, const CancelingInvoice& st, const Queued& ev) {
  return Require(ev.call == Call::kCancelInvoice && !ev.key.empty() && !st.waiting, "not the cancel PATCH queued");
}
Verdict QueuedReversal(const Sale&, const Reversing& st, const Queued& ev) {
  return Require(ev.call == Call::kReversal && !ev.key.empty() && !st.waiting, "not the reversal PATCH queued");
}

}  // namespace balcao::checkout::internal

namespace balcao::checkout {

const char* NeedsTheBankNow(const Sale& sale, const Event& event) {
  const auto* choosing = std::get_if<ChoosingMethod>(&sale.state);
  if (!choosing) return nullptr;
  std::optional<Method> method;
  if (const auto* choose = std::get_if<ChooseMethod>(&event)) method = choose->method;
  if (std::holds_alternative<Retry>(event)) method = choosing->last_method;
  if (method == Method::kCard) return "card needs the bank now and the box is offline: an invoice can be queued";
  if (method == Method::kPix) return "Pix needs the bank now and the box is offline: an invoice can be queued";
  return nullptr;
}

}  // namespace balcao::checkout
