// The sale journal's hash chain (docs/offline.md, "The journal chain"). Every row of the
// journal, in the order it was appended (its chain position 1, 2, 3... over all sales),
// carries hash = SHA-256(previous row's hash || EncodeChainRow(row)); the first row chains
// from ChainGenesis(). A row also keeps the previous hash it was linked to, so a check can
// tell a row whose own content changed from a row whose predecessor was rewritten.
// Pure: hashing and checking values; the store reads and writes them (journal.h,
// internal/journal_rows.h). Thread-safety: pure functions; a ChainVerifier is one caller's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace balcao::offline {

// SHA-256 of the 28 ASCII bytes "balcao sale journal chain v1":
// b8730230e72aba23fb3d0374cbdb2f30bf11064103e4a03ea06689802be557d5 (pinned by a test).
const std::string& ChainGenesis();

// One journal row as the chain sees it. Hashes are 32 raw bytes ("" when the row has none).
struct ChainRow {
  std::int64_t position = 0;  // the row's place in the whole journal, 1-based, no gaps
  std::string sale_id;
  std::int64_t seq = 0;  // the event's sequence within its sale
  std::string kind;
  std::string payload;
  std::int64_t created_at_ms = 0;
  std::string prev;  // the hash this row was linked to when written
  std::string hash;  // this row's hash as stored
};

// The bytes a row contributes, in this order: position, sale_id, seq, kind, payload,
// created_at_ms. Integers are 8-byte big-endian two's complement; text is an 8-byte
// big-endian byte length followed by the bytes as stored, so no field can borrow bytes
// from its neighbour.
std::string EncodeChainRow(const ChainRow& row);
// SHA-256(previous || EncodeChainRow(row)): the 32 raw bytes row.hash must hold.
std::string ChainLink(std::string_view previous, const ChainRow& row);
// Lowercase hex of raw bytes.
std::string HexOf(std::string_view bytes);

enum class ChainBreakKind {
  kRowMissing,      // a position with no row (deleted), or fewer rows than a settlement recorded
  kLinkBroken,      // the row does not link to its predecessor (rewritten with a recomputed
                    // hash, moved, inserted, or written without a chain value)
  kContentChanged,  // the row's content (or its stored hash) no longer gives its hash
  kHeadRewritten,   // the chain holds, but not the head a settlement recorded: recomputed since
};
const char* ChainBreakName(ChainBreakKind kind);  // "row missing", "link broken", ...

struct ChainBreak {
  ChainBreakKind kind = ChainBreakKind::kContentChanged;
  std::int64_t position = 0;  // the first row that is broken (a missing row: its position)
  std::string sale_id;        // that row's sale and sequence ("" and 0 for a missing row)
  std::int64_t seq = 0;
  std::string detail;  // what was found, in words
};

// What a nightly settlement recorded of the journal (offline/settlement_records.h).
struct ChainAnchor {
  std::string day;        // the settlement's business day
  std::int64_t rows = 0;  // the journal's last position then
  std::string head;       // that row's hash
};

struct ChainVerdict {
  std::int64_t rows = 0;             // rows read
  std::string head;                  // the last row's stored hash (ChainGenesis() when empty)
  int anchors_checked = 0;           // settlement heads found in place
  std::optional<ChainBreak> broken;  // the first break in chain order
  bool ok() const { return !broken.has_value(); }
};

// Checks rows fed in position order; after the first break the rest are only counted.
class ChainVerifier {
 public:
  explicit ChainVerifier(std::vector<ChainAnchor> anchors = {});
  void Add(const ChainRow& row);
  // The store's sale index says `sale_id` reached `indexed_last_seq`, but the journal's last
  // event of that sale is `journal_last_seq` (0: none): rows deleted at the journal's end.
  void AddSaleEndMismatch(const std::string& sale_id, std::int64_t indexed_last_seq, std::int64_t journal_last_seq);
  // After the last row: a settlement that recorded more rows than there are means rows missing.
  ChainVerdict Finish();

 private:
  void Break(ChainBreakKind kind, std::int64_t position, const ChainRow* row, std::string detail);

  std::vector<ChainAnchor> anchors_;  // by rows
  std::size_t next_anchor_ = 0;
  std::int64_t expected_ = 1;
  std::string prev_;
  ChainVerdict verdict_;
};

// The whole check over rows already in memory (tests, small journals).
ChainVerdict VerifyChain(const std::vector<ChainRow>& rows, std::vector<ChainAnchor> anchors = {});

}  // namespace balcao::offline
