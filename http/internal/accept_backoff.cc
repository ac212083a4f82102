#include "http/internal/accept_backoff.h"

#include <algorithm>
#include <cerrno>

namespace balcao::http::internal {

bool IsPerConnectionAcceptError(int error_number) {
  switch (error_number) {
    case ECONNABORTED:
    case EPROTO:
    case EPERM:  // a firewall rule refused this peer
    case EINTR:
    case EAGAIN:
      return true;
    default:
      return false;
  }
}

AcceptBackoff::Step AcceptBackoff::Failed() {
  const bool starts = failures_ == 0;
  next_ = starts ? first_ : std::min(next_ * 2, longest_);
  ++failures_;
  return {next_, starts};
}

int AcceptBackoff::Succeeded() {
  const int failures = failures_;
  failures_ = 0;
  next_ = std::chrono::milliseconds(0);
  return failures;
}

}  // namespace balcao::http::internal
