// The journal's hash chain, pure: the genesis value and the byte encoding pinned, and each
// way a chain can be broken (content, link, missing rows, a settlement's head) told apart.
#include "offline/journal_chain.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace balcao::offline {
namespace {

// Rows 1..n of three interleaved sales, chained as the store chains them.
std::vector<ChainRow> Chain(int n) {
  std::vector<ChainRow> rows;
  std::string prev = ChainGenesis();
  for (int i = 1; i <= n; ++i) {
    ChainRow row{i,
                 "s-" + std::to_string(i % 3),
                 (i + 2) / 3,
                 "cashier.event",
                 R"({"amount":)" + std::to_string(100 * i) + "}",
                 1'700'000'000'000 + i,
                 prev,
                 ""};
    row.hash = ChainLink(prev, row);
    prev = row.hash;
    rows.push_back(row);
  }
  return rows;
}

// Recomputes every hash from `from` (1-based) on: what someone who knows the scheme does.
void Rechain(std::vector<ChainRow>& rows, std::size_t from) {
  for (std::size_t i = from - 1; i < rows.size(); ++i) {
    rows[i].prev = i == 0 ? ChainGenesis() : rows[i - 1].hash;
    rows[i].hash = ChainLink(rows[i].prev, rows[i]);
  }
}

TEST(JournalChain, GenesisIsTheDocumentedValue) {
  EXPECT_EQ(HexOf(ChainGenesis()), "b8730230e72aba23fb3d0374cbdb2f30bf11064103e4a03ea06689802be557d5");
}

TEST(JournalChain, EncodingIsLengthPrefixedBigEndian) {
  const ChainRow row{2, "ab", 3, "k", "{}", 258, "", ""};
  const std::string expected = std::string("\0\0\0\0\0\0\0\x02", 8) + std::string("\0\0\0\0\0\0\0\x02", 8) + "ab" +
                               std::string("\0\0\0\0\0\0\0\x03", 8) + std::string("\0\0\0\0\0\0\0\x01", 8) + "k" +
                               std::string("\0\0\0\0\0\0\0\x02", 8) + "{}" + std::string("\0\0\0\0\0\0\x01\x02", 8);
  EXPECT_EQ(HexOf(EncodeChainRow(row)), HexOf(expected));
  // A negative integer is two's complement.
  EXPECT_EQ(HexOf(EncodeChainRow({-1, "", 0, "", "", 0, "", ""})).substr(0, 16), "ffffffffffffffff");
  // Bytes cannot move from one field to its neighbour.
  const ChainRow shifted{2, "a", 3, "bk", "{}", 258, "", ""};
  const ChainRow original{2, "ab", 3, "k", "{}", 258, "", ""};
  EXPECT_NE(EncodeChainRow(shifted), EncodeChainRow(original));
  const ChainRow kind_payload{2, "ab", 3, "k{", "}", 258, "", ""};
  EXPECT_NE(ChainLink(ChainGenesis(), kind_payload), ChainLink(ChainGenesis(), original));
}

TEST(JournalChain, TheLinkIsSha256OfThePreviousHashAndTheEncoding) {
  const ChainRow row{1, "s-1", 1, "cashier.start", R"({"amount":1500})", 1'700'000'000'000, "", ""};
  const std::string link = ChainLink(ChainGenesis(), row);
  EXPECT_EQ(link.size(), 32u);
  EXPECT_NE(link, ChainLink(std::string(32, '\0'), row));  // the previous hash is part of it
  ChainRow later = row;
  later.created_at_ms += 1;
  EXPECT_NE(link, ChainLink(ChainGenesis(), later));  // and every field
}

TEST(JournalChain, AnIntactChainHoldsAndNamesItsHead) {
  const std::vector<ChainRow> rows = Chain(9);
  const ChainVerdict v = VerifyChain(rows);
  EXPECT_TRUE(v.ok()) << v.broken->detail;
  EXPECT_EQ(v.rows, 9);
  EXPECT_EQ(v.head, rows.back().hash);

  const ChainVerdict empty = VerifyChain({});
  EXPECT_TRUE(empty.ok());
  EXPECT_EQ(empty.rows, 0);
  EXPECT_EQ(empty.head, ChainGenesis());
}

TEST(JournalChain, OneChangedByteIsContentChangedAtThatRow) {
  std::vector<ChainRow> rows = Chain(9);
  rows[4].payload[3] ^= 1;  // row 5
  const ChainVerdict v = VerifyChain(rows);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.broken->kind, ChainBreakKind::kContentChanged);
  EXPECT_EQ(v.broken->position, 5);
  EXPECT_EQ(v.broken->sale_id, rows[4].sale_id);
  EXPECT_EQ(v.broken->seq, rows[4].seq);
  EXPECT_NE(v.broken->detail.find("row 5 (sale " + rows[4].sale_id), std::string::npos) << v.broken->detail;
  EXPECT_EQ(v.rows, 9);  // the rest is still counted

  std::vector<ChainRow> hash_edited = Chain(9);
  hash_edited[4].hash[0] ^= 1;
  EXPECT_EQ(VerifyChain(hash_edited).broken->kind, ChainBreakKind::kContentChanged);
}

TEST(JournalChain, ARowRewrittenWithItsHashRecomputedBreaksTheNextLink) {
  std::vector<ChainRow> rows = Chain(9);
  rows[4].payload = R"({"amount":1})";
  rows[4].hash = ChainLink(rows[4].prev, rows[4]);
  const ChainVerdict v = VerifyChain(rows);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.broken->kind, ChainBreakKind::kLinkBroken);
  EXPECT_EQ(v.broken->position, 6);
  EXPECT_NE(v.broken->detail.find("row 5 was rewritten"), std::string::npos) << v.broken->detail;

  std::vector<ChainRow> first = Chain(3);
  first[0].prev = std::string(32, '\0');
  first[0].hash = ChainLink(first[0].prev, first[0]);
  Rechain(first, 2);
  const ChainVerdict g = VerifyChain(first);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.broken->kind, ChainBreakKind::kLinkBroken);
  EXPECT_EQ(g.broken->position, 1);
  EXPECT_NE(g.broken->detail.find("genesis"), std::string::npos) << g.broken->detail;
}

