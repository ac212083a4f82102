#include "terminal/service/sale_watch.h"

#include <utility>

namespace balcao::terminal::service {

bool SaleWatch::Hold(const std::string& sale_id, std::uint64_t seen, Clock::time_point now,
                     std::function<void()> wake) {
  std::lock_guard<std::mutex> lock(mu_);
  // Under mu_: a change after this read calls Changed, which waits for mu_ and finds the holder.
  if (held_.size() >= kMaxHeld || book_.Version(sale_id) != seen) return false;
  held_.push_back({sale_id, now + kHold, std::move(wake)});
  return true;
}

void SaleWatch::Changed(const std::string& sale_id) {
  WakeWhere([&](const Holder& h) { return h.sale_id == sale_id; });
}

void SaleWatch::Expire(Clock::time_point now) {
  WakeWhere([&](const Holder& h) { return h.until <= now; });
}

std::size_t SaleWatch::Held() const {
  std::lock_guard<std::mutex> lock(mu_);
  return held_.size();
}

void SaleWatch::WakeWhere(const std::function<bool(const Holder&)>& due) {
  std::vector<std::function<void()>> woken;
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::erase_if(held_, [&](Holder& h) {
      if (!due(h)) return false;
      woken.push_back(std::move(h.wake));
      return true;
    });
  }
  for (auto& wake : woken) wake();
}

}  // namespace balcao::terminal::service
