// The driver's thread: the checkout driver is single-threaded and its bank calls block, so
// every piece of driver work (API actions, webhook deliveries, outbox reconciliations, timer
// ticks, the event catch-up) is posted here and runs one at a time, off the io_context.
// Between tasks it calls `tick` every `tick_interval`.
// It waits with poll() on an eventfd and a relative timeout, not on a condition variable:
// libstdc++ waits on the steady clock with an absolute deadline (pthread_cond_clockwait),
// which libfaketime does not translate, so under `faketime -f +10m` (which shifts the
// monotonic clock too) a condition-variable wait would sleep ten minutes and no sale would
// be polled (docs/operations.md, "When the box is unwell").
// Thread-safety: Post from any thread; Stop from any thread but this one.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

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
  void Wake();
  // Until Wake() or `limit` (at most tick_interval).
  void Wait(std::chrono::steady_clock::duration limit);

  const std::chrono::milliseconds tick_interval_;
  std::function<void()> tick_;
  // An eventfd Post and Stop write to; -1 when none could be made (no descriptor left at
  // start): the loop then looks for posted tasks every 100 ms instead of waking at once.
  int wake_fd_ = -1;
  std::mutex mu_;
  std::deque<std::function<void()>> tasks_;  // guarded by mu_
  bool stopping_ = false;                    // guarded by mu_
  std::thread thread_;
};

}  // namespace balcao::terminal::service
