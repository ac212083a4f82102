// Waiting for something another process or thread does: poll, never sleep a guessed time.
#pragma once

#include <chrono>
#include <thread>

namespace balcao::test_util {

// Polls `done` every 100 ms for up to `limit`; true as soon as it holds (one last look at the end).
template <typename F>
bool Eventually(F done, std::chrono::milliseconds limit = std::chrono::seconds(20)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return done();
}

}  // namespace balcao::test_util
