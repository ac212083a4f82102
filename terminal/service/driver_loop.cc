#include "terminal/service/driver_loop.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <utility>

namespace balcao::terminal::service {

DriverLoop::DriverLoop(std::chrono::milliseconds tick_interval, std::function<void()> tick)
    : tick_interval_(tick_interval), tick_(std::move(tick)), wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

DriverLoop::~DriverLoop() {
  Stop();
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

void DriverLoop::Start() {
  thread_ = std::thread([this] { Run(); });
}

void DriverLoop::Post(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    tasks_.push_back(std::move(task));
  }
  Wake();
}

void DriverLoop::Stop() {
  std::deque<std::function<void()>> dropped;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  Wake();
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mu_);
  dropped.swap(tasks_);  // destroyed outside the loop (their Respond callbacks close connections)
}

void DriverLoop::Wake() {
  const std::uint64_t one = 1;
  // Fails only when the counter is full: a wake-up is pending anyway.
  if (wake_fd_ >= 0) (void)!::write(wake_fd_, &one, sizeof one);
}

void DriverLoop::Wait(std::chrono::steady_clock::duration limit) {
  using std::chrono::milliseconds;
  // Without an eventfd nothing wakes the wait: it looks for tasks every 100 ms.
  const milliseconds longest = wake_fd_ >= 0 ? tick_interval_ : std::min(tick_interval_, milliseconds(100));
  const auto ms = std::clamp(std::chrono::ceil<milliseconds>(limit), milliseconds(0), longest);
  pollfd p{wake_fd_, POLLIN, 0};  // a negative fd is ignored: a plain sleep
  if (::poll(&p, 1, static_cast<int>(ms.count())) > 0) {
    std::uint64_t count = 0;
    (void)!::read(wake_fd_, &count, sizeof count);  // resets it; the tasks are in tasks_
  }
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
      Wait(next_tick - std::chrono::steady_clock::now());
    }
    if (std::chrono::steady_clock::now() >= next_tick) {
      if (tick_) tick_();
      next_tick = std::chrono::steady_clock::now() + tick_interval_;
    }
  }
}

}  // namespace balcao::terminal::service
