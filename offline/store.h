// The box's one SQLite database: sale journal, outbox, print jobs, store-and-forward.
// WAL, synchronous=FULL, BEGIN IMMEDIATE for every write, busy timeout, numbered
// migrations tracked in PRAGMA user_version. <sqlite3.h> stays inside offline/.
// Crash contract: when a write call returns OK, its row survives power loss.
// Thread-safety: one Store may be used from several threads; calls are serialized.
#pragma once

#include <memory>
#include <string>

#include "common/status.h"

namespace balcao::offline {

class Store {
 public:
  // Opens (creating if needed) and migrates the database at `path` (":memory:" allowed).
  static StatusOr<std::unique_ptr<Store>> Open(const std::string& path);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& path() const;
  int schema_version() const;

  struct Impl;
  Impl& impl() { return *impl_; }  // for the other offline/ components

 private:
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace balcao::offline
