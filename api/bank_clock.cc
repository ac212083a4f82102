#include "api/bank_clock.h"

#include <cstdlib>

#include "common/log.h"

namespace balcao::api {
namespace {

std::int64_t MicrosBetween(BankClock::Steady::time_point from, BankClock::Steady::time_point to) {
  return std::chrono::duration_cast<std::chrono::microseconds>(to - from).count();
}

}  // namespace

UnixMicros BankClock::BankAt(Steady::time_point when) const {
  return anchor_bank_ + MicrosBetween(anchor_steady_, when);
}

UnixMicros BankClock::Now() const {
  std::lock_guard lock(mu_);
  return anchored_ ? BankAt(Steady::now()) : local_.Now();
}

std::int64_t BankClock::offset_micros() const {
  const UnixMicros local = local_.Now();
  std::lock_guard lock(mu_);
  return anchored_ ? BankAt(Steady::now()) - local : 0;
}

bool BankClock::Observe(std::int64_t date_seconds, Steady::time_point sent, Steady::time_point received) {
  if (received < sent) return false;
  const UnixMicros low = date_seconds * kMicrosPerSecond;
  const UnixMicros high = low + kMicrosPerSecond + MicrosBetween(sent, received);
  const UnixMicros local = local_.Now();
  std::int64_t was = 0, now = 0;
  {
    std::lock_guard lock(mu_);
    const UnixMicros estimate = anchored_ ? BankAt(received) : local - MicrosBetween(received, Steady::now());
    if (anchored_ && estimate >= low && estimate <= high) return false;
    if (!anchored_ && estimate >= low && estimate <= high) {
      // The local clock agrees with the bank: anchor on it as it is.
      anchor_bank_ = estimate;
    } else {
      anchor_bank_ = low + (high - low) / 2;
    }
    was = anchored_ ? estimate - (local - MicrosBetween(received, Steady::now())) : 0;
    anchored_ = true;
    anchor_steady_ = received;
    now = BankAt(Steady::now()) - local;
  }
  // Only steps worth a line (a first measure of a synced box moves it by under a second).
  if (std::llabs(now - was) >= 2 * kMicrosPerSecond) {
    logging::Info("api", "box clock offset from the bank's measured",
                  {{"offset_s", now / kMicrosPerSecond}, {"was_s", was / kMicrosPerSecond}});
  }
  return true;
}

bool BankClock::measured() const {
  std::lock_guard lock(mu_);
  return anchored_;
}

}  // namespace balcao::api
