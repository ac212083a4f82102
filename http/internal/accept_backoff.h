// How long a listener waits after a failed accept. A listener whose accept fails for want of
// a resource (EMFILE, ENFILE, ENOBUFS, ENOMEM) would otherwise retry at once and spin: the
// pending connection keeps the socket readable. The wait starts at `first`, doubles up to
// `longest`, and a success ends the burst; the first failure of a burst is the one to log.
// Pure (no clock, no I/O). Thread-safety: none; one per listener, on its strand.
#pragma once

#include <chrono>

namespace balcao::http::internal {

// Whether a failed accept (its errno) concerns one connection only (the peer left before it
// was accepted, a signal): the next accept may follow at once.
bool IsPerConnectionAcceptError(int error_number);

class AcceptBackoff {
 public:
  explicit AcceptBackoff(std::chrono::milliseconds first = std::chrono::milliseconds(100),
                         std::chrono::milliseconds longest = std::chrono::milliseconds(1000))
      : first_(first), longest_(longest) {}

  struct Step {
    std::chrono::milliseconds wait;
    bool starts_burst;  // the first failure since the last success: log it
  };
  Step Failed();
  // Ends the burst; returns how many failures it had (0 when none: nothing to log).
  int Succeeded();

 private:
  std::chrono::milliseconds first_, longest_;
  std::chrono::milliseconds next_{0};
  int failures_ = 0;
};

}  // namespace balcao::http::internal
