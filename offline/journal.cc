// The sale journal on the store; its chain's reads and checks are in journal_chain_rows.cc.
#include "offline/journal.h"

#include "offline/card_scan.h"
#include "offline/internal/db.h"
#include "offline/internal/journal_rows.h"
#include "offline/journal_chain.h"

namespace balcao::offline {

namespace internal {

Status AppendJournal(Txn& txn, const std::string& sale_id, std::int64_t seq, const std::string& kind,
                     const std::string& json_payload) {
  if (sale_id.empty()) return InvalidArgumentError("journal sale_id: must not be empty");
  if (kind.empty()) return InvalidArgumentError("journal kind: must not be empty");
  if (seq < 0) return InvalidArgumentError("journal seq: must be >= 0");
  BALCAO_RETURN_IF_ERROR(RejectCardData(json_payload, "journal payload"));
  BALCAO_RETURN_IF_ERROR(txn.status());
  const std::int64_t now = internal::StoreOf(txn).NowMs();

  Stmt existing(txn, "SELECT kind, payload FROM sale_journal WHERE sale_id=?1 AND seq=?2");
  BALCAO_ASSIGN_OR_RETURN(bool found, existing.BindAll(sale_id, seq).Step());
  if (found) {
    if (existing.Text(0) == kind && existing.Text(1) == json_payload) return OkStatus();
    return AlreadyExistsError("journal seq " + std::to_string(seq) + " of sale " + sale_id +
                              " already holds a different event");
  }
  Stmt sale(txn, "SELECT last_seq FROM sales WHERE sale_id=?1");
  BALCAO_ASSIGN_OR_RETURN(bool known, sale.Bind(1, sale_id).Step());
  if (known && seq <= sale.Int(0))
    return InvalidArgumentError("journal seq: " + std::to_string(seq) + " must be greater than the sale's last (" +
                                std::to_string(sale.Int(0)) + ")");
  Stmt upsert(txn,
              "INSERT INTO sales (sale_id, opened_at, last_seq) VALUES (?1, ?2, ?3) "
              "ON CONFLICT (sale_id) DO UPDATE SET last_seq=excluded.last_seq");
  BALCAO_RETURN_IF_ERROR(upsert.BindAll(sale_id, now, seq).Run());
  // Read in this write transaction: no other writer can append between the read and the insert.
  BALCAO_ASSIGN_OR_RETURN(ChainHead head, ReadChainHead(txn));
  ChainRow row{head.rows + 1, sale_id, seq, kind, json_payload, now, head.hash, ""};
  row.hash = ChainLink(row.prev, row);
  Stmt insert(txn,
              "INSERT INTO sale_journal (sale_id, seq, kind, payload, created_at, chain_seq, chain_prev, chain_hash) "
              "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  return insert.BindAll(sale_id, seq, kind, json_payload, now, row.position)
      .BindBlob(7, row.prev)
      .BindBlob(8, row.hash)
      .Run();
}

}  // namespace internal

using internal::Stmt;
using internal::Txn;

Journal::Journal(Store& store) : store_(store) {}

Status Journal::Append(const std::string& sale_id, std::int64_t seq, const std::string& kind,
                       const std::string& json_payload) {
  Txn txn(store_.impl(), Txn::kWrite);
  BALCAO_RETURN_IF_ERROR(internal::AppendJournal(txn, sale_id, seq, kind, json_payload));
  return txn.Commit();
}

StatusOr<std::vector<JournalEntry>> Journal::Read(const std::string& sale_id) {
  Txn txn(store_.impl(), Txn::kRead);
  Stmt stmt(txn, "SELECT seq, kind, payload, created_at FROM sale_journal WHERE sale_id=?1 ORDER BY seq");
  stmt.Bind(1, sale_id);
  return sqlite::ReadAll(stmt, [&](const Stmt& row) {
    return JournalEntry{sale_id, row.Int(0), row.Text(1), row.Text(2), row.Int(3)};
  });
}

StatusOr<std::vector<std::string>> Journal::OpenSales() {
  Txn txn(store_.impl(), Txn::kRead);
  Stmt stmt(txn, "SELECT sale_id FROM sales WHERE closed_at IS NULL ORDER BY opened_at, sale_id");
  return sqlite::ReadAll(stmt, [](const Stmt& row) { return row.Text(0); });
}

StatusOr<SaleSummary> Journal::Sale(const std::string& sale_id) {
  Txn txn(store_.impl(), Txn::kRead);
  Stmt stmt(txn, "SELECT opened_at, last_seq, coalesce(closed_at, 0), final_state FROM sales WHERE sale_id=?1");
  BALCAO_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, sale_id).Step());
  if (!found) return NotFoundError("sale " + sale_id + " has no journal");
  return SaleSummary{sale_id, stmt.Int(0), stmt.Int(1), stmt.Int(2), stmt.Text(3)};
}

Status Journal::MarkClosed(const std::string& sale_id, const std::string& final_state) {
  if (final_state.empty()) return InvalidArgumentError("journal final_state: must name the sale's terminal state");
  BALCAO_ASSIGN_OR_RETURN(
      const int closed,
      internal::RunWrite(store_.impl(), "UPDATE sales SET closed_at=?2, final_state=?3 WHERE sale_id=?1", sale_id,
                         store_.impl().NowMs(), final_state));
  if (closed == 0) return NotFoundError("sale " + sale_id + " has no journal");
  return OkStatus();
}

Status Journal::Reopen(const std::string& sale_id) {
  BALCAO_ASSIGN_OR_RETURN(
      const int reopened,
      internal::RunWrite(store_.impl(), "UPDATE sales SET closed_at=NULL, final_state='' WHERE sale_id=?1", sale_id));
  if (reopened == 0) return NotFoundError("sale " + sale_id + " has no journal");
  return OkStatus();
}

}  // namespace balcao::offline
