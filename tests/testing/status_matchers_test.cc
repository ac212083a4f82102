// The matchers themselves: a matcher that passed on an error would make every test that
// uses it lie, so each one is shown failing where it must, with the status text printed.
#include "tests/testing/status_matchers.h"

#include <gtest/gtest-spi.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "tests/testing/temp_dir.h"

namespace balcao::test_util {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Status NotFound() { return NotFoundError("no sale s-9"); }
StatusOr<int> NoNumber() { return InvalidArgumentError("amount: not a number"); }
StatusOr<int> FortyTwo() { return 42; }

// A value type GoogleTest cannot print: a StatusOr of it still prints its status.
struct Opaque {
  std::unique_ptr<int> p;
};
StatusOr<Opaque> NoOpaque() { return UnavailableError("bank down"); }

std::string Explain(const auto& matcher, const auto& value) {
  ::testing::StringMatchResultListener listener;
  ::testing::ExplainMatchResult(matcher, value, &listener);
  return listener.str();
}

TEST(IsOk, MatchesOkStatusAndValues) {
  EXPECT_TRUE(::testing::Matches(IsOk())(OkStatus()));
  EXPECT_TRUE(::testing::Matches(IsOk())(FortyTwo()));
}

TEST(IsOk, RefusesErrors) {
  EXPECT_FALSE(::testing::Matches(IsOk())(NotFound()));
  EXPECT_FALSE(::testing::Matches(IsOk())(NoNumber()));
  EXPECT_FALSE(::testing::Matches(IsOk())(NoOpaque()));
  EXPECT_TRUE(::testing::Matches(Not(IsOk()))(NotFound()));
  EXPECT_FALSE(::testing::Matches(Not(IsOk()))(OkStatus()));
}

TEST(IsOk, FailurePrintsTheStatusText) {
  EXPECT_NONFATAL_FAILURE(EXPECT_OK(NotFound()), "NOT_FOUND: no sale s-9");
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(NoNumber(), IsOk()), "INVALID_ARGUMENT: amount: not a number");
  EXPECT_FATAL_FAILURE(ASSERT_OK(NoOpaque()), "UNAVAILABLE: bank down");
  EXPECT_EQ(Explain(IsOk(), NotFound()), "which is NOT_FOUND: no sale s-9");
}

TEST(StatusIs, MatchesCodeAndMessage) {
  EXPECT_TRUE(::testing::Matches(StatusIs(StatusCode::kNotFound))(NotFound()));
  EXPECT_TRUE(::testing::Matches(StatusIs(StatusCode::kNotFound, HasSubstr("s-9")))(NotFound()));
  EXPECT_TRUE(::testing::Matches(StatusIs(StatusCode::kInvalidArgument, "amount: not a number"))(NoNumber()));
  EXPECT_TRUE(::testing::Matches(StatusIs(StatusCode::kOk))(OkStatus()));
  EXPECT_TRUE(::testing::Matches(StatusIs(StatusCode::kOk))(FortyTwo()));
  EXPECT_TRUE(::testing::Matches(StatusIs(Not(StatusCode::kOk)))(NoOpaque()));
}

TEST(StatusIs, RefusesAWrongCodeOrMessage) {
  EXPECT_FALSE(::testing::Matches(StatusIs(StatusCode::kInvalidArgument))(NotFound()));
  EXPECT_FALSE(::testing::Matches(StatusIs(StatusCode::kNotFound, HasSubstr("s-8")))(NotFound()));
  EXPECT_FALSE(::testing::Matches(StatusIs(StatusCode::kNotFound))(OkStatus()));
  EXPECT_FALSE(::testing::Matches(StatusIs(StatusCode::kNotFound))(FortyTwo()));
  EXPECT_FALSE(::testing::Matches(StatusIs(StatusCode::kInvalidArgument, "amount"))(NoNumber()));
}

TEST(StatusIs, FailurePrintsTheStatusText) {
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(NotFound(), StatusIs(StatusCode::kAlreadyExists)), "NOT_FOUND: no sale s-9");
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(NotFound(), StatusIs(StatusCode::kAlreadyExists)), "ALREADY_EXISTS");
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(NoNumber(), StatusIs(StatusCode::kInvalidArgument, HasSubstr("cents"))),
                          "whose message \"amount: not a number\" is wrong");
  EXPECT_EQ(Explain(StatusIs(StatusCode::kAborted), NotFound()), "whose code NOT_FOUND is wrong");
}

TEST(AssertOkAndAssign, GivesTheValueOrStops) {
  ASSERT_OK_AND_ASSIGN(const int n, FortyTwo());
  EXPECT_EQ(n, 42);
  int assigned = 0;
  ASSERT_OK_AND_ASSIGN(assigned, FortyTwo());
  EXPECT_EQ(assigned, 42);
  EXPECT_FATAL_FAILURE(
      {
        ASSERT_OK_AND_ASSIGN(const int never, NoNumber());
        (void)never;
      },
      "INVALID_ARGUMENT: amount: not a number");
}

TEST(TempDir, IsAFreshDirectoryRemovedAfterwards) {
  std::filesystem::path where;
  {
    TempDir dir("matchers");
    where = dir.path();
    ASSERT_TRUE(std::filesystem::is_directory(where));
    EXPECT_THAT(where.filename().string(), HasSubstr("balcao-matchers-"));
    std::ofstream(dir.File("a.txt")) << "x";
    std::filesystem::create_directories(dir.path() / "sub" / "deeper");
    TempDir other("matchers");
    EXPECT_NE(other.path(), dir.path());
  }
  EXPECT_FALSE(std::filesystem::exists(where));
}

}  // namespace
}  // namespace balcao::test_util
