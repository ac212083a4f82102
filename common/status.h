// balcao::Status and balcao::StatusOr<T>: the one error vocabulary of the project.
// Nothing throws across a module boundary; exceptions from third-party code are
// caught at the adapter that calls it and become a Status here.
// The codes keep Abseil's retry meanings:
//   kUnavailable       the operation did not happen (e.g. request not sent): retry.
//   kDeadlineExceeded  the operation may or may not have happened (outcome unknown).
//   kInvalidArgument, kFailedPrecondition, kNotFound, kAlreadyExists: do not retry.
//   kInternal          a fault on the other side or a malformed answer.
// Thread-safety: value types, no shared state.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace balcao {

enum class StatusCode {
  kOk = 0,
  kCancelled,
  kUnknown,
  kInvalidArgument,
  kDeadlineExceeded,
  kNotFound,
  kAlreadyExists,
  kPermissionDenied,
  kResourceExhausted,
  kFailedPrecondition,
  kAborted,
  kOutOfRange,
  kUnimplemented,
  kInternal,
  kUnavailable,
  kDataLoss,
};

const char* StatusCodeName(StatusCode code);

// How far a request to the bank got. Decides whether it may be re-sent.
enum class Delivery {
  kNotApplicable,   // not a bank call
  kNotSent,         // the bank never saw it (resolve/connect/TLS failure): safe to resend
  kOutcomeUnknown,  // sent, no answer (timeout, reset): look up before resending
  kAnswered,        // the bank answered (see http_status)
};

// One entry of the bank's error body: {"code": "...", "message": "..."}.
struct ErrorEntry {
  std::string code;
  std::string message;
  bool operator==(const ErrorEntry&) const = default;
};

// Detail attached to a failed bank call.
struct BankErrorDetail {
  int http_status = 0;
  Delivery delivery = Delivery::kNotApplicable;
  std::vector<ErrorEntry> errors;
};

// [[nodiscard]]: a Status nobody looks at is a failure nobody handles (docs/style.md S1);
// a deliberate ignore says so with IgnoreError() and a comment why.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  Status(StatusCode code, std::string message, BankErrorDetail detail)
      : code_(code), message_(std::move(message)), detail_(std::move(detail)) {}

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  const BankErrorDetail& detail() const { return detail_; }
  int http_status() const { return detail_.http_status; }
  Delivery delivery() const { return detail_.delivery; }
  const std::vector<ErrorEntry>& errors() const { return detail_.errors; }
  // True when any bank error entry carries this code.
  bool HasErrorCode(const std::string& code) const;

  // "INVALID_ARGUMENT: message [http 400; invalidAmount: ...]"
  std::string ToString() const;
  // Drops the status on purpose (best-effort work whose failure changes nothing).
  void IgnoreError() const {}

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  BankErrorDetail detail_;
};

inline Status OkStatus() { return Status(); }
inline Status InvalidArgumentError(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
inline Status NotFoundError(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
inline Status FailedPreconditionError(std::string m) { return {StatusCode::kFailedPrecondition, std::move(m)}; }
inline Status InternalError(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
inline Status UnavailableError(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
inline Status DeadlineExceededError(std::string m) { return {StatusCode::kDeadlineExceeded, std::move(m)}; }
inline Status AlreadyExistsError(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }
inline Status PermissionDeniedError(std::string m) { return {StatusCode::kPermissionDenied, std::move(m)}; }
inline Status ResourceExhaustedError(std::string m) { return {StatusCode::kResourceExhausted, std::move(m)}; }
inline Status OutOfRangeError(std::string m) { return {StatusCode::kOutOfRange, std::move(m)}; }
inline Status DataLossError(std::string m) { return {StatusCode::kDataLoss, std::move(m)}; }

namespace internal {
// value() of a StatusOr that holds an error: the status on stderr, then abort, in every build
// (a release build must not read an empty optional).
[[noreturn]] void DieOfValueOnError(const Status& status);
}  // namespace internal

// A value or the reason there is none.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}         // NOLINT: implicit by design
  StatusOr(Status status) : status_(std::move(status)) {  // NOLINT
    assert(!status_.ok() && "StatusOr built from an OK status");
    if (status_.ok()) status_ = InternalError("StatusOr built from an OK status");
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  void IgnoreError() const {}
  T& value() & {
    if (!ok()) internal::DieOfValueOnError(status_);
    return *value_;
  }
  const T& value() const& {
    if (!ok()) internal::DieOfValueOnError(status_);
    return *value_;
  }
  T&& value() && {
    if (!ok()) internal::DieOfValueOnError(status_);
    return std::move(*value_);
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace balcao

#define BALCAO_STATUS_CONCAT_INNER(a, b) a##b
#define BALCAO_STATUS_CONCAT(a, b) BALCAO_STATUS_CONCAT_INNER(a, b)

#define BALCAO_RETURN_IF_ERROR(expr)                 \
  do {                                               \
    ::balcao::Status balcao_status_ = (expr);        \
    if (!balcao_status_.ok()) return balcao_status_; \
  } while (0)

#define BALCAO_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return tmp.status();                \
  lhs = std::move(tmp).value()

#define BALCAO_ASSIGN_OR_RETURN(lhs, expr) \
  BALCAO_ASSIGN_OR_RETURN_IMPL(BALCAO_STATUS_CONCAT(balcao_statusor_, __LINE__), lhs, expr)
