// The live connections of one server, so that Stop() can reach them: each connection adds
// itself when it starts and removes itself when it is destroyed. Once closing, no connection
// may be added (one accepted during Stop closes at once). No Boost here.
// Thread-safety: every member may be called from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace balcao::http::internal {

class Connection {
 public:
  virtual ~Connection() = default;
  // Stop() is under way: close now when idle, else close once the answer in flight is written.
  virtual void Shutdown() = 0;
};

class ConnectionSet {
 public:
  // The connection's id, or 0 when the set is closing (the caller closes the connection).
  std::uint64_t Add(std::weak_ptr<Connection> connection);
  void Remove(std::uint64_t id);
  // Refuses new connections and asks each live one to Shutdown().
  void ShutdownAll();
  // Whether every connection has gone by `deadline`.
  bool WaitEmpty(std::chrono::steady_clock::time_point deadline);

 private:
  std::mutex mu_;
  std::condition_variable empty_;
  std::unordered_map<std::uint64_t, std::weak_ptr<Connection>> live_;
  std::uint64_t next_id_ = 1;
  bool closing_ = false;
};

}  // namespace balcao::http::internal
