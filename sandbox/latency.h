// The latency the sandbox adds to every answer of the bank API (/v2/...), so that clients
// are measured against a bank that behaves like one across the internet: a fixed delay
// ("50ms") or a uniformly random one ("60±20ms": 40 to 80 ms). The simulation API
// (/sandbox/...) is not delayed: it stands for the payer and the test, not the bank.
// The delay holds the answer on a timer (http::HttpResponse::delay), not a server thread, so
// any number of connections wait at once.
// Thread-safety: Draw may be called from any thread.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "common/status.h"

namespace balcao::sandbox {

struct Latency {
  std::chrono::milliseconds base{0};    // the middle of the range
  std::chrono::milliseconds jitter{0};  // ± this much, uniformly; 0 = fixed
  bool enabled() const { return base.count() > 0 || jitter.count() > 0; }
  // One request's delay.
  std::chrono::milliseconds Draw() const;
  std::string ToString() const;  // "50ms", "60±20ms", "0ms"
};

// "50ms", "50", "1s", "60±20ms", "60+-20ms" (ASCII), "0". kInvalidArgument names the rule:
// whole milliseconds or seconds, jitter not larger than the base, at most 60 s.
StatusOr<Latency> ParseLatency(std::string_view text);

}  // namespace balcao::sandbox
