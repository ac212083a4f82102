#include "common/card_digits.h"

#include <gtest/gtest.h>

#include <string>

namespace balcao {
namespace {

std::string Masked(std::string text) {
  MaskCardNumbers(text);
  return text;
}

TEST(CardDigits, Luhn) {
  EXPECT_TRUE(PassesLuhn("4111111111111111"));
  EXPECT_TRUE(PassesLuhn("378282246310005"));
  EXPECT_FALSE(PassesLuhn("4111111111111112"));
  EXPECT_FALSE(PassesLuhn("41111a1111111111"));
  EXPECT_FALSE(PassesLuhn(""));
}

TEST(CardDigits, FindsRunsWithSingleSeparatorsAndReportsWhere) {
  const std::string text = "paid 4111 1111 1111 1111, then 5555-5555-5555-4444.";
  auto runs = FindCardNumbers(text);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(text.substr(runs[0].begin, runs[0].end - runs[0].begin), "4111 1111 1111 1111");
  EXPECT_EQ(text.substr(runs[1].begin, runs[1].end - runs[1].begin), "5555-5555-5555-4444");
  EXPECT_TRUE(FindCardNumbers("4111  1111  1111  1111").empty());  // double spaces split the run
  EXPECT_TRUE(FindCardNumbers("41111111111111111111").empty());    // 20 digits
  EXPECT_TRUE(FindCardNumbers("411111111111").empty());            // 12 digits
  EXPECT_TRUE(FindCardNumbers("1111111111111111111").empty());     // does not start like a card
  EXPECT_TRUE(FindCardNumbers("7111111111111111").empty());
  EXPECT_TRUE(FindCardNumbers("4111111111111112").empty());  // Luhn fails
}

TEST(CardDigits, GluedRunsOnlyWhenAsked) {
  EXPECT_TRUE(FindCardNumbers("id4111111111111111").empty());
  EXPECT_TRUE(FindCardNumbers("4111111111111111x").empty());
  EXPECT_EQ(FindCardNumbers("id4111111111111111", {.include_glued = true}).size(), 1u);
  EXPECT_EQ(FindCardNumbers("4111111111111111x", {.include_glued = true}).size(), 1u);
}

TEST(CardDigits, MasksAllButFirstSixAndLastFour) {
  EXPECT_EQ(Masked("4111111111111111"), "411111******1111");
  EXPECT_EQ(Masked("card 4111 1111 1111 1111 ok"), "card 4111 11** **** 1111 ok");
  EXPECT_EQ(Masked("5555-5555-5555-4444"), "5555-55**-****-4444");
  EXPECT_EQ(Masked("378282246310005"), "378282*****0005");
  EXPECT_EQ(Masked("6011000990139424124"), "601100*********4124");  // 19 digits
  EXPECT_EQ(Masked("key=sale-4242424242424242/x"), "key=sale-424242******4242/x");
  EXPECT_EQ(Masked("pan4242424242424242"), "pan424242******4242");
  // Left alone: not card-like.
  EXPECT_EQ(Masked("id 1234567890123456 at 2026-11-21T18:08:50.123456"),
            "id 1234567890123456 at 2026-11-21T18:08:50.123456");
  EXPECT_EQ(Masked("4111111111111112"), "4111111111111112");
  std::string two = "4111111111111111 and 5555555555554444";
  EXPECT_EQ(MaskCardNumbers(two), 2);
  EXPECT_EQ(two, "411111******1111 and 555555******4444");
}

}  // namespace
}  // namespace balcao
