// api::BankClock: the bank's time learned from Date headers (docs/adr/0005-bank-time.md),
// against a local clock the test sets: unmeasured it is the local clock; one answer corrects a
// clock minutes off to within the header's second; a synced clock is left as it is; answers
// that agree do not move it; a step of the local clock afterwards moves nothing.
#include "api/bank_clock.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>

namespace balcao::api {
namespace {

class SetClock final : public Clock {
 public:
  explicit SetClock(UnixMicros offset) : offset_(offset) {}
  UnixMicros Now() const override { return SystemClock::Instance().Now() + offset_.load(); }
  void Step(UnixMicros by) { offset_ += by; }

 private:
  std::atomic<UnixMicros> offset_;
};

constexpr UnixMicros kSecond = kMicrosPerSecond;

// What a bank on time stamps an answer with now: whole seconds, truncated.
std::int64_t BankDate() { return SystemClock::Instance().Now() / kSecond; }

// One answer, stamped by a bank on time, to a request sent just now (in this order: the
// arguments of a call are evaluated in no set order).
bool AnswerNow(BankClock& clock) {
  const auto sent = BankClock::Steady::now();
  const std::int64_t date = BankDate();
  const auto received = BankClock::Steady::now();
  return clock.Observe(date, sent, received);
}

TEST(BankClock, UnmeasuredIsTheLocalClock) {
  SetClock local(600 * kSecond);
  BankClock clock(local);
  EXPECT_FALSE(clock.measured());
  EXPECT_NEAR(static_cast<double>(clock.Now()), static_cast<double>(local.Now()), 1e5);
  EXPECT_EQ(clock.offset_micros(), 0);
}

TEST(BankClock, OneAnswerCorrectsAClockTenMinutesOff) {
  for (UnixMicros off : {600 * kSecond, -600 * kSecond}) {
    SetClock local(off);
    BankClock clock(local);
    EXPECT_TRUE(AnswerNow(clock));
    EXPECT_TRUE(clock.measured());
    const UnixMicros real = SystemClock::Instance().Now();
    EXPECT_LE(std::llabs(clock.Now() - real), 1100'000) << off;  // within the Date's second
    EXPECT_LE(std::llabs(clock.offset_micros() + off), 1100'000) << off;
  }
}

TEST(BankClock, ASyncedClockIsKeptAndAgreeingAnswersMoveNothing) {
  SetClock local(0);
  BankClock clock(local);
  EXPECT_TRUE(AnswerNow(clock));
  EXPECT_LE(std::llabs(clock.offset_micros()), 1000);
  for (int i = 0; i < 20; ++i) EXPECT_FALSE(AnswerNow(clock));
  EXPECT_LE(std::llabs(clock.offset_micros()), 1000);
}

TEST(BankClock, ALocalStepAfterTheFirstAnswerMovesNothingDatedByTheBank) {
  SetClock local(0);
  BankClock clock(local);
  AnswerNow(clock);
  local.Step(3600 * kSecond);  // the wall clock set an hour ahead
  EXPECT_LE(std::llabs(clock.Now() - SystemClock::Instance().Now()), 1000);
  EXPECT_LE(std::llabs(clock.offset_micros() + 3600 * kSecond), 1000);
  // The next answer agrees with the estimate: nothing moves.
  EXPECT_FALSE(AnswerNow(clock));
}

TEST(BankClock, AnAnswerFromBeforeItsRequestIsIgnored) {
  SetClock local(0);
  BankClock clock(local);
  const auto received = BankClock::Steady::now();
  EXPECT_FALSE(clock.Observe(BankDate() + 500, received + std::chrono::seconds(1), received));
  EXPECT_FALSE(clock.measured());
}

}  // namespace
}  // namespace balcao::api
