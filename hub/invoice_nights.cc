#include "hub/invoice_nights.h"

#include <limits>
#include <set>
#include <string_view>

namespace balcao::hub {
namespace {

using settlement::BankEntity;
using settlement::LedgerLine;

constexpr std::string_view kInvoiceSource = "invoice/";

bool IsInvoiceCredit(const LedgerLine& line) { return line.amount > 0 && line.source.starts_with(kInvoiceSource); }

UnixMicros NightOf(const NightTimes& nights, const std::string& lane, UnixMicros otherwise) {
  const auto it = nights.find(lane);
  return it == nights.end() ? otherwise : it->second;
}

// An invoice of an earlier day that this night counted, as the bank holds it: paid, its credit.
BankEntity EarlierInvoice(const LedgerLine& credit) {
  BankEntity e;
  e.kind = settlement::BankKind::kInvoice;
  e.id = credit.source.substr(kInvoiceSource.size());
  e.sale_id = credit.sale_id;
  e.lane = credit.lane;
  e.status = "paid";
  e.amount = e.ledger_in = credit.amount + credit.fee;
  return e;
}

}  // namespace

InvoiceNights AttributeInvoices(const InvoiceNightsInput& in) {
  std::map<std::string, const LedgerLine*> paid;  // "invoice/<id>" -> its first credit: when it was paid
  for (const LedgerLine& line : in.ledger) {
    if (!IsInvoiceCredit(line)) continue;
    auto [it, fresh] = paid.emplace(line.source, &line);
    if (!fresh && line.created < it->second->created) it->second = &line;
  }
  InvoiceNights out;
  std::set<std::string> of_the_day;  // the sources of the invoices created in the day
  for (BankEntity e : in.entities) {
    if (e.kind == settlement::BankKind::kInvoice) {
      const std::string source = settlement::SourceOf(e);
      of_the_day.insert(source);
      const auto credit = paid.find(source);
      if (!e.lane.empty() && credit != paid.end() && credit->second->created > NightOf(in.nights, e.lane, in.day_end)) {
        out.later[e.lane].push_back(source);
        e.status = "created";  // as the lane's night saw it: waiting to be paid
        e.ledger_in = e.ledger_out = 0;
      }
    }
    out.entities.push_back(std::move(e));
  }
  for (const LedgerLine& line : in.ledger) {
    const bool created_in_day = line.created >= in.day_start && line.created < in.day_end;
    if (!IsInvoiceCredit(line) || line.lane.empty()) {
      if (created_in_day) out.ledger.push_back(line);
      continue;
    }
    const bool own = of_the_day.count(line.source) > 0;
    // An earlier day's invoice paid before the night of the day before ran: that night's.
    const UnixMicros after =
        own ? std::numeric_limits<UnixMicros>::min() : NightOf(in.previous_nights, line.lane, in.day_start);
    if (line.created <= after || line.created > NightOf(in.nights, line.lane, in.day_end)) continue;
    out.ledger.push_back(line);
    if (own || paid[line.source] != &line) continue;
    out.earlier[line.lane].push_back(line.source);
    out.entities.push_back(EarlierInvoice(line));
  }
  return out;
}

}  // namespace balcao::hub
