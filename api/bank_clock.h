// The bank's time as the box knows it: the local clock plus an offset learned from the `Date`
// header of every bank answer. A box without NTP (a dead clock battery, no network at boot)
// drifts minutes a month, and the bank refuses an Access-Time too far from its own clock; a
// request signed with BankClock::Now() is accepted however wrong the local clock is, once one
// answer has come back. Business days, expirations and the sales' timers use this clock too;
// which clocks stay local is docs/adr/0005-bank-time.md.
//
// The estimate: an answer whose Date says `d` (whole seconds, truncated) was written by the
// bank at some instant of [d, d + 1 s), which the box saw between sending the request and
// receiving the answer. The offset bank - local therefore lies in
// [d - received, d + 1 s - sent]. The offset kept is left alone while it stays inside that
// interval (so it does not jitter by the truncation), and moved to the interval's middle when
// it falls outside (a clock that jumped, a first measure).
// Thread-safety: every method may be called from any thread.
#pragma once

#include <atomic>
#include <cstdint>

#include "common/time.h"

namespace balcao::api {

class BankClock final : public Clock {
 public:
  // `local` must outlive this clock.
  explicit BankClock(const Clock& local = SystemClock::Instance()) : local_(local) {}

  UnixMicros Now() const override { return local_.Now() + offset_.load(std::memory_order_relaxed); }
  const Clock& local() const { return local_; }

  // One answer's Date (Unix seconds) received for a request sent at `sent` and answered at
  // `received`, both on the local clock. Returns true when the offset moved.
  bool Observe(std::int64_t date_seconds, UnixMicros sent, UnixMicros received);

  // bank - local, in microseconds (0 until an answer said otherwise).
  std::int64_t offset_micros() const { return offset_.load(std::memory_order_relaxed); }
  // True once any answer carried a Date.
  bool measured() const { return measured_.load(std::memory_order_relaxed); }

 private:
  const Clock& local_;
  std::atomic<std::int64_t> offset_{0};
  std::atomic<bool> measured_{false};
};

}  // namespace balcao::api
