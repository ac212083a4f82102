#include "common/status.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace balcao
