// The bank's time as the box knows it, learned from the `Date` header of every bank answer. A
// box without NTP (a dead clock battery, no network at boot) drifts minutes a month, and the
// bank refuses an Access-Time too far from its own clock; a request signed with
// BankClock::Now() is accepted however wrong the local clock is, once one answer has come
// back. Business days, expirations and the sales' timers use this clock too; which clocks stay
// local is docs/adr/0005-bank-time.md.
//
// After the first answer, Now() is the bank's time at the last re-anchoring plus the monotonic
// time elapsed since: a step of the local wall clock (an operator setting it, NTP arriving an
// hour late) does not move it, and the next answer re-measures anyway. Before any answer it is
// the local clock.
//
// The estimate: an answer whose Date says `d` (whole seconds, truncated) was written by the bank
// at some instant between sending the request and receiving the answer, with its clock in
// [d, d + 1 s); so at `received` the bank's clock read within [d, d + 1 s + (received - sent)].
// The estimate is left alone while it stays inside that interval (so it does not jitter by the
// header's truncation), and re-anchored at the interval's middle when it falls outside.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>

#include "common/time.h"

namespace balcao::api {

class BankClock final : public Clock {
 public:
  using Steady = std::chrono::steady_clock;

  // `local` must outlive this clock.
  explicit BankClock(const Clock& local = SystemClock::Instance()) : local_(local) {}

  UnixMicros Now() const override;
  const Clock& local() const { return local_; }

  // One answer's Date (Unix seconds) for a request sent at `sent` and answered at `received`
  // (monotonic). Returns true when the estimate moved.
  bool Observe(std::int64_t date_seconds, Steady::time_point sent, Steady::time_point received);

  // Now() - the local clock, in microseconds (0 until an answer said otherwise).
  std::int64_t offset_micros() const;
  // True once any answer carried a Date.
  bool measured() const;

 private:
  UnixMicros BankAt(Steady::time_point when) const;  // mu_ held, anchored_

  const Clock& local_;
  mutable std::mutex mu_;
  bool anchored_ = false;       // guarded by mu_
  UnixMicros anchor_bank_ = 0;  // guarded by mu_: the bank's time at anchor_steady_
  Steady::time_point anchor_steady_;
};

}  // namespace balcao::api
