// The settlement's rows in the box's store: the `settlements` table (migration
// 0002_settlements.sql) and the journal's `sales` listed by business-day window. Uses the
// store's own transaction plumbing (offline/internal/db.h) so it shares its lock and
// durability rules. Thread-safety: as offline::Store.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "offline/journal.h"
#include "offline/store.h"

namespace balcao::settlement::internal {

struct SettlementRow {
  std::string business_day;
  std::int64_t settled_at_ms = 0;
  std::string status;  // "reconciled" | "attention"
  int attention = 0;
  int sales = 0;
  std::int64_t gross = 0;
  std::int64_t refunds = 0;
  std::string report_json;
  std::string report_text;
};

std::optional<SettlementRow> FindSettlement(offline::Store& store, const std::string& day, Status& error);
// kAlreadyExists when the day was settled meanwhile (another run won).
Status InsertSettlement(offline::Store& store, const SettlementRow& row);

// Sales opened in [from_ms, to_ms), and sales still open that opened before `to_ms`.
StatusOr<std::vector<offline::SaleSummary>> SalesInScope(offline::Store& store, std::int64_t from_ms,
                                                         std::int64_t to_ms);
// Whether the journal has the sale (any day).
StatusOr<bool> Journaled(offline::Store& store, const std::string& sale_id);

}  // namespace balcao::settlement::internal
