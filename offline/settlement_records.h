// The nightly settlement's rows in the box's store (settlement/ decides what goes in them):
// the `settlements` and `settlement_sales` tables (migration 0002_settlements.sql) and the
// journal's sales listed by business-day window. Here because offline/ owns the store's
// tables and its transactions. Thread-safety: as offline::Store.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "offline/journal.h"
#include "offline/store.h"

namespace balcao::offline {

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

// What a settlement learned about one sale (table settlement_sales).
struct SaleMark {
  std::string sale_id;
  bool counted = false;                    // its payment is in this day's totals
  bool done = false;                       // final: out of later nights' scope
  std::int64_t seen_seq = 0;               // the journal's last sequence this settlement read
  std::int64_t refunds_counted = 0;        // cents of refunds all nights up to this one counted
  std::int64_t late_returned_counted = 0;  // cents of late money given back, likewise
};

std::optional<SettlementRow> FindSettlement(Store& store, const std::string& day, Status& error);
// The day's row and its sales' marks, in one transaction. kAlreadyExists when the day was
// settled meanwhile (another run won). A sale counted once keeps its counted day. The row
// also keeps the sale journal's head as it stands in that transaction (its last row's
// position and hash, journal_chain.h): Journal::VerifyChain checks the chain still passes
// through it.
Status InsertSettlement(Store& store, const SettlementRow& row, const std::vector<SaleMark>& marks);

// The most recent settlements first (without their reports' text), at most `limit`.
StatusOr<std::vector<SettlementRow>> ListSettlements(Store& store, int limit);

struct ScopedSale {
  SaleSummary summary;
  bool counted_before = false;  // an earlier settlement counted its payment
  std::int64_t seen_seq = 0;    // the journal sequence the last settlement read (0: none)
  // What earlier nights counted of its refunds and late-money returns; nullopt on a row kept
  // before migration 0003 (its returns up to seen_seq were counted with the payment).
  std::optional<std::int64_t> refunds_counted;
  std::optional<std::int64_t> late_returned_counted;
};
// Sales opened before `to_ms` that opened in [from_ms, to_ms), that no settlement has seen
// final yet (still open, pay-later, late money, a discrepancy, or never settled), or whose
// journal grew since the last settlement read it (a refund made after its night).
StatusOr<std::vector<ScopedSale>> SalesInScope(Store& store, std::int64_t from_ms, std::int64_t to_ms);
// One sale as SalesInScope gives it, whatever its marks; nullopt when the journal lacks it.
StatusOr<std::optional<ScopedSale>> ScopedSaleOf(Store& store, const std::string& sale_id);
// Whether the journal has the sale (any day).
StatusOr<bool> Journaled(Store& store, const std::string& sale_id);
// The lane (checkout Settings::lane, docs/stores.md) of the most recently opened sale that
// has one; "" when none has.
StatusOr<std::string> LatestLane(Store& store);

}  // namespace balcao::offline
