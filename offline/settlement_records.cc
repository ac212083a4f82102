#include "offline/settlement_records.h"

#include "offline/internal/db.h"
#include "offline/internal/journal_rows.h"

namespace balcao::offline {

using internal::Stmt;
using internal::Txn;

std::optional<SettlementRow> FindSettlement(Store& store, const std::string& day, Status& error) {
  Txn txn(store.impl(), Txn::kRead);
  if (!txn.status().ok()) {
    error = txn.status();
    return std::nullopt;
  }
  Stmt stmt(txn,
            "SELECT settled_at, status, attention, sales, gross, refunds, report_json, report_text "
            "FROM settlements WHERE business_day=?1");
  StatusOr<bool> row = stmt.Bind(1, day).Step();
  if (!row.ok()) {
    error = row.status();
    return std::nullopt;
  }
  if (!*row) return std::nullopt;
  return SettlementRow{day,
                       stmt.Int(0),
                       stmt.Text(1),
                       static_cast<int>(stmt.Int(2)),
                       static_cast<int>(stmt.Int(3)),
                       stmt.Int(4),
                       stmt.Int(5),
                       stmt.Text(6),
                       stmt.Text(7)};
}

Status InsertSettlement(Store& store, const SettlementRow& row, const std::vector<SaleMark>& marks) {
  Txn txn(store.impl(), Txn::kWrite);
  BALCAO_RETURN_IF_ERROR(txn.status());
  {
    Stmt exists(txn, "SELECT 1 FROM settlements WHERE business_day=?1");
    BALCAO_ASSIGN_OR_RETURN(bool found, exists.Bind(1, row.business_day).Step());
    if (found) return AlreadyExistsError("settlement of " + row.business_day + ": already recorded");
  }
  BALCAO_ASSIGN_OR_RETURN(internal::ChainHead head, internal::ReadChainHead(txn));
  Stmt stmt(
      txn,
      "INSERT INTO settlements (business_day, settled_at, status, attention, sales, gross, refunds, "
      "report_json, report_text, journal_rows, journal_head) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  BALCAO_RETURN_IF_ERROR(stmt.BindAll(row.business_day, row.settled_at_ms, row.status, row.attention, row.sales,
                                      row.gross, row.refunds, row.report_json, row.report_text, head.rows)
                             .BindBlob(11, head.hash)
                             .Run());
  for (const SaleMark& mark : marks) {
    Stmt upsert(txn,
                "INSERT INTO settlement_sales (sale_id, counted_day, done, seen_seq, refunds_counted, "
                "late_returned_counted) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
                "ON CONFLICT (sale_id) DO UPDATE SET done=excluded.done, seen_seq=excluded.seen_seq, "
                "refunds_counted=excluded.refunds_counted, late_returned_counted=excluded.late_returned_counted, "
                "counted_day=CASE WHEN counted_day='' THEN excluded.counted_day ELSE counted_day END");
    BALCAO_RETURN_IF_ERROR(upsert
                               .BindAll(mark.sale_id, mark.counted ? row.business_day : std::string(),
                                        mark.done ? 1 : 0, mark.seen_seq, mark.refunds_counted,
                                        mark.late_returned_counted)
                               .Run());
  }
  return txn.Commit();
}

StatusOr<std::vector<SettlementRow>> ListSettlements(Store& store, int limit) {
  Txn txn(store.impl(), Txn::kRead);
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt stmt(txn,
            "SELECT business_day, settled_at, status, attention, sales, gross, refunds FROM settlements "
            "ORDER BY business_day DESC LIMIT ?1");
  stmt.Bind(1, limit);
  return sqlite::ReadAll(stmt, [](const Stmt& row) {
    return SettlementRow{
        row.Text(0), row.Int(1), row.Text(2), static_cast<int>(row.Int(3)), static_cast<int>(row.Int(4)),
        row.Int(5),  row.Int(6)};
  });
}

namespace {

// The columns ScopedOf reads, joined with the sale's marks (t).
constexpr const char* kScopedSelect =
    "SELECT s.sale_id, s.opened_at, s.last_seq, coalesce(s.closed_at, 0), s.final_state, "
    "coalesce(t.counted_day, '') != '', coalesce(t.seen_seq, 0), t.refunds_counted IS NULL, "
    "coalesce(t.refunds_counted, 0), coalesce(t.late_returned_counted, 0), t.sale_id IS NULL "
    "FROM sales s LEFT JOIN settlement_sales t ON t.sale_id = s.sale_id ";

ScopedSale ScopedOf(const Stmt& stmt) {
  ScopedSale sale{{stmt.Text(0), stmt.Int(1), stmt.Int(2), stmt.Int(3), stmt.Text(4)}, stmt.Int(5) != 0, stmt.Int(6)};
  const bool legacy = stmt.Int(7) != 0 && stmt.Int(10) == 0;  // a row kept before migration 0003
  if (!legacy) {
    sale.refunds_counted = stmt.Int(8);
    sale.late_returned_counted = stmt.Int(9);
  }
  return sale;
}

}  // namespace

StatusOr<std::vector<ScopedSale>> SalesInScope(Store& store, std::int64_t from_ms, std::int64_t to_ms) {
  Txn txn(store.impl(), Txn::kRead);
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt stmt(txn, std::string(kScopedSelect) +
                     "WHERE s.opened_at < ?2 AND (s.opened_at >= ?1 OR coalesce(t.done, 0) = 0 OR "
                     "s.last_seq > t.seen_seq) ORDER BY s.opened_at, s.sale_id");
  stmt.BindAll(from_ms, to_ms);
  return sqlite::ReadAll(stmt, ScopedOf);
}

StatusOr<std::optional<ScopedSale>> ScopedSaleOf(Store& store, const std::string& sale_id) {
  Txn txn(store.impl(), Txn::kRead);
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt stmt(txn, std::string(kScopedSelect) + "WHERE s.sale_id = ?1");
  BALCAO_ASSIGN_OR_RETURN(bool row, stmt.Bind(1, sale_id).Step());
  if (!row) return std::optional<ScopedSale>();
  return std::optional<ScopedSale>(ScopedOf(stmt));
}

StatusOr<bool> Journaled(Store& store, const std::string& sale_id) {
  Txn txn(store.impl(), Txn::kRead);
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt stmt(txn, "SELECT 1 FROM sales WHERE sale_id=?1");
  return stmt.Bind(1, sale_id).Step();
}

StatusOr<std::string> LatestLane(Store& store) {
  Txn txn(store.impl(), Txn::kRead);
  BALCAO_RETURN_IF_ERROR(txn.status());
  // A sale's Start row carries its settings.
  Stmt stmt(txn,
            "SELECT json_extract(j.payload, '$.settings.lane') FROM sales s JOIN sale_journal j "
            "ON j.sale_id = s.sale_id AND j.kind = 'Start' "
            "WHERE json_extract(j.payload, '$.settings.lane') <> '' ORDER BY s.opened_at DESC LIMIT 1");
  BALCAO_ASSIGN_OR_RETURN(bool found, stmt.Step());
  return found ? stmt.Text(0) : std::string();
}

}  // namespace balcao::offline
