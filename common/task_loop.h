// One thread that runs posted tasks one at a time, in order, and calls `tick` between them on a
// schedule: the shape of every single-threaded worker whose work blocks (the checkout driver's
// loop in the box's service, the TEF Dial manager). It waits on a Wakeup (common/wakeup.h), not
// a condition variable, so that a shifted monotonic clock (`faketime -f +10m`) does not stop
// its ticks.
// Thread-safety: Post from any thread (a task may Post more); Start and Stop from one thread
// that is not the loop's own.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "common/time.h"
#include "common/wakeup.h"

namespace balcao {

struct TaskLoopOptions {
  std::chrono::milliseconds tick_every{1000};
  // The clock ticks are timed on: null means the steady clock. A wall or test clock (which can
  // jump) is read again at least every `look_every` while the loop is idle.
  const Clock* clock = nullptr;
  std::chrono::milliseconds look_every{1000};
  // The first tick as soon as the loop runs, rather than `tick_every` after Start.
  bool tick_at_start = false;
};

class TaskLoop {
 public:
  // Ticks every `tick_every` of the steady clock, the first `tick_every` after Start.
  TaskLoop(std::chrono::milliseconds tick_every, std::function<void()> tick);
  TaskLoop(TaskLoopOptions options, std::function<void()> tick);
  ~TaskLoop();  // Stop()s
  TaskLoop(const TaskLoop&) = delete;
  TaskLoop& operator=(const TaskLoop&) = delete;

  void Start();
  // Runs `task` on the loop's thread after the tasks already posted. Dropped (destroyed unrun)
  // once Stop was called.
  void Post(std::function<void()> task);
  // Finishes the task in progress, drops the rest, joins the thread.
  void Stop();

 private:
  void Run();
  std::chrono::microseconds Now() const;

  const TaskLoopOptions options_;
  std::function<void()> tick_;
  Wakeup wakeup_;  // Post and Stop end the loop's wait
  std::mutex mu_;
  std::deque<std::function<void()>> tasks_;  // guarded by mu_
  bool stopping_ = false;                    // guarded by mu_
  std::thread thread_;
};

}  // namespace balcao
