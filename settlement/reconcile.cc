// The settlement's rules (docs/settlement.md): events the bank knows and the sale does not,
// per-entity comparison of the journal's money with the bank's, classification, totals.
#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <variant>

#include "common/money.h"
#include "settlement/settlement.h"
#include "settlement/words.h"

namespace balcao::settlement {
namespace {

using checkout::EntityKind;
using checkout::Sale;

constexpr UnixMicros kDayMicros = 86400LL * kMicrosPerSecond;

std::string Brl(Cents cents) { return FormatBrl(cents); }

std::string StateOf(const Sale& sale) { return checkout::StateName(static_cast<int>(sale.state.index())); }

EntityKind CheckoutKind(BankKind kind) {
  switch (kind) {
    case BankKind::kPurchase:
      return EntityKind::kPurchase;
    case BankKind::kDeposit:
      return EntityKind::kDeposit;
    case BankKind::kInvoice:
      return EntityKind::kInvoice;
  }
  return EntityKind::kPurchase;
}

const BankEntity* FindEntity(const std::vector<const BankEntity*>& entities, const std::string& id) {
  for (const BankEntity* e : entities) {
    if (e->id == id) return e;
  }
  return nullptr;
}

// What the entity received before any reversal: its ledger credits, or (no credit yet) its amount.
Cents Received(const BankEntity& e) { return e.ledger_in > 0 ? e.ledger_in : e.amount; }

// The invoice the sale is waiting on (shown, pay-later, being canceled); "" when none.
std::string AwaitedInvoice(const checkout::State& state) {
  if (const auto* s = std::get_if<checkout::ShowingInvoice>(&state)) return s->invoice.id;
  if (const auto* s = std::get_if<checkout::PayLater>(&state)) return s->invoice.id;
  if (const auto* s = std::get_if<checkout::CancelingInvoice>(&state)) return s->invoice.id;
  return "";
}

// The events the bank's view implies for a sale that has not heard them yet: an invoice it
// waits on that is no longer open (paid, canceled, expired), an invoice of its own paid that
// its ledger lacks, a deposit of one of its brcodes that its ledger lacks.
std::vector<checkout::Event> EventsFor(const Sale& sale, const std::vector<const BankEntity*>& entities,
                                       UnixMicros now) {
  std::vector<checkout::Event> events;
  const std::string awaited = AwaitedInvoice(sale.state);
  for (const BankEntity* e : entities) {
    if (sale.FindMoney(e->id) != nullptr) continue;
    checkout::InvoiceStatus status;
    if (e->kind == BankKind::kInvoice && sale.Knows(EntityKind::kInvoice, e->id) &&
        checkout::ParseName(e->status, status) && !checkout::IsOpen(status) &&
        (e->id == awaited || checkout::IsPaid(status))) {
      const Cents amount = checkout::IsPaid(status) ? Received(*e) : e->amount;
      events.push_back(checkout::InvoiceSeen{e->id, status, amount, now});
    } else if (e->kind == BankKind::kDeposit && sale.Knows(EntityKind::kBrcode, e->brcode_uuid)) {
      events.push_back(checkout::DepositSeen{e->id, e->brcode_uuid, Received(*e), now});
    }
  }
  return events;
}

std::string MethodOf(const Sale& sale, const std::vector<const BankEntity*>& entities) {
  const checkout::Money* payment = sale.payment_line();
  if (payment == nullptr && !sale.ledger.empty()) payment = &sale.ledger.front();  // late money only
  if (payment == nullptr) {
    return std::holds_alternative<checkout::PayLater>(sale.state) ? "invoice" : "";
  }
  switch (payment->ref.kind) {
    case EntityKind::kPurchase: {
      const BankEntity* purchase = FindEntity(entities, payment->ref.id);
      return purchase && purchase->funding == "debit" ? "debit" : "credit";
    }
    case EntityKind::kDeposit:
      return "pix";
    case EntityKind::kInvoice:
      return "invoice";
    default:
      return "";
  }
}

// The open invoice in words: its id, due date and customer.
std::string InvoiceWords(const std::string& id, UnixMicros due, const BankEntity* invoice, Lang lang) {
  std::string text = Say(lang, "fatura ", "invoice ") + id;
  if (due != 0) text += Say(lang, ", vence em ", ", due ") + FormatDate(due);
  if (invoice != nullptr && !invoice->party.empty()) text += Say(lang, ", cliente ", ", customer ") + invoice->party;
  return text;
}

// Why a sale was left in the middle, in the operator's words: a declined card says declined,
// with the issuer's reason and the purchase.
std::string UnfinishedWords(const Sale& sale, const std::vector<const BankEntity*>& entities, Lang lang) {
  if (const auto* choosing = std::get_if<checkout::ChoosingMethod>(&sale.state)) {
    std::string purchase;
    for (const BankEntity* e : entities)
      if (e->kind == BankKind::kPurchase && (e->status == "denied" || e->status == "failed")) purchase = e->id;
    if (choosing->notice.starts_with("denied")) {
      const std::string reason = choosing->notice.size() > 8 ? choosing->notice.substr(8) : "";
      return Say(lang, "cartão recusado", "card declined") +
             (reason.empty() ? "" : Say(lang, " pelo emissor (", " by the issuer (") + reason + ")") +
             (purchase.empty() ? "" : Say(lang, ", compra ", ", purchase ") + purchase) +
             Say(lang, ": nada foi cobrado; a venda ficou aberta, sem outro meio de pagamento",
                 ": nothing was charged; the sale was left open, with no other payment");
    }
    return Say(lang, "a venda ficou aberta na escolha do meio de pagamento: nada foi cobrado",
               "the sale was left open at the choice of payment: nothing was charged") +
           (choosing->notice.empty() ? "" : " (" + choosing->notice + ")");
  }
  return Say(lang, "a venda parou no meio (", "the sale stopped midway (") + StateOf(sale) +
         Say(lang, "): conclua no caixa ou na fila de envio", "): finish it at the counter or in the outbox");
}

// Journal money vs bank money, entity by entity; notes every disagreement.
bool CompareMoney(const Sale& sale, const std::vector<const BankEntity*>& entities, SaleFinding& f, Lang lang) {
  bool agree = true;
  for (const BankEntity* e : entities) {
    const Cents held = HeldBy(*e);
    f.bank_net += held;
    const checkout::Money* line = sale.FindMoney(e->id);
    const Cents journal = line ? line->net() : 0;
    const std::string name = KindWords(e->kind, lang) + " " + e->id;
    if (held != journal) {
      agree = false;
      f.notes.push_back(name + Say(lang, ": o banco tem ", ": the bank holds ") + Brl(held) +
                        Say(lang, ", o diário do caixa diz ", ", the journal says ") + Brl(journal) + " (" +
                        StatusWords(*e, lang) + ")" +
                        (held < journal
                             ? Say(lang, "; estornado no banco: ", "; reversed at the bank: ") + Brl(journal - held)
                             : ""));
    }
    const Cents expected_ledger = AwaitingCapture(*e) ? 0 : held;
    if (e->ledger_in - e->ledger_out != expected_ledger) {
      agree = false;
      f.notes.push_back(name + Say(lang, ": o extrato soma ", ": the ledger nets ") +
                        Brl(e->ledger_in - e->ledger_out) + Say(lang, ", mas o item vale ", " but the entity holds ") +
                        Brl(expected_ledger));
    }
    if (AwaitingCapture(*e) && held > 0)
      f.notes.push_back(
          name + Say(lang, ": aprovada, aguardando captura pelo banco", ": approved, awaiting capture by the bank"));
  }
  for (const checkout::Money& line : sale.ledger) {
    const bool at_bank = std::any_of(entities.begin(), entities.end(), [&](const BankEntity* e) {
      return e->id == line.ref.id && CheckoutKind(e->kind) == line.ref.kind;
    });
    if (!at_bank && line.net() != 0) {
      agree = false;
      f.notes.push_back(std::string(checkout::Name(line.ref.kind)) + " " + line.ref.id +
                        Say(lang, ": o diário do caixa tem ", ": the journal holds ") + Brl(line.net()) +
                        Say(lang, " que o banco não mostra", " the bank does not show"));
    }
  }
  return agree;
}

SaleClass ClassOf(const Sale& before, const Sale& after, const std::vector<const BankEntity*>& entities, UnixMicros now,
                  SaleFinding& f, Lang lang) {
  if (!CompareMoney(after, entities, f, lang)) return SaleClass::kDiscrepancy;
  if (after.late_outstanding() > 0) {
    for (const checkout::Money& line : after.ledger) {
      if (line.role == checkout::MoneyRole::kLate && line.net() > 0) {
        f.notes.push_back(Brl(line.net()) + Say(lang, " recebido depois, por ", " received late through ") +
                          checkout::Name(line.ref.kind) + " " + line.ref.id +
                          Say(lang, ": a devolver ao pagador", ": to return to the payer"));
      }
    }
    return SaleClass::kLateMoney;
  }
  if (!AwaitedInvoice(before.state).empty() && checkout::IsTerminal(after.state)) {
    f.notes.push_back(std::holds_alternative<checkout::Paid>(after.state)
                          ? Say(lang, "fatura paga no banco: venda fechada como paga",
                                "invoice paid at the bank: sale closed as paid")
                          : Say(lang, "fatura encerrada no banco sem pagamento: venda anulada",
                                "invoice closed at the bank unpaid: sale voided"));
    return SaleClass::kPayLaterClosed;
  }
  if (const auto* later = std::get_if<checkout::PayLater>(&after.state)) {
    const BankEntity* invoice = FindEntity(entities, later->invoice.id);
    const UnixMicros due = later->invoice.due != 0 ? later->invoice.due : (invoice ? invoice->due : 0);
    if ((invoice && invoice->status == "overdue") || (due != 0 && due < now)) {
      f.notes.push_back(InvoiceWords(later->invoice.id, due, invoice, lang) + Say(lang, ": vencida", ": overdue"));
      return SaleClass::kPayLaterOverdue;
    }
    f.notes.push_back(InvoiceWords(later->invoice.id, due, invoice, lang));
    return SaleClass::kPayLaterOpen;
  }
  if (std::holds_alternative<checkout::Paid>(after.state)) return SaleClass::kMatched;
  if (std::holds_alternative<checkout::Refunded>(after.state)) return SaleClass::kRefunded;
  if (std::holds_alternative<checkout::Voided>(after.state)) return SaleClass::kVoided;
  f.notes.push_back(UnfinishedWords(after, entities, lang));
  return SaleClass::kUnfinished;
}

bool NeedsOperator(SaleClass c) {
  return c == SaleClass::kDiscrepancy || c == SaleClass::kLateMoney || c == SaleClass::kPayLaterOverdue ||
         c == SaleClass::kUnfinished;
}

MethodTotal* TotalOf(const std::string& method, Report& report) {
  auto it = std::find_if(report.totals.begin(), report.totals.end(),
                         [&](const MethodTotal& t) { return t.method == method; });
  return it == report.totals.end() ? nullptr : &*it;
}

// A sale's payment is counted once, by the first settlement that sees it: the day it was rung
// up, or (a pay-later paid days later) the night it was paid. What it gives back is counted by
// the night of the day it was given back (or the first night after, when that night had run
// already): each night counts what was returned by the day's end minus what earlier nights
// counted, so a return is counted once whichever night counted the payment.
void AddToTotals(const JournalSale& js, const Sale& sale, UnixMicros until, SaleFinding& f, Report& report, Lang lang) {
  MethodTotal* method = TotalOf(f.method, report);
  const checkout::Money* payment = sale.payment_line();
  f.counted = !js.counted_before && payment != nullptr && payment->received > 0 && method != nullptr;
  if (f.counted) {
    for (MethodTotal* t : {method, &report.total}) {
      ++t->count;
      t->gross += payment->received;
    }
  }
  const Returns by_end = ReturnedBy(js, until);
  f.refunds_counted = js.refunds_counted;
  f.late_returned_counted = js.late_returned_counted;
  if ((js.counted_before || f.counted) && method != nullptr && by_end.payment > js.refunds_counted) {
    f.refunded_tonight = by_end.payment - js.refunds_counted;
    f.refunds_counted = by_end.payment;
    for (MethodTotal* t : {method, &report.total}) {
      ++t->refund_count;
      t->refunds += f.refunded_tonight;
    }
    if (!f.counted)
      f.notes.push_back(Brl(f.refunded_tonight) + Say(lang, " devolvido de uma venda contada em noite anterior",
                                                      " given back of a sale an earlier night counted"));
  }
  if (by_end.late > js.late_returned_counted) {
    f.late_returned_tonight = by_end.late - js.late_returned_counted;
    f.late_returned_counted = by_end.late;
    ++report.late_returned_count;
    report.late_returned += f.late_returned_tonight;
    f.notes.push_back(Brl(f.late_returned_tonight) +
                      Say(lang, " de pagamento tardio devolvido ao pagador", " of late money given back to the payer"));
  }
}

// Returns made after the day's end (a past day settled late) wait for a later night.
bool ReturnsLeft(const Sale& sale, const SaleFinding& f, bool payment_counted) {
  const Returns now = ReturnsOf(sale);
  return (payment_counted && now.payment > f.refunds_counted) || now.late > f.late_returned_counted;
}

bool IsFinal(SaleClass c) {
  return c == SaleClass::kMatched || c == SaleClass::kRefunded || c == SaleClass::kVoided ||
         c == SaleClass::kPayLaterClosed;
}

}  // namespace

const char* BankKindName(BankKind kind) {
  switch (kind) {
    case BankKind::kPurchase:
      return "purchase";
    case BankKind::kDeposit:
      return "deposit";
    case BankKind::kInvoice:
      return "invoice";
  }
  return "?";
}

const char* SaleClassName(SaleClass c) {
  static constexpr const char* kNames[] = {"matched",          "refunded",       "voided",
                                           "pay-later-closed", "pay-later-open", "pay-later-overdue",
                                           "late-money",       "unfinished",     "discrepancy"};
  return kNames[static_cast<int>(c)];
}

Cents HeldBy(const BankEntity& e) {
  switch (e.kind) {
    case BankKind::kPurchase: {
      checkout::PurchaseStatus status;
      return checkout::ParseName(e.status, status) && checkout::IsCharged(status) ? e.amount : 0;
    }
    case BankKind::kInvoice: {
      checkout::InvoiceStatus status;
      return checkout::ParseName(e.status, status) && checkout::IsPaid(status) ? e.amount : 0;
    }
    case BankKind::kDeposit:
      return e.amount;
  }
  return 0;
}

Returns ReturnsOf(const Sale& sale) {
  Returns returns;
  for (const checkout::Money& line : sale.ledger) {
    (line.role == checkout::MoneyRole::kPayment ? returns.payment : returns.late) += line.returned;
  }
  return returns;
}

Returns ReturnedBy(const JournalSale& js, UnixMicros until) {
  if (js.events.empty()) return ReturnsOf(js.sale);
  Sale sale;
  Returns by;
  for (const checkout::Event& event : js.events) {
    checkout::Step step = checkout::Next(sale, event);
    if (step.accepted()) sale = std::move(step.sale);
    if (checkout::TimeOf(event) < until) by = ReturnsOf(sale);
  }
  return by;
}

bool AwaitingCapture(const BankEntity& e) { return e.kind == BankKind::kPurchase && e.status == "approved"; }

std::string SourceOf(const BankEntity& e) {
  switch (e.kind) {
    case BankKind::kPurchase:
      return "merchant-purchase/" + e.id;
    case BankKind::kInvoice:
      return "invoice/" + e.id;
    case BankKind::kDeposit:
      return "deposit/" + e.id;
  }
  return "";
}

Report Reconcile(const DayInput& input) {
  Report report;
  const Lang lang = input.lang;
  report.lang = lang;
  report.day = input.day;
  report.settled_at = input.now;
  for (const char* method : {"credit", "debit", "pix", "invoice"}) report.totals.push_back({method});
  report.total.method = "total";
  const StatusOr<UnixMicros> day_start = BusinessDayStart(input.day);
  const UnixMicros until = day_start.ok() ? *day_start + kDayMicros : std::numeric_limits<UnixMicros>::max();

  std::map<std::string, std::vector<const BankEntity*>> by_sale;
  std::set<std::pair<std::string, std::string>> in_scope;  // (lane, id): a sale keeps its lane
  for (const JournalSale& s : input.sales) in_scope.emplace(s.sale.settings.lane, s.sale.id);
  for (const BankEntity& e : input.bank) {
    if (e.sale_id.empty()) {
      // With a lane's tag and no sale's: this lane's and unexplained (an orphan), or another's.
      if (!e.lane.empty()) (e.lane == input.lane ? report.orphans : report.other_lanes).push_back(e);
      continue;
    }
    if (in_scope.count({e.lane, e.sale_id})) {
      by_sale[e.sale_id].push_back(&e);
    } else if (!e.lane.empty() && e.lane != input.lane) {
      report.other_lanes.push_back(e);
    } else if (input.journaled.count(e.sale_id) == 0) {
      report.orphans.push_back(e);
    } else {
      by_sale[e.sale_id].push_back(&e);
    }
  }

  for (const JournalSale& js : input.sales) {
    const std::vector<const BankEntity*>& entities = by_sale[js.sale.id];
    SaleFinding f;
    f.sale_id = js.sale.id;
    f.in_day = js.in_day;
    f.amount = js.sale.amount;
    Sale sale = js.sale;
    for (const checkout::Event& event : EventsFor(sale, entities, input.now)) {
      checkout::Step step = checkout::Next(sale, event);
      if (!step.accepted()) {
        f.notes.push_back(
            Say(lang, "a venda recusou o que o banco mostra: ", "the sale refused what the bank shows: ") +
            step.rejection.message());
        continue;
      }
      sale = std::move(step.sale);
      report.feeds.push_back({sale.id, event});
    }
    f.cls = ClassOf(js.sale, sale, entities, input.now, f, lang);
    f.attention = NeedsOperator(f.cls);
    f.method = MethodOf(sale, entities);
    f.state = StateOf(sale);
    f.collected = sale.collected();
    f.late_outstanding = sale.late_outstanding();
    AddToTotals(js, sale, until, f, report, lang);
    f.done = IsFinal(f.cls) && !ReturnsLeft(sale, f, js.counted_before || f.counted);
    report.sales.push_back(std::move(f));
  }

  report.outbox = input.outbox;
  for (const PendingRequest& r : input.outbox) report.outbox_at_risk += r.amount;
  report.card_outcomes = input.card_outcomes;
  report.ledger = input.ledger;
  report.journal = input.journal;

  for (const SaleFinding& f : report.sales) report.attention += f.attention ? 1 : 0;
  report.attention += static_cast<int>(report.orphans.size() + report.outbox.size());
  for (const ForwardedCard& c : report.card_outcomes) report.attention += c.outcome == "approved" ? 0 : 1;
  if (report.journal.checked && !report.journal.verified) ++report.attention;
  report.tef_dial = input.tef_dial;
  report.attention += report.tef_dial.total.pending;
  return report;
}

void DeferFeeds(Report& report, const std::string& why) {
  if (report.feeds.empty()) return;
  report.feeds_deferred = true;
  for (SaleFinding& f : report.sales) {
    const bool fed = std::any_of(report.feeds.begin(), report.feeds.end(),
                                 [&](const Feed& feed) { return feed.sale_id == f.sale_id; });
    if (!fed) continue;
    f.done = false;
    f.notes.push_back(Say(report.lang, "ainda não lançado no diário: ", "not journaled yet: ") + why);
  }
}

}  // namespace balcao::settlement
