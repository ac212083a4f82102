#include "http/internal/connection_set.h"

#include <vector>

namespace balcao::http::internal {

std::uint64_t ConnectionSet::Add(std::weak_ptr<Connection> connection) {
  std::lock_guard lock(mu_);
  if (closing_) return 0;
  const std::uint64_t id = next_id_++;
  live_.emplace(id, std::move(connection));
  return id;
}

void ConnectionSet::Remove(std::uint64_t id) {
  std::lock_guard lock(mu_);
  live_.erase(id);
  if (live_.empty()) empty_.notify_all();
}

void ConnectionSet::ShutdownAll() {
  std::vector<std::shared_ptr<Connection>> alive;
  {
    std::lock_guard lock(mu_);
    closing_ = true;
    for (const auto& [id, weak] : live_)
      if (auto connection = weak.lock()) alive.push_back(std::move(connection));
  }
  // Outside the lock: a connection released here may be destroyed here, and Remove itself.
  for (const auto& connection : alive) connection->Shutdown();
}

bool ConnectionSet::WaitEmpty(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(mu_);
  return empty_.wait_until(lock, deadline, [this] { return live_.empty(); });
}

}  // namespace balcao::http::internal
