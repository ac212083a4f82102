#include "common/money.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace balcao {
namespace {

TEST(Money, ReaisWithBrazilianGrouping) {
  EXPECT_EQ(FormatBrl(0), "R$ 0,00");
  EXPECT_EQ(FormatBrl(99), "R$ 0,99");
  EXPECT_EQ(FormatBrl(100), "R$ 1,00");
  EXPECT_EQ(FormatBrl(52590), "R$ 525,90");
  EXPECT_EQ(FormatBrl(123456), "R$ 1.234,56");
  EXPECT_EQ(FormatBrl(100000000), "R$ 1.000.000,00");
  EXPECT_EQ(FormatBrl(-5), "-R$ 0,05");
  EXPECT_EQ(FormatBrl(INT64_MIN), "-R$ 92.233.720.368.547.758,08");
  EXPECT_EQ(FormatBrl(INT64_MAX), "R$ 92.233.720.368.547.758,07");
}

TEST(Money, EnglishSeparatorsAndUngroupedHundredths) {
  EXPECT_EQ(FormatBrl(123456, /*pt_br=*/false), "R$ 1,234.56");
  EXPECT_EQ(FormatHundredths(250, true, false), "2,50");
  EXPECT_EQ(FormatHundredths(123456, true, false), "1234,56");
  EXPECT_EQ(FormatHundredths(-123456, false, true), "-1,234.56");
}

}  // namespace
}  // namespace balcao
