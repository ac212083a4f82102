// The nightly count of TEF Dial sales per fiscal document (settlement.h, CountTefDial). Pure.
#include <map>

#include "settlement/settlement.h"

namespace balcao::settlement {

TefDialDay CountTefDial(const integration::tefdial::Exchange& exchange, UnixMicros from, UnixMicros to) {
  namespace tef = integration::tefdial;
  TefDialDay day;
  day.present = true;
  std::map<std::string, TefDialDocument> by_document;
  for (const tef::TefSale& sale : exchange.sales) {
    if (sale.opened_at < from || sale.opened_at >= to) continue;
    for (TefDialDocument* d : {&by_document[sale.fiscal_document], &day.total}) {
      d->fiscal_document = d == &day.total ? "" : sale.fiscal_document;
      switch (sale.phase) {
        case tef::Phase::kPending:
        case tef::Phase::kRunning:
          ++d->pending;
          d->pending_amount += sale.amount;
          break;
        case tef::Phase::kConfirmed:
          ++d->confirmed;
          d->confirmed_amount += sale.amount;
          break;
        case tef::Phase::kUndoing:
        case tef::Phase::kUndone:
          ++d->undone;
          d->undone_amount += sale.amount;
          break;
        case tef::Phase::kCancelling:
        case tef::Phase::kCancelled:
          ++d->cancelled;
          d->cancelled_amount += sale.amount;
          break;
        case tef::Phase::kDeclined:
          ++d->declined;
          break;
      }
      if (sale.resolved_by.rfind("policy-", 0) == 0)
        d->notes.push_back("NSU " + sale.nsu + (sale.resolved_by == "policy-undo" ? " undone" : " confirmed") +
                           " by tef_dial.unresolved: the PDV never sent CNF nor NCN");
    }
  }
  for (auto& [document, counts] : by_document) day.documents.push_back(std::move(counts));
  return day;
}

}  // namespace balcao::settlement
