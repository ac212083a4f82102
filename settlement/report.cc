// The report as JSON (the one nlohmann TU of settlement/), as text, and back to the summary.
#include "settlement/report.h"

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "checkout/journal_codec.h"
#include "common/money.h"

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

}  // namespace

std::string ReportJson(const Report& r) {
  ordered_json doc;
  doc["day"] = r.day;
  doc["settled_at"] = FormatTimestamp(r.settled_at);
  doc["status"] = r.reconciled() ? "reconciled" : "attention";
  doc["attention"] = r.attention;
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
  ordered_json outbox = ordered_json::array();
  for (const PendingRequest& p : r.outbox) {
    outbox.push_back({{"id", p.id},
                      {"key", p.key},
                      {"kind", p.kind},
                      {"state", p.state},
                      {"sale_id", p.sale_id},
                      {"amount", p.amount},
                      {"last_error", p.last_error}});
  }
  doc["outbox"] = std::move(outbox);
  doc["outbox_at_risk"] = r.outbox_at_risk;
  ordered_json cards = ordered_json::array();
  for (const ForwardedCard& c : r.card_outcomes) {
    cards.push_back({{"sale_id", c.sale_id},
                     {"amount", c.amount},
                     {"card", c.masked_pan},
                     {"outcome", c.outcome},
                     {"reason", c.reason},
                     {"bank_id", c.bank_id}});
  }
  doc["card_outcomes"] = std::move(cards);
  ordered_json ledger = {{"known", r.ledger.known}};
  if (r.ledger.known) {
    ledger["count"] = r.ledger.count;
    ledger["credits"] = r.ledger.credits;
    ledger["debits"] = r.ledger.debits;
    ledger["net"] = r.ledger.credits - r.ledger.debits;
    ledger["sales_net"] = r.ledger.sales_net;
    ledger["other_net"] = r.ledger.credits - r.ledger.debits - r.ledger.sales_net;
  }
  if (r.ledger.balance_known) ledger["balance"] = r.ledger.balance;
  doc["ledger"] = std::move(ledger);
  if (r.bank_calls >= 0) doc["bankCalls"] = r.bank_calls;
  if (r.tef_dial.present) {
    auto counts = [](const TefDialDocument& d) {
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
    };
    ordered_json documents = ordered_json::array();
    for (const TefDialDocument& d : r.tef_dial.documents) documents.push_back(counts(d));
    ordered_json total = counts(r.tef_dial.total);
    total.erase("fiscal_document");
    total.erase("notes");
    doc["tef_dial"] = {{"documents", std::move(documents)}, {"total", std::move(total)}};
  }
  if (r.journal.checked) {
    const JournalCheck& j = r.journal;
    ordered_json journal = {{"verified", j.verified}, {"rows", j.rows}, {"head", j.head}};
    if (!j.verified) {
      journal["broken"] = {{"row", j.broken_row},
                           {"sale_id", j.broken_sale_id},
                           {"seq", j.broken_seq},
                           {"kind", j.broken_kind},
                           {"detail", j.broken_detail}};
    }
    doc["journal"] = std::move(journal);
  }
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

std::string ReportText(const Report& r) {
  std::string out;
  Line(out, "Settlement of " + r.day + " (America/Sao_Paulo), run at " + FormatTimestamp(r.settled_at));
  Line(out, r.reconciled() ? "RECONCILED: the journal and the bank agree"
                           : "ATTENTION: " + std::to_string(r.attention) + " item(s) for the operator");
  if (r.journal.checked && r.journal.verified) {
    Line(out, "Journal chain holds: " + std::to_string(r.journal.rows) + " row(s), head " + r.journal.head);
  } else if (r.journal.checked) {
    const JournalCheck& j = r.journal;
    Line(out,
         "! JOURNAL CHAIN BROKEN: " + j.broken_kind +
             (j.broken_sale_id.empty() ? "" : " at sale " + j.broken_sale_id + " seq " + std::to_string(j.broken_seq)) +
             (j.broken_row > 0 ? " (journal row " + std::to_string(j.broken_row) + ")" : ""));
    Line(out, "    " + j.broken_detail);
    Line(out, "    the journal was changed behind the store's back: this report may not show what happened");
  }
  Line(out, "");
  Line(out, "Totals of the day (payments counted tonight, refunds given back in the day)");
  for (const MethodTotal& t : r.totals) {
    Line(out, "  " + Pad(t.method, 9) + Pad(std::to_string(t.count) + " sale(s)", 12) + Pad(Brl(t.gross), 14) +
                  "refunds " + Pad(std::to_string(t.refund_count) + " / " + Brl(t.refunds), 18) + "net " +
                  Brl(t.net()));
  }
  const MethodTotal& t = r.total;
  Line(out, "  " + Pad("total", 9) + Pad(std::to_string(t.count) + " sale(s)", 12) + Pad(Brl(t.gross), 14) +
                "refunds " + Pad(std::to_string(t.refund_count) + " / " + Brl(t.refunds), 18) + "net " + Brl(t.net()));
  if (r.late_returned_count > 0) {
    Line(out, "Late money given back to payers: " + std::to_string(r.late_returned_count) + " / " +
                  Brl(r.late_returned) + " (not revenue: not in the totals)");
  }
  if (r.ledger.known) {
    Line(out, "Bank ledger of the day: " + std::to_string(r.ledger.count) + " transaction(s), credits " +
                  Brl(r.ledger.credits) + ", debits " + Brl(r.ledger.debits) + ", net " +
                  Brl(r.ledger.credits - r.ledger.debits) + " (this box's sales " + Brl(r.ledger.sales_net) +
                  ", other " + Brl(r.ledger.credits - r.ledger.debits - r.ledger.sales_net) + ")");
  }
  if (r.ledger.balance_known) Line(out, "Bank balance now: " + Brl(r.ledger.balance));
  if (r.bank_calls >= 0) Line(out, "Read from the bank in " + std::to_string(r.bank_calls) + " call(s)");
  Line(out, "");
  Line(out, "Sales (" + std::to_string(r.sales.size()) + ")");
  for (const SaleFinding& f : r.sales) {
    Line(out, std::string(f.attention ? "! " : "  ") + Pad(f.sale_id, 24) + Pad(SaleClassName(f.cls), 18) +
                  Pad(f.method.empty() ? "-" : f.method, 8) + Pad(Brl(f.amount), 14) + "collected " + Brl(f.collected) +
                  ", bank " + Brl(f.bank_net) +
                  (f.in_day    ? ""
                   : f.counted ? " (earlier day, counted tonight)"
                               : " (earlier day)"));
    for (const std::string& note : f.notes) Line(out, "      " + note);
  }
  if (!r.orphans.empty()) {
    Line(out, "");
    Line(out, "! At the bank for sales this box never journaled (" + std::to_string(r.orphans.size()) + ")");
    for (const BankEntity& e : r.orphans) {
      Line(out, "    " + std::string(BankKindName(e.kind)) + " " + e.id + " for sale " + e.sale_id + ": " + e.status +
                    ", " + Brl(e.amount) + ", holds " + Brl(HeldBy(e)));
    }
  }
  if (!r.other_lanes.empty()) {
    const auto lanes = ByLane(r.other_lanes);
    Line(out, "");
    Line(out, "Other lanes (theirs to settle; `balcao settle --store` sums the store)");
    for (const auto& [lane, sum] : lanes)
      Line(out, "    " + Pad(lane, 40) + std::to_string(sum.first) + " entities, holding " + Brl(sum.second));
  }
  if (!r.outbox.empty()) {
    Line(out, "");
    Line(out, "! Requests not done in the outbox (" + std::to_string(r.outbox.size()) + "), at risk " +
                  Brl(r.outbox_at_risk));
    for (const PendingRequest& p : r.outbox) {
      Line(out, "    #" + std::to_string(p.id) + " " + p.state + " " + p.kind + " " + p.key + " " + Brl(p.amount) +
                    (p.last_error.empty() ? "" : ": " + p.last_error));
    }
  }
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
  if (!r.card_outcomes.empty()) {
    Line(out, "");
    Line(out, "Store-and-forward card outcomes reported (" + std::to_string(r.card_outcomes.size()) + ")");
    for (const ForwardedCard& c : r.card_outcomes) {
      Line(out, std::string(c.outcome == "approved" ? "    " : "  ! ") + c.sale_id + " " + c.masked_pan + " " +
                    Brl(c.amount) + " " + c.outcome + (c.reason.empty() ? "" : " (" + c.reason + ")") +
                    (c.outcome == "approved" ? "" : ": collect another way"));
    }
  }
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
