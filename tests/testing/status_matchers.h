// GoogleMock matchers for balcao::Status and balcao::StatusOr<T> (common/status.h), in the
// shape of google-cloud-cpp's testing_util/status_matchers.h:
//   EXPECT_THAT(store.Put(row), IsOk());
//   EXPECT_THAT(ParseAmount("1,5"), StatusIs(StatusCode::kInvalidArgument, HasSubstr("amount")));
//   ASSERT_OK(store.Put(row));                        // ASSERT_THAT(..., IsOk())
//   ASSERT_OK_AND_ASSIGN(Sale sale, driver.Start());  // the value, or the test stops
// A failure prints the status as text ("NOT_FOUND: no sale s-9 [http 404; ...]"), so no
// assertion needs `<< x.status().ToString()` after it.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <utility>

#include "common/status.h"

namespace balcao {

// How GoogleTest prints these types in a failure message.
void PrintTo(StatusCode code, std::ostream* os);
void PrintTo(const Status& status, std::ostream* os);
template <typename T>
void PrintTo(const StatusOr<T>& status_or, std::ostream* os) {
  // Only the status: the value type may not be printable, and a value means "OK".
  PrintTo(status_or.status(), os);
}

namespace test_util {
namespace internal {

inline const Status& GetStatus(const Status& status) { return status; }
template <typename T>
const Status& GetStatus(const StatusOr<T>& status_or) {
  return status_or.status();
}

class IsOkMatcher {
 public:
  using is_gtest_matcher = void;

  template <typename StatusType>
  bool MatchAndExplain(const StatusType& actual, std::ostream* os) const {
    const Status& status = GetStatus(actual);
    if (os != nullptr && !status.ok()) *os << "which is " << status.ToString();
    return status.ok();
  }
  void DescribeTo(std::ostream* os) const { *os << "is OK"; }
  void DescribeNegationTo(std::ostream* os) const { *os << "is not OK"; }
};

class StatusIsMatcher {
 public:
  using is_gtest_matcher = void;

  StatusIsMatcher(::testing::Matcher<StatusCode> code, ::testing::Matcher<const std::string&> message)
      : code_(std::move(code)), message_(std::move(message)) {}

  template <typename StatusType>
  bool MatchAndExplain(const StatusType& actual, std::ostream* os) const {
    const Status& status = GetStatus(actual);
    ::testing::StringMatchResultListener code_listener;
    if (!code_.MatchAndExplain(status.code(), &code_listener)) {
      if (os != nullptr) *os << "whose code " << StatusCodeName(status.code()) << " is wrong";
      return false;
    }
    ::testing::StringMatchResultListener message_listener;
    if (!message_.MatchAndExplain(status.message(), &message_listener)) {
      if (os != nullptr) {
        *os << "whose message \"" << status.message() << "\" is wrong";
        if (!message_listener.str().empty()) *os << ", " << message_listener.str();
      }
      return false;
    }
    return true;
  }
  void DescribeTo(std::ostream* os) const {
    *os << "has a code that ";
    code_.DescribeTo(os);
    *os << " and a message that ";
    message_.DescribeTo(os);
  }
  void DescribeNegationTo(std::ostream* os) const {
    *os << "has a code that ";
    code_.DescribeNegationTo(os);
    *os << " or a message that ";
    message_.DescribeNegationTo(os);
  }

 private:
  ::testing::Matcher<StatusCode> code_;
  ::testing::Matcher<const std::string&> message_;
};

}  // namespace internal

// Matches an OK Status, or a StatusOr<T> that holds a value.
inline internal::IsOkMatcher IsOk() { return {}; }

// Matches a Status (or a StatusOr's status) whose code matches `code` and whose message
// matches `message` (any message when left out).
template <typename CodeMatcher, typename MessageMatcher>
internal::StatusIsMatcher StatusIs(CodeMatcher&& code, MessageMatcher&& message) {
  return internal::StatusIsMatcher(::testing::MatcherCast<StatusCode>(std::forward<CodeMatcher>(code)),
                                   ::testing::MatcherCast<const std::string&>(std::forward<MessageMatcher>(message)));
}
template <typename CodeMatcher>
internal::StatusIsMatcher StatusIs(CodeMatcher&& code) {
  return StatusIs(std::forward<CodeMatcher>(code), ::testing::_);
}

}  // namespace test_util
}  // namespace balcao

#define ASSERT_OK(expr) ASSERT_THAT(expr, ::balcao::test_util::IsOk())
#define EXPECT_OK(expr) EXPECT_THAT(expr, ::balcao::test_util::IsOk())

// Declares or assigns `lhs` from the value of the StatusOr `expr`; a fatal failure (printing
// the status) when there is none. Like ASSERT_*, only in functions returning void.
#define ASSERT_OK_AND_ASSIGN(lhs, expr) \
  BALCAO_ASSERT_OK_AND_ASSIGN_IMPL(BALCAO_STATUS_CONCAT(balcao_test_statusor_, __LINE__), lhs, expr)
#define BALCAO_ASSERT_OK_AND_ASSIGN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                     \
  ASSERT_THAT(tmp, ::balcao::test_util::IsOk());         \
  lhs = std::move(tmp).value()
