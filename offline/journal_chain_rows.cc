// The journal chain on the store: the head read before each append, the migration that
// chains the rows written before the chain existed, and the check of the whole journal.
#include <limits>
#include <utility>
#include <vector>

#include "offline/internal/db.h"
#include "offline/internal/journal_rows.h"
#include "offline/journal.h"
#include "offline/journal_chain.h"

namespace balcao::offline {

namespace internal {

StatusOr<ChainHead> ReadChainHead(Txn& txn) {
  Stmt last(txn,
            "SELECT chain_seq, chain_hash FROM sale_journal WHERE chain_seq IS NOT NULL "
            "ORDER BY chain_seq DESC LIMIT 1");
  BALCAO_ASSIGN_OR_RETURN(bool found, last.Step());
  if (!found) return ChainHead{0, ChainGenesis()};
  return ChainHead{last.Int(0), last.Blob(1)};
}

Status ChainUnchainedRows(Txn& txn) {
  std::vector<std::pair<std::string, std::int64_t>> keys;
  {
    Stmt unchained(txn,
                   "SELECT sale_id, seq FROM sale_journal WHERE chain_seq IS NULL ORDER BY created_at, sale_id, seq");
    while (true) {
      BALCAO_ASSIGN_OR_RETURN(bool row, unchained.Step());
      if (!row) break;
      keys.emplace_back(unchained.Text(0), unchained.Int(1));
    }
  }
  BALCAO_ASSIGN_OR_RETURN(ChainHead head, ReadChainHead(txn));
  for (const auto& [sale_id, seq] : keys) {
    Stmt read(txn, "SELECT kind, payload, created_at FROM sale_journal WHERE sale_id=?1 AND seq=?2");
    BALCAO_ASSIGN_OR_RETURN(bool found, read.BindAll(sale_id, seq).Step());
    if (!found) return InternalError("journal chain: row " + sale_id + "/" + std::to_string(seq) + " vanished");
    ChainRow row{head.rows + 1, sale_id, seq, read.Text(0), read.Text(1), read.Int(2), head.hash, ""};
    row.hash = ChainLink(row.prev, row);
    Stmt update(txn, "UPDATE sale_journal SET chain_seq=?3, chain_prev=?4, chain_hash=?5 WHERE sale_id=?1 AND seq=?2");
    BALCAO_RETURN_IF_ERROR(
        update.BindAll(sale_id, seq, row.position).BindBlob(4, row.prev).BindBlob(5, row.hash).Run());
    head = {row.position, row.hash};
  }
  return OkStatus();
}

}  // namespace internal

namespace {

using internal::Stmt;
using internal::Txn;

constexpr int kBatchRows = 2000;

StatusOr<std::vector<ChainAnchor>> ReadAnchors(Store& store) {
  Txn txn(store.impl(), Txn::kRead);
  Stmt stmt(txn,
            "SELECT business_day, journal_rows, journal_head FROM settlements WHERE journal_rows IS NOT NULL "
            "ORDER BY journal_rows, business_day");
  return sqlite::ReadAll(stmt, [](const Stmt& row) { return ChainAnchor{row.Text(0), row.Int(1), row.Blob(2)}; });
}

// Rows after position `after`, at most kBatchRows, in chain order; rows without a position
// (written around the chain) come first, with position 0.
Status ReadBatch(Store& store, std::int64_t after, ChainVerifier& verifier, std::int64_t& last, int& count) {
  Txn txn(store.impl(), Txn::kRead);
  if (after == std::numeric_limits<std::int64_t>::min()) {
    Stmt unchained(txn, "SELECT sale_id, seq, kind, payload, created_at FROM sale_journal WHERE chain_seq IS NULL");
    while (true) {
      BALCAO_ASSIGN_OR_RETURN(bool row, unchained.Step());
      if (!row) break;
      verifier.Add({0, unchained.Text(0), unchained.Int(1), unchained.Text(2), unchained.Text(3), unchained.Int(4)});
    }
  }
  Stmt stmt(txn,
            "SELECT chain_seq, sale_id, seq, kind, payload, created_at, chain_prev, chain_hash FROM sale_journal "
            "WHERE chain_seq > ?1 ORDER BY chain_seq LIMIT ?2");
  stmt.BindAll(after, kBatchRows);
  count = 0;
  while (true) {
    BALCAO_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) return OkStatus();
    ChainRow chained{stmt.Int(0),  stmt.Text(1), stmt.Int(2),  stmt.Text(3),
                     stmt.Text(4), stmt.Int(5),  stmt.Blob(6), stmt.Blob(7)};
    last = chained.position;
    ++count;
    verifier.Add(chained);
  }
}

// Sales whose index (sales.last_seq) is ahead of their last journal row: rows deleted from
// the end of the journal, where no later row's link notices.
Status CheckSaleEnds(Store& store, ChainVerifier& verifier) {
  Txn txn(store.impl(), Txn::kRead);
  Stmt stmt(txn,
            "SELECT sale_id, last_seq, coalesce(journal_last, 0) FROM (SELECT s.sale_id, s.last_seq, s.opened_at, "
            "(SELECT max(j.seq) FROM sale_journal j WHERE j.sale_id = s.sale_id) AS journal_last FROM sales s) "
            "WHERE journal_last IS NOT last_seq ORDER BY opened_at, sale_id LIMIT 1");
  BALCAO_ASSIGN_OR_RETURN(bool found, stmt.Step());
  if (found) verifier.AddSaleEndMismatch(stmt.Text(0), stmt.Int(1), stmt.Int(2));
  return OkStatus();
}

}  // namespace

StatusOr<Journal::ChainReport> Journal::ReportChain(std::int64_t position) {
  Txn txn(store_.impl(), Txn::kRead);
  BALCAO_RETURN_IF_ERROR(txn.status());
  BALCAO_ASSIGN_OR_RETURN(internal::ChainHead head, internal::ReadChainHead(txn));
  ChainReport report{head.rows, head.hash, position == 0 ? ChainGenesis() : ""};
  if (position > 0) {
    Stmt at(txn, "SELECT chain_hash FROM sale_journal WHERE chain_seq=?1");
    BALCAO_ASSIGN_OR_RETURN(bool found, at.Bind(1, position).Step());
    if (found) report.at = at.Blob(0);
  }
  return report;
}

StatusOr<ChainVerdict> Journal::VerifyChain() {
  // Anchors first: every head they name was written before the rows read next.
  BALCAO_ASSIGN_OR_RETURN(std::vector<ChainAnchor> anchors, ReadAnchors(store_));
  ChainVerifier verifier(std::move(anchors));
  std::int64_t last = std::numeric_limits<std::int64_t>::min();
  int count = 0;
  do {
    BALCAO_RETURN_IF_ERROR(ReadBatch(store_, last, verifier, last, count));
  } while (count == kBatchRows);
  BALCAO_RETURN_IF_ERROR(CheckSaleEnds(store_, verifier));
  return verifier.Finish();
}

}  // namespace balcao::offline
