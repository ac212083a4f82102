// Tamper detection of the boxes' journals (docs/hub.md, "Chain heads"), pure. A box's journal
// is a SHA-256 hash chain (offline/journal_chain.h) whose head lives in the same SQLite file:
// whoever can write the file can rewrite a row and recompute the chain unseen by the box. The
// hub keeps every head a box reported; with each head the box also reports the hash its
// journal now holds at the row count of a head it reported before. A rewritten row at or
// before that row changes that hash, and the hub flags the lane.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/status.h"

namespace balcao::hub {

struct ChainClaim {
  std::int64_t rows = 0;
  std::string head;            // lowercase hex
  std::int64_t prev_rows = 0;  // a row count the box reported before (0: none)
  std::string prev_at;         // the hash its journal holds at that row now
};
// Reads {"rows", "head", "prev_rows", "prev_at"}; kInvalidArgument names the bad field.
StatusOr<ChainClaim> ParseChainClaim(const std::string& json);

// What breaks the claim against what the hub saw: the head it recorded at `prev_rows` and at
// `rows` (nullopt: none recorded). "" when nothing contradicts it.
std::string ChainBreakOf(const ChainClaim& claim, const std::optional<std::string>& seen_at_prev,
                         const std::optional<std::string>& seen_at_rows, std::int64_t most_rows_seen);

}  // namespace balcao::hub
