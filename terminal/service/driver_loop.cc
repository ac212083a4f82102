#include "terminal/service/driver_loop.h"

#include <algorithm>
#include <utility>

namespace balcao::terminal::service {

DriverLoop::DriverLoop(std::chrono::milliseconds tick_interval, std::function<void()> tick)
    : tick_interval_(tick_interval), tick_(std::move(tick)) {}

DriverLoop::~DriverLoop() { Stop(); }

void DriverLoop::Start() {
  thread_ = std::thread([this] { Run(); });
}

void DriverLoop::Post(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    tasks_.push_back(std::move(task));
  }
  wakeup_.Wake();
}

void DriverLoop::Stop() {
  std::deque<std::function<void()>> dropped;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wakeup_.Wake();
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mu_);
  dropped.swap(tasks_);  // destroyed outside the loop (their Respond callbacks close connections)
}

void DriverLoop::Run() {
  auto next_tick = std::chrono::steady_clock::now() + tick_interval_;
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
      wakeup_.Wait(
          std::min<std::chrono::steady_clock::duration>(next_tick - std::chrono::steady_clock::now(), tick_interval_));
    }
    if (std::chrono::steady_clock::now() >= next_tick) {
      if (tick_) tick_();
      next_tick = std::chrono::steady_clock::now() + tick_interval_;
    }
  }
}

}  // namespace balcao::terminal::service
