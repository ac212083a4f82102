#include "common/status.h"

#include <gtest/gtest.h>

#include <string>

namespace balcao {
namespace {

StatusOr<int> Half(int v) {
  if (v % 2) return InvalidArgumentError("value: must be even");
  return v / 2;
}

StatusOr<int> Quarter(int v) {
  BALCAO_ASSIGN_OR_RETURN(int h, Half(v));
  return Half(h);
}

TEST(Status, CarriesCodeMessageAndBankDetail) {
  Status s(StatusCode::kInvalidArgument, "bank refused", {400, Delivery::kAnswered, {{"invalidAmount", "bad"}}});
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(s.HasErrorCode("invalidAmount"));
  EXPECT_FALSE(s.HasErrorCode("invalidJson"));
  EXPECT_EQ(s.ToString(), "INVALID_ARGUMENT: bank refused [http 400; invalidAmount: bad]");
}

TEST(StatusOr, PropagatesErrorsThroughMacros) {
  EXPECT_EQ(*Quarter(8), 2);
  auto bad = Quarter(6);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(), "value: must be even");
}

// docs/style.md S1: value(), operator* and operator-> of an error print the status text on
// stderr and abort, in every build (NDEBUG included: the check is not an assert).
TEST(StatusOrDeathTest, ValueOfAnErrorAbortsWithTheStatusText) {
  const StatusOr<int> bad = Half(3);
  EXPECT_DEATH((void)bad.value(), "INVALID_ARGUMENT: value: must be even");
  EXPECT_DEATH((void)*Half(5), "INVALID_ARGUMENT: value: must be even");
  const StatusOr<std::string> missing = NotFoundError("sale sale-7: no such sale");
  EXPECT_DEATH((void)missing->size(), "NOT_FOUND: sale sale-7: no such sale");
}

TEST(Status, IgnoreErrorDropsAResultOnPurpose) {
  // Status and StatusOr are [[nodiscard]]: only IgnoreError() (with a comment saying why)
  // drops one without a -Wunused-result error. Here: the test only checks it compiles.
  Half(3).IgnoreError();
  InvalidArgumentError("amount: must be positive").IgnoreError();
  EXPECT_TRUE(Half(4).ok());
}

}  // namespace
}  // namespace balcao
