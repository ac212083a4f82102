// The task loop (common/task_loop.h) with real threads: posted tasks run in order on the loop's
// one thread, ticks come between them on the clock it is given, and tasks posted after Stop
// never run.
#include "common/task_loop.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

namespace balcao {
namespace {

using namespace std::chrono_literals;

// A clock the test moves by hand.
class HandClock final : public Clock {
 public:
  UnixMicros Now() const override { return now_.load(); }
  void Advance(UnixMicros by) { now_ += by; }

 private:
  std::atomic<UnixMicros> now_{1'000'000'000};
};

// Polls `done` for up to a minute (a loaded 2-core box can be slow; a pass returns at once).
template <typename Done>
bool Eventually(Done done) {
  for (int i = 0; i < 6000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(10ms);
  }
  return done();
}

TEST(TaskLoop, RunsPostedTasksInOrderOnOneThread) {
  TaskLoop loop(1h, [] {});
  std::mutex mu;
  std::string order;
  std::thread::id first, second;
  loop.Start();
  loop.Post([&] {
    std::lock_guard<std::mutex> lock(mu);
    order += "a";
    first = std::this_thread::get_id();
  });
  loop.Post([&] {
    std::lock_guard<std::mutex> lock(mu);
    order += "b";
    second = std::this_thread::get_id();
  });
  ASSERT_TRUE(Eventually([&] {
    std::lock_guard<std::mutex> lock(mu);
    return order.size() == 2;
  }));
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_EQ(order, "ab");
  EXPECT_EQ(first, second);
  EXPECT_NE(first, std::this_thread::get_id());
}

TEST(TaskLoop, TicksOnTheClockItIsGiven) {
  HandClock clock;
  std::atomic<int> ticks{0};
  TaskLoop loop(TaskLoopOptions{1000ms, &clock, 10ms, /*tick_at_start=*/true}, [&] { ++ticks; });
  loop.Start();
  ASSERT_TRUE(Eventually([&] { return ticks.load() == 1; }));
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(ticks.load(), 1) << "the hand clock has not moved: no second tick";
  clock.Advance(1'000'000);
  EXPECT_TRUE(Eventually([&] { return ticks.load() == 2; }));
}

TEST(TaskLoop, DropsTasksPostedAfterStop) {
  TaskLoop loop(1h, [] {});
  std::atomic<int> ran{0};
  loop.Start();
  loop.Post([&] { ++ran; });
  ASSERT_TRUE(Eventually([&] { return ran.load() == 1; }));
  loop.Stop();
  loop.Post([&] { ++ran; });
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(ran.load(), 1);
}

}  // namespace
}  // namespace balcao
