#include "common/time.h"

#include <gtest/gtest.h>

#include "tests/testing/status_matchers.h"

using ::balcao::test_util::IsOk;
using ::balcao::test_util::StatusIs;
using ::testing::Not;

namespace balcao {
namespace {

TEST(Time, FormatsTheBankTimestamp) {
  EXPECT_EQ(FormatTimestamp(0), "1970-01-01T00:00:00.000000+00:00");
  EXPECT_EQ(FormatTimestamp(1'712'345'678'123'456), "2024-04-05T19:34:38.123456+00:00");
  EXPECT_EQ(FormatTimestamp(-1), "1969-12-31T23:59:59.999999+00:00");
  EXPECT_EQ(FormatDate(1'712'345'678'123'456), "2024-04-05");
}

TEST(Time, ParsesEveryShapeTheSdksSend) {
  const UnixMicros t = 1'715'353'200'000'000;  // 2024-05-10T15:00:00Z
  for (const char* text : {"2024-05-10T15:00:00.000Z", "2024-05-10T15:00:00+00:00", "2024-05-10T15:00:00.000000+00:00",
                           "2024-05-10T12:00:00-03:00", "2024-05-10T12:00:00.000-0300", "2024-05-10T15:00Z"}) {
    auto parsed = ParseTimestamp(text);
    ASSERT_OK(parsed) << text;
    EXPECT_EQ(*parsed, t) << text;
  }
  EXPECT_EQ(*ParseTimestamp("2024-05-10"), t - 15 * 3600 * kMicrosPerSecond);
  EXPECT_EQ(*ParseTimestamp("2020-04-03T13:20:33.485644+00:00") % kMicrosPerSecond, 485644);
}

TEST(Time, RejectsMalformedTimestampsWithTheRule) {
  for (const char* text : {"", "2024", "2024-13-01", "2024-02-30", "2023-02-29", "2024-05-10X", "2024-05-10T25:00:00",
                           "2024-05-10T10:00:00+5", "2024-05-10T10:00:00.+00:00", "2024-05-10T10:00:00Zjunk"}) {
    auto parsed = ParseTimestamp(text);
    EXPECT_THAT(parsed, Not(IsOk())) << text;
    if (!parsed.ok()) {
      EXPECT_THAT(parsed, StatusIs(StatusCode::kInvalidArgument));
    }
  }
  EXPECT_OK(ParseTimestamp("2024-02-29"));
}

}  // namespace
}  // namespace balcao