TEST(JournalChain, DeletedRowsAreAGapInThePositions) {
  std::vector<ChainRow> rows = Chain(9);
  rows.erase(rows.begin() + 3);  // row 4
  ChainVerdict v = VerifyChain(rows);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.broken->kind, ChainBreakKind::kRowMissing);
  EXPECT_EQ(v.broken->position, 4);
  EXPECT_EQ(v.broken->sale_id, "");
  EXPECT_NE(v.broken->detail.find("row 4 missing: the journal goes from row 3 to row 5"), std::string::npos)
      << v.broken->detail;

  rows.erase(rows.begin() + 3, rows.begin() + 5);  // rows 5 and 6 too
  v = VerifyChain(rows);
  EXPECT_NE(v.broken->detail.find("rows 4 to 6 missing"), std::string::npos) << v.broken->detail;

  // Renumbered after a deletion, without rechaining: the link is broken.
  std::vector<ChainRow> renumbered = Chain(6);
  renumbered.erase(renumbered.begin() + 2);
  for (std::size_t i = 2; i < renumbered.size(); ++i) renumbered[i].position -= 1;
  EXPECT_EQ(VerifyChain(renumbered).broken->kind, ChainBreakKind::kLinkBroken);
  EXPECT_EQ(VerifyChain(renumbered).broken->position, 3);
}

TEST(JournalChain, ARowWithoutAChainValueOrOutOfPlaceBreaksTheLink) {
  std::vector<ChainRow> rows = Chain(3);
  rows.insert(rows.begin(), ChainRow{0, "s-x", 1, "k", "{}", 1, "", ""});
  ChainVerdict v = VerifyChain(rows);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.broken->kind, ChainBreakKind::kLinkBroken);
  EXPECT_EQ(v.broken->sale_id, "s-x");
  EXPECT_NE(v.broken->detail.find("no chain value"), std::string::npos) << v.broken->detail;

  std::vector<ChainRow> twice = Chain(3);
  twice.push_back(twice[1]);  // position 2 again after 3
  v = VerifyChain(twice);
  EXPECT_EQ(v.broken->kind, ChainBreakKind::kLinkBroken);
  EXPECT_EQ(v.broken->position, 2);
}

TEST(JournalChain, SettlementHeadsCatchAWholeChainRecomputed) {
  std::vector<ChainRow> rows = Chain(9);
  const std::vector<ChainAnchor> anchors = {{"2026-05-02", 7, rows[6].hash}, {"2026-05-01", 4, rows[3].hash}};
  ChainVerdict v = VerifyChain(rows, anchors);
  EXPECT_TRUE(v.ok());
  EXPECT_EQ(v.anchors_checked, 2);

  // Row 2 changed and every hash after it recomputed: each link holds, the heads do not.
  rows[1].payload = R"({"amount":1})";
  Rechain(rows, 2);
  EXPECT_TRUE(VerifyChain(rows).ok());
  v = VerifyChain(rows, anchors);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.broken->kind, ChainBreakKind::kHeadRewritten);
  EXPECT_EQ(v.broken->position, 4);
  EXPECT_NE(v.broken->detail.find("2026-05-01"), std::string::npos) << v.broken->detail;

  // Rows cut from the end: the night that saw row 7 says they are missing.
  std::vector<ChainRow> cut = Chain(9);
  const std::vector<ChainAnchor> cut_anchors = {{"2026-05-01", 4, cut[3].hash}, {"2026-05-02", 7, cut[6].hash}};
  cut.resize(5);
  v = VerifyChain(cut, cut_anchors);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.broken->kind, ChainBreakKind::kRowMissing);
  EXPECT_EQ(v.broken->position, 6);
  EXPECT_EQ(v.anchors_checked, 1);
  EXPECT_NE(v.broken->detail.find("the settlement of 2026-05-02 recorded 7 rows"), std::string::npos)
      << v.broken->detail;
  // A settlement of an empty journal protects nothing and is not a break.
  EXPECT_TRUE(VerifyChain(Chain(2), {{"2026-04-30", 0, ChainGenesis()}}).ok());
}

TEST(JournalChain, ASaleIndexAheadOfTheJournalIsRowsMissing) {
  ChainVerifier verifier;
  for (const ChainRow& row : Chain(3)) verifier.Add(row);
  verifier.AddSaleEndMismatch("s-2", 4, 3);
  const ChainVerdict v = verifier.Finish();
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.broken->kind, ChainBreakKind::kRowMissing);
  EXPECT_EQ(v.broken->sale_id, "s-2");
  EXPECT_EQ(v.broken->seq, 4);
  EXPECT_NE(v.broken->detail.find("its last event in the journal is seq 3"), std::string::npos) << v.broken->detail;
}

TEST(JournalChain, BreakKindsHaveNames) {
  EXPECT_STREQ(ChainBreakName(ChainBreakKind::kRowMissing), "row missing");
  EXPECT_STREQ(ChainBreakName(ChainBreakKind::kLinkBroken), "link broken");
  EXPECT_STREQ(ChainBreakName(ChainBreakKind::kContentChanged), "content changed");
  EXPECT_STREQ(ChainBreakName(ChainBreakKind::kHeadRewritten), "rewritten since a settlement");
}

}  // namespace
}  // namespace balcao::offline
