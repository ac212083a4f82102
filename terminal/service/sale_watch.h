// The touchscreen's long polls (GET /api/sales/{sale}?wait=<version>, docs/terminal.md): the
// answer is held until the sale's version in the book moves past the one the screen saw, or
// for kHold, so the screen turns as soon as the box knows, without asking every second.
// Thread-safety: every method may be called from any thread; `wake` runs on the thread that
// saw the change (or the expiry), outside the watch's lock.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "terminal/service/sale_book.h"

namespace balcao::terminal::service {

class SaleWatch {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::seconds kHold{20};  // under the browsers' and proxies' idle limits
  static constexpr std::size_t kMaxHeld = 64;       // a screen or two per box; more answer at once

  explicit SaleWatch(const SaleBook& book) : book_(book) {}

  // Holds `wake` until `sale_id`'s version is no longer `seen`, or `now` + kHold. False, and
  // nothing held, when it already moved on or kMaxHeld are held: the caller answers at once.
  bool Hold(const std::string& sale_id, std::uint64_t seen, Clock::time_point now, std::function<void()> wake);
  void Changed(const std::string& sale_id);  // SaleBook::OnChange: wakes the sale's holders
  void Expire(Clock::time_point now);        // wakes those held past kHold
  std::size_t Held() const;

 private:
  struct Holder {
    std::string sale_id;
    Clock::time_point until;
    std::function<void()> wake;
  };
  // Takes out the holders `due` picks, and wakes them once the lock is released.
  void WakeWhere(const std::function<bool(const Holder&)>& due);

  const SaleBook& book_;
  mutable std::mutex mu_;
  std::vector<Holder> held_;  // guarded by mu_
};

}  // namespace balcao::terminal::service
