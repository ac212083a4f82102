// The driver's thread: the checkout driver is single-threaded and its bank calls block, so
// every piece of driver work (API actions, webhook deliveries, outbox reconciliations, timer
// ticks, the event catch-up) is posted here and runs one at a time, off the io_context.
// Between tasks it calls `tick` every `tick_interval`.
// It waits on a Wakeup (common/wakeup.h), not a condition variable, so that a shifted
// monotonic clock (`faketime -f +10m`) does not stop its ticks.
// Thread-safety: Post from any thread; Stop from any thread but this one.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "common/wakeup.h"

namespace balcao::terminal::service {

class DriverLoop {
 public:
  DriverLoop(std::chrono::milliseconds tick_interval, std::function<void()> tick);
  ~DriverLoop();  // Stop()s
  DriverLoop(const DriverLoop&) = delete;
  DriverLoop& operator=(const DriverLoop&) = delete;

  void Start();
  // Runs `task` on the driver's thread after the tasks already posted. Dropped (destroyed
  // unrun) once Stop was called.
  void Post(std::function<void()> task);
  // Finishes the task in progress, drops the rest, joins the thread.
  void Stop();

 private:
  void Run();

  const std::chrono::milliseconds tick_interval_;
  std::function<void()> tick_;
  Wakeup wakeup_;  // Post and Stop end the loop's wait
  std::mutex mu_;
  std::deque<std::function<void()>> tasks_;  // guarded by mu_
  bool stopping_ = false;                    // guarded by mu_
  std::thread thread_;
};

}  // namespace balcao::terminal::service
