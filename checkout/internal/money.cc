// Rules for money once it is at the bank: the refund path of the kept payment (partial or
// full reversal, or cancel of an unconfirmed card authorization), and the any-state rows
// that record late money (flagged for the operator to return), reductions made outside
// Balcão, and duplicates. No money the bank reports for this sale is ever dropped.
#include <string>
#include <variant>

#include "checkout/internal/rules.h"

namespace balcao::checkout::internal {
namespace {

ReduceAmount Reduction(const Sale& sale, const Payment& payment, Cents amount) {
  const Money* line = sale.payment_line();
  const Cents net = line ? line->net() : 0;
  const bool cancel = payment.method == Method::kCard && !payment.confirmed;
  return ReduceAmount{payment.kept.kind, payment.kept.id, net - amount, cancel, false};
}
void ApplyReduction(Out& o, const std::string& entity_id, Cents new_net) {
  Money* line = o.Line(entity_id);
  line->returned = line->received - new_net;
  line->bank_lowered = 0;  // the bank's amount is now the one the ledger follows
}
bool Signed(const std::string& operator_id, const std::string& reason) {
  return !operator_id.empty() && !reason.empty();
}
// Money the bank received for the sale after it moved on: counted as late, and the operator
// told to return it. `what`: "card charged", "Pix received"...
void ReceiveLate(Out& o, const EntityRef& ref, Cents amount, const std::string& what) {
  o.Receive(ref, amount, MoneyRole::kLate);
  o.Flag(ref.id, amount, what + " after the sale moved on: return it");
}
// A counted entity reduced at the bank by someone else: its line follows, and the operator is told.
void ReducedElsewhere(Out& o, const std::string& entity_id, Cents new_net, const std::string& what) {
  const Cents before = o.Line(entity_id)->net();
  ApplyReduction(o, entity_id, new_net);
  o.Flag(entity_id, before - new_net, what + " reversed outside Balcão");
}

}  // namespace

Verdict ReversalAllowed(const Sale& sale, const Paid& st, const Reverse& ev) {
  if (!Signed(ev.operator_id, ev.reason)) return "operator and reason are required";
  const Money* line = sale.payment_line();
  if (ev.amount <= 0) return "reversal amount must be positive cents";
  if (!line || ev.amount > line->net()) return "reversal exceeds what the sale still holds";
  if (st.payment.method == Method::kCard && !st.payment.confirmed && ev.amount != line->net()) {
    return "an unconfirmed card authorization can only be canceled in full";
  }
  return kHolds;
}
Reversing StartReversal(Out& o, const Paid& st, const Reverse& ev) {
  o.Call(Reduction(o.sale, st.payment, ev.amount));
  o.Display(Screen::kWorking);
  return Reversing{st.payment, ReversalRequest{ev.amount, ev.operator_id, ev.reason}};
}
Verdict ConfirmsPayment(const Sale&, const Paid& st, const PurchaseSeen& ev) {
  return Require(ev.purchase_id == st.payment.kept.id && !st.payment.confirmed &&
                     (ev.status == PurchaseStatus::kConfirmed || ev.status == PurchaseStatus::kPaid),
                 "not the confirmation of the payment");
}
Paid MarkConfirmed(Out&, const Paid& st, const PurchaseSeen&) {
  Paid next = st;
  next.payment.confirmed = true;
  return next;
}

Verdict ReversalLeavesMoney(const Sale&, const Reversing& st, const Reversed& ev) {
  return Require(ev.entity_id == st.payment.kept.id && ev.net_amount > 0, "not a partial reversal of the payment");
}
Verdict ReversalLeavesNothing(const Sale&, const Reversing& st, const Reversed& ev) {
  return Require(ev.entity_id == st.payment.kept.id && ev.net_amount == 0, "not a full reversal of the payment");
}
namespace {
void Reduced(Out& o, const Reversing& st, const Reversed& ev) {
  ApplyReduction(o, ev.entity_id, ev.net_amount);
  o.effects.emplace_back(Print{Slip::kRefundReceipt, st.request.amount, ev.entity_id, "", ""});
}
// The bank's event may overtake the PATCH answer (or report a reduction made elsewhere):
// the ledger follows the bank's amount as soon as it is lower.
Reversing Note(Out& o, const Reversing& st, const std::string& id, Cents amount) {
  if (amount < o.Line(id)->net()) ApplyReduction(o, id, amount);
  return st;
}
}  // namespace
Reversing NoteAmount(Out& o, const Reversing& st, const PurchaseSeen& ev) {
  return Note(o, st, ev.purchase_id, ev.amount);
}
Reversing NoteAmount(Out& o, const Reversing& st, const InvoiceSeen& ev) {
  return Note(o, st, ev.invoice_id, ev.amount);
}
Paid PartlyReversed(Out& o, const Reversing& st, const Reversed& ev) {
  Reduced(o, st, ev);
  o.Display(Screen::kPaid, "reversed: " + st.request.reason);
  return Paid{st.payment};
}
Refunded FullyReversed(Out& o, const Reversing& st, const Reversed& ev) {
  Reduced(o, st, ev);
  o.Display(Screen::kRefunded, st.request.reason);
  return Refunded{st.payment};
}
Verdict ReversalRefused(const Sale&, const Reversing&, const CallFailed& ev) {
  return Require(ev.call == Call::kReversal && ev.failure == Failure::kRejected, "not a refused reversal");
}
Verdict ReversalNotAnswered(const Sale&, const Reversing&, const CallFailed& ev) {
  return Require(ev.call == Call::kReversal && ev.failure != Failure::kRejected, "not an unanswered reversal");
}
Paid ReversalFailed(Out& o, const Reversing& st, const CallFailed& ev) {
  o.Display(Screen::kPaid, "reversal refused by the bank: " + ev.message);
  return Paid{st.payment};
}
Reversing ResendReversal(Out& o, const Reversing& st, const TimerFired&) {
  o.Call(Reduction(o.sale, st.payment, st.request.amount));
  return Sending(st);
}
Verdict AboutThePayment(const Sale&, const Reversing& st, const PurchaseSeen& ev) {
  return Require(ev.purchase_id == st.payment.kept.id, "not about the payment");
}
Verdict AboutThePayment(const Sale&, const Reversing& st, const InvoiceSeen& ev) {
  return Require(ev.invoice_id == st.payment.kept.id, "not about the payment");
}

// ---- any-state rows ----
Verdict LateCharge(const Sale& sale, const PurchaseSeen& ev) {
  return Require(CardAttemptOfThisSale(sale, ev.attempt) && IsCharged(ev.status) && !sale.FindMoney(ev.purchase_id),
                 "not a new charge of this sale");
}
void FlagLateCharge(Out& o, const PurchaseSeen& ev) {
  ReceiveLate(o, {EntityKind::kPurchase, ev.purchase_id, ev.attempt}, ev.amount, "card charged");
}
Verdict PurchaseReducedElsewhere(const Sale& sale, const PurchaseSeen& ev) {
  const Money* line = sale.FindMoney(ev.purchase_id);
  const bool settled = IsCharged(ev.status) || ev.status == PurchaseStatus::kCanceled ||
                       ev.status == PurchaseStatus::kVoided || ev.status == PurchaseStatus::kReversed;
  return Require(line && settled && ev.amount < line->net(), "no reduction of a counted charge");
}
void RecordReduction(Out& o, const PurchaseSeen& ev) { ReducedElsewhere(o, ev.purchase_id, ev.amount, "purchase"); }
Verdict PurchaseOfThisSale(const Sale& sale, const PurchaseSeen& ev) {
  return Require(CardAttemptOfThisSale(sale, ev.attempt) || sale.Knows(EntityKind::kPurchase, ev.purchase_id),
                 "purchase of no card attempt of this sale");
}
Verdict LateDeposit(const Sale& sale, const DepositSeen& ev) {
  return Require(sale.Knows(EntityKind::kBrcode, ev.brcode_uuid) && !sale.FindMoney(ev.deposit_id),
                 "not a new deposit for a brcode of this sale");
}
void FlagLateDeposit(Out& o, const DepositSeen& ev) {
  const int attempt = o.sale.AttemptOf(EntityKind::kBrcode, ev.brcode_uuid);
  ReceiveLate(o, {EntityKind::kDeposit, ev.deposit_id, attempt}, ev.amount, "Pix received");
}
Verdict DepositAlreadyCounted(const Sale& sale, const DepositSeen& ev) {
  return Require(sale.FindMoney(ev.deposit_id) != nullptr, "deposit not counted yet");
}
namespace {
// What the bank took back of a counted deposit outside Balcão; -1 while the box's own reversal
// is in flight (its PATCH may show before its answer: not the bank's doing).
Cents LoweredAtBank(const Sale& sale, const DepositSeen& ev) {
  const Money* line = sale.FindMoney(ev.deposit_id);
  if (line == nullptr || line->returning || std::holds_alternative<Reversing>(sale.state)) return -1;
  return ev.amount < line->net() ? line->net() - ev.amount : 0;
}
}  // namespace
Verdict DepositLoweredAtBank(const Sale& sale, const DepositSeen& ev) {
  const Money* line = sale.FindMoney(ev.deposit_id);
  return Require(line != nullptr && LoweredAtBank(sale, ev) > line->bank_lowered,
                 "not a counted deposit the bank holds less of than last seen");
}
void NoteBankLowered(Out& o, const DepositSeen& ev) {
  const Cents lowered = LoweredAtBank(o.sale, ev);
  Money* line = o.Line(ev.deposit_id);
  line->bank_lowered = lowered;
  line->bank_lowered_at = ev.at;
  o.Flag(ev.deposit_id, lowered, "Pix reversed at the bank outside Balcão");
}
void NoteBankAmount(Out& o, const DepositSeen& ev) {
  const Cents lowered = LoweredAtBank(o.sale, ev);
  Money* line = o.Line(ev.deposit_id);
  if (lowered < 0 || lowered == line->bank_lowered) return;
  line->bank_lowered = lowered;
  line->bank_lowered_at = ev.at;
}
Verdict LateInvoicePayment(const Sale& sale, const InvoiceSeen& ev) {
  return Require(sale.Knows(EntityKind::kInvoice, ev.invoice_id) && IsPaid(ev.status) && !sale.FindMoney(ev.invoice_id),
                 "not a new payment of an invoice of this sale");
}
void FlagLateInvoicePayment(Out& o, const InvoiceSeen& ev) {
  const int attempt = o.sale.AttemptOf(EntityKind::kInvoice, ev.invoice_id);
  ReceiveLate(o, {EntityKind::kInvoice, ev.invoice_id, attempt}, ev.amount, "invoice paid");
}
Verdict InvoiceReducedElsewhere(const Sale& sale, const InvoiceSeen& ev) {
  const Money* line = sale.FindMoney(ev.invoice_id);
  return Require(line && !IsOpen(ev.status) && ev.amount < line->net(), "no reduction of a counted invoice");
}
void RecordReduction(Out& o, const InvoiceSeen& ev) { ReducedElsewhere(o, ev.invoice_id, ev.amount, "invoice"); }
Verdict InvoiceOfThisSale(const Sale& sale, const InvoiceSeen& ev) {
  return Require(sale.Knows(EntityKind::kInvoice, ev.invoice_id), "invoice of no attempt of this sale");
}
Verdict FlaggedAndSigned(const Sale& sale, const ReturnLateMoney& ev) {
  if (!Signed(ev.operator_id, ev.reason)) return "operator and reason are required";
  const Money* line = sale.FindMoney(ev.entity_id);
  return Require(line && line->role == MoneyRole::kLate && line->net() > 0, "no late money left on that entity");
}
void ReturnLate(Out& o, const ReturnLateMoney& ev) {
  Money* line = o.Line(ev.entity_id);
  line->returning = true;
  o.Call(ReduceAmount{line->ref.kind, ev.entity_id, 0, false, true});
}
Verdict LateMoneyReturned(const Sale& sale, const Reversed& ev) {
  const Money* line = sale.FindMoney(ev.entity_id);
  return Require(line && line->role == MoneyRole::kLate && ev.net_amount >= 0 && ev.net_amount < line->net(),
                 "not a return of late money");
}
void RecordLateReturn(Out& o, const Reversed& ev) {
  ApplyReduction(o, ev.entity_id, ev.net_amount);
  o.Line(ev.entity_id)->returning = false;
}
Verdict ReversalAlreadyCounted(const Sale& sale, const Reversed& ev) {
  const Money* line = sale.FindMoney(ev.entity_id);
  return Require(line && ev.net_amount == line->net(), "not a reversal already counted");
}
Verdict LateReturnFailed(const Sale&, const CallFailed& ev) {
  return Require(ev.call == Call::kLateReturn, "not a failed return of late money");
}
void FlagFailedReturn(Out& o, const CallFailed& ev) { o.Flag("", 0, "late money not returned: " + ev.message); }

}  // namespace balcao::checkout::internal
