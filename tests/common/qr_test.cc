#include "common/qr.h"

#include <gtest/gtest.h>

#include <string>

namespace balcao {
namespace {

TEST(Qr, EncodesTheSmallestSymbolWithItsFinderPatterns) {
  auto qr = EncodeQr("http://127.0.0.1:9/x", QrLevel::kL);
  ASSERT_TRUE(qr.ok()) << qr.status().ToString();
  EXPECT_EQ(qr->size, 25);  // 20 bytes at L: version 2
  ASSERT_EQ(qr->modules.size(), 25u * 25u);
  // The three finder patterns: dark 7x7 rings at three corners with a dark 3x3 centre.
  for (const auto& [x0, y0] : {std::pair{0, 0}, std::pair{qr->size - 7, 0}, std::pair{0, qr->size - 7}}) {
    EXPECT_TRUE(qr->dark(x0, y0));
    EXPECT_TRUE(qr->dark(x0 + 6, y0 + 6));
    EXPECT_FALSE(qr->dark(x0 + 1, y0 + 1));
    EXPECT_TRUE(qr->dark(x0 + 3, y0 + 3));
  }
  EXPECT_FALSE(qr->dark_or_light(-1, 0));
  EXPECT_FALSE(qr->dark_or_light(0, qr->size));
}

TEST(Qr, HigherLevelsNeedBiggerSymbols) {
  const std::string text(100, 'a');
  EXPECT_LT(EncodeQr(text, QrLevel::kL)->size, EncodeQr(text, QrLevel::kH)->size);
}

TEST(Qr, RefusesEmptyAndOversizedDataNamingTheRule) {
  auto empty = EncodeQr("", QrLevel::kM);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(empty.status().message().find("empty"), std::string::npos);
  auto big = EncodeQr(std::string(3000, 'x'), QrLevel::kH);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(big.status().message().find("does not fit"), std::string::npos);
  // 2953 bytes is the most a version 40 symbol at L holds.
  EXPECT_TRUE(EncodeQr(std::string(2953, 'x'), QrLevel::kL).ok());
  EXPECT_FALSE(EncodeQr(std::string(2954, 'x'), QrLevel::kL).ok());
}

}  // namespace
}  // namespace balcao
