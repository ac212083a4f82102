#include "common/task_loop.h"

#include <algorithm>
#include <utility>

namespace balcao {

TaskLoop::TaskLoop(std::chrono::milliseconds tick_every, std::function<void()> tick)
    : TaskLoop(TaskLoopOptions{tick_every, nullptr, tick_every, false}, std::move(tick)) {}

TaskLoop::TaskLoop(TaskLoopOptions options, std::function<void()> tick) : options_(options), tick_(std::move(tick)) {}

TaskLoop::~TaskLoop() { Stop(); }

void TaskLoop::Start() {
  thread_ = std::thread([this] { Run(); });
}

void TaskLoop::Post(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    tasks_.push_back(std::move(task));
  }
  wakeup_.Wake();
}

void TaskLoop::Stop() {
  std::deque<std::function<void()>> dropped;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wakeup_.Wake();
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mu_);
  dropped.swap(tasks_);  // destroyed outside the loop (their callbacks may close connections)
}

std::chrono::microseconds TaskLoop::Now() const {
  if (options_.clock != nullptr) return std::chrono::microseconds(options_.clock->Now());
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch());
}

void TaskLoop::Run() {
  auto next_tick = options_.tick_at_start ? Now() : Now() + options_.tick_every;
  for (;;) {
    std::function<void()> task;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) return;
      if (!tasks_.empty()) {
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
    }
    if (task) {
      task();
    } else {
      const std::chrono::steady_clock::duration until_tick = next_tick - Now();
      wakeup_.Wait(std::clamp<std::chrono::steady_clock::duration>(until_tick, std::chrono::microseconds(0),
                                                                   options_.look_every));
    }
    if (Now() >= next_tick) {
      if (tick_) tick_();
      next_tick = Now() + options_.tick_every;
    }
  }
}

}  // namespace balcao
