// The settlement report's three forms: one JSON document (what `balcao settle --json`
// prints and what the store keeps), the operator's text, and the end-of-day summary
// receipt's data (printer::DaySummary), read back from the JSON so a stored record
// prints the same summary again. Pure. Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "printer/templates.h"
#include "settlement/settlement.h"

namespace balcao::settlement {

// {"day", "settled_at", "status": "reconciled"|"attention", "attention", "difference": {"bank",
//  "journal", "difference", "explained_by": [{"what", "count", "amount"}], "to_look_at"}, "sales": [...],
//  "totals": [...], "total", "closed", "orphans", "other_lanes", "outbox", "outbox_at_risk",
//  "card_outcomes", "ledger", "journal" (when checked: "verified", "rows", "head" and, when
//  broken, "broken": {"row", "sale_id", "seq", "kind", "detail"})}: keys in a fixed order,
//  so equal reports give equal bytes.
std::string ReportJson(const Report& report);
// "Bank R$ X, journal R$ Y, difference R$ Z, explained by ...; N item(s) to look at".
std::string DifferenceText(const Difference& difference, Lang lang = Lang::kEnUs);
// A night's summary, what a box publishes to the chain's hub after its run (docs/hub.md, "The
// boxes' nights"): the ReportJson document without its per-item lists (sales, fed, orphans,
// other_lanes, outbox, card_outcomes), a few KB whatever the day's size. kInvalidArgument when
// `report_json` is not a report. The lists are skipped while parsing: never held whole.
StatusOr<std::string> NightSummaryJson(std::string_view report_json);
// The human report (docs/settlement.md shows one).
std::string ReportText(const Report& report);
// The summary receipt's data from a ReportJson document; kInvalidArgument naming the
// field when it is not one.
StatusOr<printer::DaySummary> DaySummaryFromJson(std::string_view json, const printer::Merchant& merchant,
                                                 UnixMicros printed_at);

}  // namespace balcao::settlement
