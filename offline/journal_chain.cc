#include "offline/journal_chain.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace balcao::offline {
namespace {

std::string Sha256(std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(data.data(), data.size(), out, &len, EVP_sha256(), nullptr) != 1 || len != 32) {
    std::fprintf(stderr, "balcao: SHA-256 is unavailable in OpenSSL\n");
    std::abort();
  }
  return std::string(reinterpret_cast<const char*>(out), len);
}

void PutInt(std::string& out, std::int64_t value) {
  const auto bits = static_cast<std::uint64_t>(value);
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((bits >> shift) & 0xff));
}

void PutText(std::string& out, std::string_view text) {
  PutInt(out, static_cast<std::int64_t>(text.size()));
  out.append(text);
}

// Enough of a hash to tell two apart in a message.
std::string Short(std::string_view hash) { return hash.empty() ? "(none)" : HexOf(hash).substr(0, 12); }

std::string RowName(const ChainRow& row) {
  return "row " + std::to_string(row.position) + " (sale " + row.sale_id + " seq " + std::to_string(row.seq) + ")";
}

}  // namespace

const std::string& ChainGenesis() {
  static const std::string genesis = Sha256("balcao sale journal chain v1");
  return genesis;
}

std::string EncodeChainRow(const ChainRow& row) {
  std::string out;
  out.reserve(6 * 8 + row.sale_id.size() + row.kind.size() + row.payload.size());
  PutInt(out, row.position);
  PutText(out, row.sale_id);
  PutInt(out, row.seq);
  PutText(out, row.kind);
  PutText(out, row.payload);
  PutInt(out, row.created_at_ms);
  return out;
}

std::string ChainLink(std::string_view previous, const ChainRow& row) {
  std::string input(previous);
  input += EncodeChainRow(row);
  return Sha256(input);
}

std::string HexOf(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    hex += kDigits[c >> 4];
    hex += kDigits[c & 15];
  }
  return hex;
}

const char* ChainBreakName(ChainBreakKind kind) {
  switch (kind) {
    case ChainBreakKind::kRowMissing:
      return "row missing";
    case ChainBreakKind::kLinkBroken:
      return "link broken";
    case ChainBreakKind::kContentChanged:
      return "content changed";
    case ChainBreakKind::kHeadRewritten:
      return "rewritten since a settlement";
  }
  return "unknown";
}

ChainVerifier::ChainVerifier(std::vector<ChainAnchor> anchors) : anchors_(std::move(anchors)), prev_(ChainGenesis()) {
  // A settlement of an empty journal protects nothing.
  std::erase_if(anchors_, [](const ChainAnchor& a) { return a.rows <= 0; });
  std::stable_sort(anchors_.begin(), anchors_.end(),
                   [](const ChainAnchor& a, const ChainAnchor& b) { return a.rows < b.rows; });
  verdict_.head = ChainGenesis();
}

void ChainVerifier::Break(ChainBreakKind kind, std::int64_t position, const ChainRow* row, std::string detail) {
  if (verdict_.broken) return;
  ChainBreak broken{kind, position, "", 0, std::move(detail)};
  if (row != nullptr) {
    broken.sale_id = row->sale_id;
    broken.seq = row->seq;
  }
  verdict_.broken = std::move(broken);
}

void ChainVerifier::Add(const ChainRow& row) {
  ++verdict_.rows;
  verdict_.head = row.hash;
  if (verdict_.broken) return;
  if (row.position <= 0 || row.hash.empty() || row.prev.empty()) {
    Break(ChainBreakKind::kLinkBroken, row.position, &row,
          RowName(row) +
              " has no chain value: it was written around the chain (by hand, or by a build older "
              "than the store)");
    return;
  }
  if (row.position > expected_) {
    const std::string missing = row.position - expected_ == 1
                                    ? "row " + std::to_string(expected_)
                                    : "rows " + std::to_string(expected_) + " to " + std::to_string(row.position - 1);
    Break(ChainBreakKind::kRowMissing, expected_, nullptr,
          missing + " missing: the journal goes from row " + std::to_string(expected_ - 1) + " to " + RowName(row));
    return;
  }
  if (row.position < expected_) {
    Break(ChainBreakKind::kLinkBroken, row.position, &row,
          RowName(row) + " comes after row " + std::to_string(expected_ - 1) + ": a row was inserted or renumbered");
    return;
  }
  if (row.prev != prev_) {
    const std::string before =
        expected_ == 1 ? "the genesis value" : "row " + std::to_string(expected_ - 1) + "'s hash";
    Break(
        ChainBreakKind::kLinkBroken, row.position, &row,
        RowName(row) + " was linked to " + Short(row.prev) + ", but " + before + " is " + Short(prev_) +
            (expected_ == 1 ? "" : ": row " + std::to_string(expected_ - 1) + " was rewritten (its hash recomputed)"));
    return;
  }
  const std::string computed = ChainLink(row.prev, row);
  if (computed != row.hash) {
    Break(ChainBreakKind::kContentChanged, row.position, &row,
          RowName(row) + " no longer gives its hash (stored " + Short(row.hash) + ", computed " + Short(computed) +
              "): its content or its stored hash changed");
    return;
  }
  for (; next_anchor_ < anchors_.size() && anchors_[next_anchor_].rows == row.position; ++next_anchor_) {
    const ChainAnchor& anchor = anchors_[next_anchor_];
    if (anchor.head != row.hash) {
      Break(ChainBreakKind::kHeadRewritten, row.position, &row,
            "the settlement of " + anchor.day + " recorded head " + Short(anchor.head) + " at row " +
                std::to_string(anchor.rows) + "; the chain there is now " + Short(row.hash) +
                ": the journal up to that row was rewritten and its chain recomputed");
      return;
    }
    ++verdict_.anchors_checked;
  }
  prev_ = row.hash;
  ++expected_;
}

void ChainVerifier::AddSaleEndMismatch(const std::string& sale_id, std::int64_t indexed_last_seq,
                                       std::int64_t journal_last_seq) {
  if (verdict_.broken) return;
  Break(ChainBreakKind::kRowMissing, 0, nullptr,
        "sale " + sale_id + " reached seq " + std::to_string(indexed_last_seq) + " (the store's sale index), but " +
            (journal_last_seq == 0 ? "the journal has none of its events"
                                   : "its last event in the journal is seq " + std::to_string(journal_last_seq)) +
            ": rows deleted");
  verdict_.broken->sale_id = sale_id;
  verdict_.broken->seq = indexed_last_seq;
}

ChainVerdict ChainVerifier::Finish() {
  if (!verdict_.broken && next_anchor_ < anchors_.size()) {
    const ChainAnchor& anchor = anchors_[next_anchor_];  // the first night that saw rows now gone
    Break(ChainBreakKind::kRowMissing, expected_, nullptr,
          "the settlement of " + anchor.day + " recorded " + std::to_string(anchor.rows) +
              " rows; the journal ends at row " + std::to_string(expected_ - 1) + ": rows deleted from its end");
  }
  return verdict_;
}

ChainVerdict VerifyChain(const std::vector<ChainRow>& rows, std::vector<ChainAnchor> anchors) {
  ChainVerifier verifier(std::move(anchors));
  for (const ChainRow& row : rows) verifier.Add(row);
  return verifier.Finish();
}

}  // namespace balcao::offline
