#include "api/bank_clock.h"

#include <cstdlib>

#include "common/log.h"

namespace balcao::api {

bool BankClock::Observe(std::int64_t date_seconds, UnixMicros sent, UnixMicros received) {
  if (received < sent) return false;  // the local clock stepped back mid-call: nothing to learn
  measured_.store(true, std::memory_order_relaxed);
  const std::int64_t date = date_seconds * kMicrosPerSecond;
  const std::int64_t low = date - received;
  const std::int64_t high = date + kMicrosPerSecond - sent;
  std::int64_t current = offset_.load(std::memory_order_relaxed);
  if (current >= low && current <= high) return false;
  const std::int64_t next = low + (high - low) / 2;
  // Two calls answered at once may both move it; either estimate is within its own interval.
  if (!offset_.compare_exchange_strong(current, next, std::memory_order_relaxed)) return false;
  // Only steps worth a line (a first measure of a synced box moves it by under a second).
  if (std::llabs(next - current) >= 2 * kMicrosPerSecond) {
    logging::Info("api", "box clock offset from the bank's measured",
                  {{"offset_s", next / kMicrosPerSecond}, {"was_s", current / kMicrosPerSecond}});
  }
  return true;
}

}  // namespace balcao::api
