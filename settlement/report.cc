// The report as JSON (the one nlohmann TU of settlement/), as text, and back to the summary.
#include "settlement/report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "checkout/journal_codec.h"
#include "common/money.h"
#include "settlement/words.h"

namespace balcao::settlement {
namespace {

using nlohmann::ordered_json;

std::string Brl(Cents cents) { return FormatBrl(cents); }

ordered_json TotalJson(const MethodTotal& t) {
  return {{"method", t.method},   {"count", t.count}, {"gross", t.gross}, {"refund_count", t.refund_count},
          {"refunds", t.refunds}, {"net", t.net()}};
}

ordered_json EntityJson(const BankEntity& e) {
  return {{"kind", BankKindName(e.kind)},
          {"id", e.id},
          {"sale_id", e.sale_id},
          {"status", e.status},
          {"amount", e.amount},
          {"held", HeldBy(e)},
          {"party", e.party},
          {"created", e.created != 0 ? FormatTimestamp(e.created) : ""}};
}

void Line(std::string& out, const std::string& text) { out += text + "\n"; }

// Lane -> (entities, what they hold).
std::map<std::string, std::pair<int, Cents>> ByLane(const std::vector<BankEntity>& entities) {
  std::map<std::string, std::pair<int, Cents>> lanes;
  for (const BankEntity& e : entities) {
    auto& [count, held] = lanes[e.lane];
    ++count;
    held += HeldBy(e);
  }
  return lanes;
}

std::string Pad(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

// One sale of the report, as JSON text.
std::string SaleJson(const SaleFinding& f) {
  return ordered_json({{"id", f.sale_id},
                       {"class", SaleClassName(f.cls)},
                       {"attention", f.attention},
                       {"in_day", f.in_day},
                       {"counted", f.counted},
                       {"done", f.done},
                       {"method", f.method},
                       {"state", f.state},
                       {"amount", f.amount},
                       {"collected", f.collected},
                       {"bank_net", f.bank_net},
                       {"late_outstanding", f.late_outstanding},
                       {"refunded_tonight", f.refunded_tonight},
                       {"late_returned_tonight", f.late_returned_tonight},
                       {"notes", f.notes}})
      .dump();
}

ordered_json OutboxJson(const std::vector<PendingRequest>& pending) {
  ordered_json outbox = ordered_json::array();
  for (const PendingRequest& p : pending) {
    outbox.push_back({{"id", p.id},
                      {"key", p.key},
                      {"kind", p.kind},
                      {"state", p.state},
                      {"sale_id", p.sale_id},
                      {"amount", p.amount},
                      {"last_error", p.last_error}});
  }
  return outbox;
}

ordered_json CardOutcomesJson(const std::vector<ForwardedCard>& outcomes) {
  ordered_json cards = ordered_json::array();
  for (const ForwardedCard& c : outcomes) {
    cards.push_back({{"sale_id", c.sale_id},
                     {"amount", c.amount},
                     {"card", c.masked_pan},
                     {"outcome", c.outcome},
                     {"reason", c.reason},
                     {"bank_id", c.bank_id}});
  }
  return cards;
}

ordered_json LedgerJson(const LedgerDay& day) {
  ordered_json ledger = {{"known", day.known}};
  if (day.known) {
    ledger["count"] = day.count;
    ledger["credits"] = day.credits;
    ledger["debits"] = day.debits;
    ledger["net"] = day.credits - day.debits;
    ledger["sales_net"] = day.sales_net;
    ledger["other_net"] = day.credits - day.debits - day.sales_net;
  }
  if (day.balance_known) ledger["balance"] = day.balance;
  return ledger;
}

ordered_json TefDialCountsJson(const TefDialDocument& d) {
  return ordered_json{{"fiscal_document", d.fiscal_document},
                      {"pending", d.pending},
                      {"pending_amount", d.pending_amount},
                      {"confirmed", d.confirmed},
                      {"confirmed_amount", d.confirmed_amount},
                      {"undone", d.undone},
                      {"undone_amount", d.undone_amount},
                      {"cancelled", d.cancelled},
                      {"cancelled_amount", d.cancelled_amount},
                      {"declined", d.declined},
                      {"notes", d.notes}};
}

ordered_json TefDialJson(const TefDialDay& day) {
  ordered_json documents = ordered_json::array();
  for (const TefDialDocument& d : day.documents) documents.push_back(TefDialCountsJson(d));
  ordered_json total = TefDialCountsJson(day.total);
  total.erase("fiscal_document");
  total.erase("notes");
  return {{"documents", std::move(documents)}, {"total", std::move(total)}};
}

ordered_json JournalJson(const JournalCheck& j) {
  ordered_json journal = {{"verified", j.verified}, {"rows", j.rows}, {"head", j.head}};
  if (!j.verified) {
    journal["broken"] = {{"row", j.broken_row},
                         {"sale_id", j.broken_sale_id},
                         {"seq", j.broken_seq},
                         {"kind", j.broken_kind},
                         {"detail", j.broken_detail}};
  }
  return journal;
}

ordered_json DifferenceJson(const Difference& d) {
  ordered_json parts = ordered_json::array();
  for (const DifferencePart& p : d.parts) parts.push_back({{"what", p.what}, {"count", p.count}, {"amount", p.amount}});
  return {{"bank", d.bank},
          {"journal", d.journal},
          {"difference", d.amount()},
          {"explained_by", std::move(parts)},
          {"to_look_at", d.to_look_at}};
}

}  // namespace

Difference DifferenceOf(const Report& r) {
  Difference d;
  d.to_look_at = r.attention;
  std::map<std::string, DifferencePart> parts;
  for (const SaleFinding& f : r.sales) {
    d.bank += f.bank_net;
    d.journal += f.collected;
    if (f.bank_net == f.collected) continue;
    DifferencePart& part = parts[SaleClassName(f.cls)];
    part.what = SaleClassName(f.cls);
    ++part.count;
    part.amount += f.bank_net - f.collected;
  }
  for (const BankEntity& e : r.orphans) {
    d.bank += HeldBy(e);
    DifferencePart& part = parts["orphan"];
    part.what = "orphan";
    ++part.count;
    part.amount += HeldBy(e);
  }
  for (auto& [what, part] : parts) d.parts.push_back(part);
  std::stable_sort(d.parts.begin(), d.parts.end(), [](const DifferencePart& a, const DifferencePart& b) {
    return (a.amount < 0 ? -a.amount : a.amount) > (b.amount < 0 ? -b.amount : b.amount);
  });
  return d;
}

std::string DifferenceText(const Difference& d, Lang lang) {
  std::string line = Say(lang, "Banco ", "Bank ") + Brl(d.bank) + Say(lang, ", diário do caixa ", ", journal ") +
                     Brl(d.journal) + Say(lang, ", diferença ", ", difference ") + Brl(d.amount());
  if (!d.parts.empty()) {
    line += Say(lang, ", explicada por ", ", explained by ");
    for (std::size_t i = 0; i < d.parts.size(); ++i) {
      const DifferencePart& p = d.parts[i];
      std::string what = p.what;
      if (lang == Lang::kPtBr) {
        if (p.what == "orphan") what = "sem venda no diário";
        for (int c = 0; c <= static_cast<int>(SaleClass::kDiscrepancy); ++c)
          if (p.what == SaleClassName(static_cast<SaleClass>(c))) what = ClassWords(static_cast<SaleClass>(c), lang);
      }
      line += (i > 0 ? "; " : "") + std::to_string(p.count) + " " + what + " " + Brl(p.amount);
    }
  }
  return line + "; " + std::to_string(d.to_look_at) + Say(lang, " item(ns) a verificar", " item(s) to look at");
}

StatusOr<std::string> NightSummaryJson(std::string_view report_json) {
  static const std::set<std::string> kLists = {"sales", "fed", "orphans", "other_lanes", "outbox", "card_outcomes"};
  const ordered_json doc = ordered_json::parse(
      report_json,
      [](int depth, ordered_json::parse_event_t event, ordered_json& parsed) {
        return depth != 1 || event != ordered_json::parse_event_t::key || kLists.count(parsed.get<std::string>()) == 0;
      },
      false);
  if (!doc.is_object() || !doc.contains("day") || !doc.contains("status") || !doc.contains("total"))
    return InvalidArgumentError("report: not a settlement report (day, status and total required)");
  return doc.dump();
}

std::string ReportJson(const Report& r) {
  ordered_json doc;
  doc["day"] = r.day;
  doc["settled_at"] = FormatTimestamp(r.settled_at);
  doc["status"] = r.reconciled() ? "reconciled" : "attention";
  doc["attention"] = r.attention;
  doc["difference"] = DifferenceJson(DifferenceOf(r));
  doc["sales"] = nullptr;  // written one sale at a time below: a day's sales as one DOM cost tens of MB
  ordered_json totals = ordered_json::array();
  for (const MethodTotal& t : r.totals) totals.push_back(TotalJson(t));
  doc["totals"] = std::move(totals);
  doc["total"] = TotalJson(r.total);
  doc["late_returned"] = {{"count", r.late_returned_count}, {"amount", r.late_returned}};
  ordered_json closed = ordered_json::array();
  for (const Feed& feed : r.feeds) {
    closed.push_back({{"sale_id", feed.sale_id}, {"event", ordered_json::parse(checkout::EventToJson(feed.event))}});
  }
  doc["fed"] = std::move(closed);
  doc["fed_deferred"] = r.feeds_deferred;
  ordered_json orphans = ordered_json::array();
  for (const BankEntity& e : r.orphans) orphans.push_back(EntityJson(e));
  doc["orphans"] = std::move(orphans);
  // Created in the day by the store's other lanes: theirs to settle (docs/stores.md).
  const auto lanes = ByLane(r.other_lanes);
  ordered_json other_lanes = ordered_json::array();
  for (const auto& [lane, sum] : lanes)
    other_lanes.push_back({{"lane", lane}, {"entities", sum.first}, {"holds", sum.second}});
  doc["other_lanes"] = std::move(other_lanes);
  doc["outbox"] = OutboxJson(r.outbox);
  doc["outbox_at_risk"] = r.outbox_at_risk;
  doc["card_outcomes"] = CardOutcomesJson(r.card_outcomes);
  doc["ledger"] = LedgerJson(r.ledger);
  if (r.bank_calls >= 0) doc["bankCalls"] = r.bank_calls;
  if (r.tef_dial.present) doc["tef_dial"] = TefDialJson(r.tef_dial);
  if (r.journal.checked) doc["journal"] = JournalJson(r.journal);
  // The sales in place of their placeholder: the first "sales" key, after day, settled_at,
  // status and attention, whose values cannot hold it.
  std::string text = doc.dump();
  std::string sales = "\"sales\":[";
  for (std::size_t i = 0; i < r.sales.size(); ++i) {
    if (i > 0) sales += ',';
    sales += SaleJson(r.sales[i]);
  }
  sales += ']';
  const std::string_view placeholder = "\"sales\":null";
  text.replace(text.find(placeholder), placeholder.size(), sales);
  return text;
}

namespace {

// The title, the verdict and the journal chain's check.
void HeaderText(const Report& r, std::string& out) {
  const Lang l = r.lang;
  Line(out, Say(l, "Fechamento de ", "Settlement of ") + r.day +
                Say(l, " (horário de Brasília), feito em ", " (America/Sao_Paulo), run at ") +
                FormatTimestamp(r.settled_at));
  Line(out, r.reconciled() ? Say(l, "CONCILIADO: o diário do caixa e o banco conferem",
                                 "RECONCILED: the journal and the bank agree")
                           : Say(l, "ATENÇÃO: ", "ATTENTION: ") + std::to_string(r.attention) +
                                 Say(l, " item(ns) a verificar", " item(s) for the operator"));
  Line(out, DifferenceText(DifferenceOf(r), l));
  if (r.journal.checked && r.journal.verified) {
    Line(out, Say(l, "Cadeia do diário íntegra: ", "Journal chain holds: ") + std::to_string(r.journal.rows) +
                  Say(l, " linha(s), topo ", " row(s), head ") + r.journal.head);
  } else if (r.journal.checked) {
    const JournalCheck& j = r.journal;
    Line(out,
         "! JOURNAL CHAIN BROKEN: " + j.broken_kind +
             (j.broken_sale_id.empty() ? "" : " at sale " + j.broken_sale_id + " seq " + std::to_string(j.broken_seq)) +
             (j.broken_row > 0 ? " (journal row " + std::to_string(j.broken_row) + ")" : ""));
    Line(out, "    " + j.broken_detail);
    Line(out, Say(l, "    o diário foi alterado por fora do caixa: este relatório pode não mostrar o que aconteceu",
                  "    the journal was changed behind the store's back: this report may not show what happened"));
  }
}

// The totals by method, late money given back, the bank's ledger and balance.
void TotalLine(const MethodTotal& t, Lang l, std::string& out) {
  Line(out, "  " + Pad(MethodWords(t.method, l), 9) +
                Pad(std::to_string(t.count) + Say(l, " venda(s)", " sale(s)"), 13) + Pad(Brl(t.gross), 14) +
                Say(l, "devoluções ", "refunds ") + Pad(std::to_string(t.refund_count) + " / " + Brl(t.refunds), 18) +
                Say(l, "líquido ", "net ") + Brl(t.net()));
}

void TotalsText(const Report& r, std::string& out) {
  const Lang l = r.lang;
  Line(out, "");
  Line(out, Say(l, "Totais do dia (pagamentos contados nesta noite, devoluções feitas no dia)",
                "Totals of the day (payments counted tonight, refunds given back in the day)"));
  for (const MethodTotal& t : r.totals) TotalLine(t, l, out);
  TotalLine(r.total, l, out);
  if (r.late_returned_count > 0) {
    Line(out, Say(l, "Pagamentos tardios devolvidos: ", "Late money given back to payers: ") +
                  std::to_string(r.late_returned_count) + " / " + Brl(r.late_returned) +
                  Say(l, " (não é receita: fora dos totais)", " (not revenue: not in the totals)"));
  }
  if (r.ledger.known) {
    Line(out, Say(l, "Extrato do banco no dia: ", "Bank ledger of the day: ") + std::to_string(r.ledger.count) +
                  Say(l, " lançamento(s), créditos ", " transaction(s), credits ") + Brl(r.ledger.credits) +
                  Say(l, ", débitos ", ", debits ") + Brl(r.ledger.debits) + Say(l, ", líquido ", ", net ") +
                  Brl(r.ledger.credits - r.ledger.debits) + Say(l, " (vendas deste caixa ", " (this box's sales ") +
                  Brl(r.ledger.sales_net) + Say(l, ", outros ", ", other ") +
                  Brl(r.ledger.credits - r.ledger.debits - r.ledger.sales_net) + ")");
  }
  if (r.ledger.balance_known) Line(out, Say(l, "Saldo no banco agora: ", "Bank balance now: ") + Brl(r.ledger.balance));
  if (r.bank_calls >= 0)
    Line(out, Say(l, "Lido do banco em ", "Read from the bank in ") + std::to_string(r.bank_calls) +
                  Say(l, " chamada(s)", " call(s)"));
}

// Each sale with its class and notes.
void SalesText(const Report& r, std::string& out) {
  Line(out, "");
  const Lang l = r.lang;
  Line(out, Say(l, "Vendas (", "Sales (") + std::to_string(r.sales.size()) + ")");
  for (const SaleFinding& f : r.sales) {
    Line(out, std::string(f.attention ? "! " : "  ") + Pad(f.sale_id, 24) + Pad(ClassWords(f.cls, l), 22) +
                  Pad(MethodWords(f.method, l), 9) + Pad(Brl(f.amount), 14) + Say(l, "recebido ", "collected ") +
                  Brl(f.collected) + Say(l, ", no banco ", ", bank ") + Brl(f.bank_net) +
                  (f.in_day    ? ""
                   : f.counted ? Say(l, " (dia anterior, contada nesta noite)", " (earlier day, counted tonight)")
                               : Say(l, " (dia anterior)", " (earlier day)")));
    for (const std::string& note : f.notes) Line(out, "      " + note);
  }
}

// What the bank holds for no journaled sale, other lanes' entities, the outbox not done.
void ItemsText(const Report& r, std::string& out) {
  const Lang l = r.lang;
  if (!r.orphans.empty()) {
    Line(out, "");
    Line(out, Say(l, "! No banco com as etiquetas deste caixa e nenhuma venda do diário (",
                  "! At the bank with this lane's tags and no sale of its journal (") +
                  std::to_string(r.orphans.size()) + ")");
    for (const BankEntity& e : r.orphans) {
      Line(out, "    " + DescribeEntity(e, l) +
                    (e.sale_id.empty() ? Say(l, ", sem venda", ", no sale")
                                       : Say(l, ", para a venda ", ", for sale ") + e.sale_id));
    }
  }
  if (!r.other_lanes.empty()) {
    const auto lanes = ByLane(r.other_lanes);
    Line(out, "");
    Line(out, Say(l, "Outros caixas (cada um fecha o seu; `balcao settle --store` soma a loja)",
                  "Other lanes (theirs to settle; `balcao settle --store` sums the store)"));
    for (const auto& [lane, sum] : lanes)
      Line(out, "    " + Pad(lane, 40) + std::to_string(sum.first) + Say(l, " itens, valendo ", " entities, holding ") +
                    Brl(sum.second));
  }
  if (!r.outbox.empty()) {
    Line(out, "");
    Line(out, Say(l, "! Pedidos ainda não enviados ao banco (", "! Requests not done in the outbox (") +
                  std::to_string(r.outbox.size()) + Say(l, "), em risco ", "), at risk ") + Brl(r.outbox_at_risk));
    for (const PendingRequest& p : r.outbox) {
      Line(out, "    #" + std::to_string(p.id) + " " + p.state + " " + p.kind + " " + p.key + " " + Brl(p.amount) +
                    (p.last_error.empty() ? "" : ": " + p.last_error));
    }
  }
}

// The TEF Dial sales by fiscal document.
void TefDialText(const Report& r, std::string& out) {
  if (r.tef_dial.present && !r.tef_dial.documents.empty()) {
    const TefDialDocument& t = r.tef_dial.total;
    Line(out, "");
    Line(out, std::string(t.pending > 0 ? "! " : "") + "TEF Dial sales by fiscal document: " +
                  std::to_string(t.confirmed) + " confirmed " + Brl(t.confirmed_amount) + ", " +
                  std::to_string(t.undone) + " undone " + Brl(t.undone_amount) + ", " + std::to_string(t.cancelled) +
                  " cancelled " + Brl(t.cancelled_amount) + ", " + std::to_string(t.pending) + " pending " +
                  Brl(t.pending_amount) + ", " + std::to_string(t.declined) + " declined");
    for (const TefDialDocument& d : r.tef_dial.documents) {
      Line(out, std::string(d.pending > 0 ? "  ! " : "    ") + "doc " +
                    (d.fiscal_document.empty() ? "(none)" : d.fiscal_document) + ": " + std::to_string(d.confirmed) +
                    " confirmed, " + std::to_string(d.undone) + " undone, " + std::to_string(d.cancelled) +
                    " cancelled, " + std::to_string(d.pending) + " pending" +
                    (d.pending > 0 ? ": neither CNF nor NCN came; tef_dial.unresolved settles it" : ""));
      for (const std::string& note : d.notes) Line(out, "      " + note);
    }
  }
}

// The store-and-forward card outcomes reported.
void CardOutcomesText(const Report& r, std::string& out) {
  if (!r.card_outcomes.empty()) {
    Line(out, "");
    const Lang l = r.lang;
    Line(out, Say(l, "Cartões guardados offline e enviados depois (", "Store-and-forward card outcomes reported (") +
                  std::to_string(r.card_outcomes.size()) + ")");
    for (const ForwardedCard& c : r.card_outcomes) {
      const std::string outcome = c.outcome == "approved"   ? Say(l, "aprovado", "approved")
                                  : c.outcome == "declined" ? Say(l, "recusado", "declined")
                                  : c.outcome == "expired"  ? Say(l, "expirado", "expired")
                                                            : c.outcome;
      Line(out, std::string(c.outcome == "approved" ? "    " : "  ! ") + c.sale_id + " " + c.masked_pan + " " +
                    Brl(c.amount) + " " + outcome + (c.reason.empty() ? "" : " (" + c.reason + ")") +
                    (c.outcome == "approved" ? "" : Say(l, ": cobrar de outra forma", ": collect another way")));
    }
  }
}

}  // namespace

std::string ReportText(const Report& r) {
  std::string out;
  HeaderText(r, out);
  TotalsText(r, out);
  SalesText(r, out);
  ItemsText(r, out);
  TefDialText(r, out);
  CardOutcomesText(r, out);
  return out;
}

StatusOr<printer::DaySummary> DaySummaryFromJson(std::string_view json, const printer::Merchant& merchant,
                                                 UnixMicros printed_at) {
  const nlohmann::json doc = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return InvalidArgumentError("settlement report: not a JSON object");
  printer::DaySummary summary;
  summary.merchant = merchant;
  summary.at = printed_at;
  try {
    summary.business_day = doc.at("day").get<std::string>();
    for (const nlohmann::json& t : doc.at("totals")) {
      const int count = t.at("count").get<int>();
      if (count == 0) continue;
      summary.totals.push_back({t.at("method").get<std::string>(), count, t.at("gross").get<std::int64_t>()});
    }
    summary.refund_count = doc.at("total").at("refund_count").get<int>();
    summary.refunds_cents = doc.at("total").at("refunds").get<std::int64_t>();
    summary.pending_offline = static_cast<int>(doc.at("outbox").size());
    if (doc.contains("difference")) {
      const nlohmann::json& d = doc.at("difference");
      summary.checked = true;
      summary.bank_cents = d.at("bank").get<std::int64_t>();
      summary.journal_cents = d.at("journal").get<std::int64_t>();
      summary.to_look_at = d.at("to_look_at").get<int>();
    }
    if (doc.contains("late_returned")) {
      summary.late_returned_count = doc.at("late_returned").at("count").get<int>();
      summary.late_returned_cents = doc.at("late_returned").at("amount").get<std::int64_t>();
    }
  } catch (const nlohmann::json::exception& e) {
    return InvalidArgumentError(std::string("settlement report: ") + e.what());
  }
  return summary;
}

}  // namespace balcao::settlement
