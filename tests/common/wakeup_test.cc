#include "common/wakeup.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace balcao {
namespace {

using std::chrono::steady_clock;
using namespace std::chrono_literals;

// A limit far beyond what any run takes: returning before it can only be the wake.
constexpr auto kNever = 600s;

TEST(Wakeup, AWakeBeforeTheWaitEndsTheNextWait) {
  Wakeup w;
  w.Wake();
  const auto start = steady_clock::now();
  w.Wait(kNever);
  EXPECT_LT(steady_clock::now() - start, kNever / 2);
}

TEST(Wakeup, AWakeFromAnotherThreadEndsTheWait) {
  Wakeup w;
  std::thread waker([&] {
    std::this_thread::sleep_for(20ms);
    w.Wake();
  });
  const auto start = steady_clock::now();
  w.Wait(kNever);
  EXPECT_LT(steady_clock::now() - start, kNever / 2);
  waker.join();
}

TEST(Wakeup, AWakeIsUsedUpByOneWait) {
  Wakeup w;
  w.Wake();
  w.Wake();  // two wakes before a wait count as one
  w.Wait(kNever);
  const auto start = steady_clock::now();
  w.Wait(30ms);  // nothing left to end it early: it runs to its limit
  EXPECT_GE(steady_clock::now() - start, 30ms);
}

TEST(Wakeup, ANegativeLimitDoesNotWait) {
  Wakeup w;
  const auto start = steady_clock::now();
  w.Wait(-5s);
  EXPECT_LT(steady_clock::now() - start, kNever / 2);
}

}  // namespace
}  // namespace balcao
