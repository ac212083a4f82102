// The hub's check of a box's journal head against the heads it saw (hub/chain_watch.h).
#include "hub/chain_watch.h"

#include <gtest/gtest.h>

namespace balcao::hub {
namespace {

TEST(ChainWatch, AHeadThatExtendsWhatTheHubSawPasses) {
  const ChainClaim claim{20, "h20", 10, "h10"};
  EXPECT_EQ(ChainBreakOf(claim, std::string("h10"), std::nullopt, 10), "");
  EXPECT_EQ(ChainBreakOf(claim, std::nullopt, std::nullopt, 0), "") << "the first head: nothing to check against";
  EXPECT_EQ(ChainBreakOf({20, "h20", 20, "h20"}, std::string("h20"), std::string("h20"), 20), "") << "unchanged";
}

TEST(ChainWatch, ARowRewrittenWithTheChainRecomputedIsFlagged) {
  const std::string broken = ChainBreakOf({25, "x25", 10, "x10"}, std::string("h10"), std::nullopt, 20);
  EXPECT_NE(broken.find("row 10 now hashes to x10, the hub saw h10"), std::string::npos) << broken;
}

TEST(ChainWatch, ADifferentHeadAtTheSameRowCountIsFlagged) {
  EXPECT_NE(ChainBreakOf({20, "x20", 0, ""}, std::nullopt, std::string("h20"), 20).find("rewritten"),
            std::string::npos);
}

TEST(ChainWatch, RowsRemovedFromTheEndAreFlagged) {
  EXPECT_NE(ChainBreakOf({15, "h15", 0, ""}, std::nullopt, std::nullopt, 20).find("rows were removed"),
            std::string::npos);
}

TEST(ChainWatch, AClaimIsReadFieldByField) {
  auto claim = ParseChainClaim(R"({"rows":3,"head":"ab","prev_rows":1,"prev_at":"cd"})");
  ASSERT_TRUE(claim.ok());
  EXPECT_EQ(claim->rows, 3);
  EXPECT_EQ(claim->prev_at, "cd");
  EXPECT_EQ(ParseChainClaim(R"({"rows":-1,"head":"ab","prev_rows":1,"prev_at":"cd"})").status().message(),
            "chain.rows: a row count");
  EXPECT_EQ(ParseChainClaim(R"({"rows":1,"head":2,"prev_rows":1,"prev_at":"cd"})").status().message(),
            "chain.head: hex");
  EXPECT_FALSE(ParseChainClaim("[]").ok());
}

}  // namespace
}  // namespace balcao::hub
