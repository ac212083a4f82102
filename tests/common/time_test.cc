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

TEST(BusinessDay, IsSaoPauloTime) {
  auto start = BusinessDayStart("2026-11-21");
  ASSERT_TRUE(start.ok());
  EXPECT_EQ(FormatTimestamp(*start), "2026-11-21T03:00:00.000000+00:00");
  EXPECT_EQ(BusinessDayOf(*start), "2026-11-21");
  EXPECT_EQ(BusinessDayOf(*start - 1), "2026-11-20");
  EXPECT_EQ(PreviousBusinessDay(*start + kMicrosPerSecond), "2026-11-20");
  for (const char* bad : {"2026-02-30", "2026-1-21", "21/11/2026", "", "2026-11-21x", "yesterday"}) {
    auto refused = BusinessDayStart(bad);
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_NE(refused.status().message().find("YYYY-MM-DD"), std::string::npos);
  }
}

TEST(BusinessDay, StartsAtSaoPauloMidnightOfAnyInstant) {
  const UnixMicros start = *BusinessDayStart("2026-11-21");
  EXPECT_EQ(BusinessDayStartOf(start), start);
  EXPECT_EQ(BusinessDayStartOf(start + kMicrosPerDay - 1), start);
  EXPECT_EQ(BusinessDayStartOf(start - 1), start - kMicrosPerDay);
  // 02:59:59 UTC on the 21st is still the 20th in São Paulo.
  EXPECT_EQ(BusinessDayOf(*ParseTimestamp("2026-11-21T02:59:59Z")), "2026-11-20");
  EXPECT_EQ(BusinessDayStartOf(*ParseTimestamp("2026-11-21T02:59:59Z")), start - kMicrosPerDay);
  // Before 1970 the day still starts at the earlier midnight.
  EXPECT_EQ(FormatTimestamp(BusinessDayStartOf(-1)), "1969-12-31T03:00:00.000000+00:00");
}

TEST(BusinessDay, WallClockReadsSaoPauloFieldsAndGoesBack) {
  const UnixMicros t = *ParseTimestamp("2026-11-21T16:47:35Z");
  EXPECT_EQ(FormatTimestamp(SaoPauloWallClock(t)), "2026-11-21T13:47:35.000000+00:00");
  EXPECT_EQ(FromSaoPauloWallClock(SaoPauloWallClock(t)), t);
  // A date-only field ("2026-11-21") means that day in São Paulo.
  EXPECT_EQ(FromSaoPauloWallClock(*ParseTimestamp("2026-11-21")), *BusinessDayStart("2026-11-21"));
}

TEST(BusinessDay, WeekdayIsSaoPauloTime) {
  EXPECT_EQ(SaoPauloWeekday(*BusinessDayStart("2026-11-21")), 6);  // a Saturday
  EXPECT_EQ(SaoPauloWeekday(*BusinessDayStart("2026-11-22")), 0);  // a Sunday
  EXPECT_EQ(SaoPauloWeekday(*BusinessDayStart("2026-11-23") - 1), 0);
  EXPECT_EQ(SaoPauloWeekday(*BusinessDayStart("2026-11-23")), 1);
  EXPECT_EQ(SaoPauloWeekday(0), 3);  // 1970-01-01T00:00Z is Wednesday evening in São Paulo
}

}  // namespace
}  // namespace balcao
