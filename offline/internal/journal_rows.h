// Journal writes inside a caller's transaction, so an event and the outbox row it
// causes can commit together (Outbox::EnqueueWithJournal), and the journal chain's
// reads and writes that other parts of the store run in their own transactions.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"
#include "offline/internal/db.h"

namespace balcao::offline::internal {

// Validates and appends inside `txn` (see Journal::Append for the rules), chained to the
// row appended last (journal_chain.h), read inside the same transaction.
Status AppendJournal(Txn& txn, const std::string& sale_id, std::int64_t seq, const std::string& kind,
                     const std::string& json_payload);

// The journal's last chained row: its position (0 when none) and hash (ChainGenesis()).
struct ChainHead {
  std::int64_t rows = 0;
  std::string hash;
};
StatusOr<ChainHead> ReadChainHead(Txn& txn);

// Migration journal_chain's C++ part: chains the rows that have no chain value yet, oldest
// first by (created_at, sale_id, seq) (the order they were appended in is not recorded),
// after the rows already chained. Idempotent: a second run finds nothing to chain.
Status ChainUnchainedRows(Txn& txn);

}  // namespace balcao::offline::internal
