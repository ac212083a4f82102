#include "common/status.h"

#include <cstdio>
#include <cstdlib>

namespace balcao {

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "OK";
    case StatusCode::kCancelled:
      return "CANCELLED";
    case StatusCode::kUnknown:
      return "UNKNOWN";
    case StatusCode::kInvalidArgument:
      return "INVALID_ARGUMENT";
    case StatusCode::kDeadlineExceeded:
      return "DEADLINE_EXCEEDED";
    case StatusCode::kNotFound:
      return "NOT_FOUND";
    case StatusCode::kAlreadyExists:
      return "ALREADY_EXISTS";
    case StatusCode::kPermissionDenied:
      return "PERMISSION_DENIED";
    case StatusCode::kResourceExhausted:
      return "RESOURCE_EXHAUSTED";
    case StatusCode::kFailedPrecondition:
      return "FAILED_PRECONDITION";
    case StatusCode::kAborted:
      return "ABORTED";
    case StatusCode::kOutOfRange:
      return "OUT_OF_RANGE";
    case StatusCode::kUnimplemented:
      return "UNIMPLEMENTED";
    case StatusCode::kInternal:
      return "INTERNAL";
    case StatusCode::kUnavailable:
      return "UNAVAILABLE";
    case StatusCode::kDataLoss:
      return "DATA_LOSS";
  }
  return "UNKNOWN";
}

bool Status::HasErrorCode(const std::string& code) const {
  for (const auto& e : detail_.errors)
    if (e.code == code) return true;
  return false;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out = StatusCodeName(code_);
  out += ": ";
  out += message_;
  if (detail_.http_status != 0 || !detail_.errors.empty()) {
    out += " [";
    if (detail_.http_status != 0) out += "http " + std::to_string(detail_.http_status);
    for (const auto& e : detail_.errors) out += "; " + e.code + ": " + e.message;
    out += "]";
  }
  return out;
}

}  // namespace balcao

namespace balcao::internal {

void DieOfValueOnError(const Status& status) {
  const std::string line = "StatusOr::value() on an error: " + status.ToString() + "\n";
  std::fputs(line.c_str(), stderr);
  std::abort();
}

}  // namespace balcao::internal
