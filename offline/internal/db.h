// Private plumbing of the store: its connection (common/sqlite.h, plus what the box's store
// adds: ownership, schema version, clock) and the guarded update its components share.
// Everything here runs under the connection's lock (a Txn).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "common/sqlite.h"
#include "common/status.h"
#include "common/time.h"
#include "offline/store.h"

namespace balcao::offline {

struct Store::Impl : sqlite::Connection {
  int schema_version = 0;
  int owner_fd = -1;  // flock'ed "<path>-owner" while this Store is the owner
  bool owner = false;
  bool read_only = false;                         // Store::OpenReadOnly
  const Clock* clock = &SystemClock::Instance();  // StoreOptions::clock

  // Now in epoch milliseconds, by the store's clock: every row's timestamps and what is due.
  std::int64_t NowMs() const { return clock->Now() / 1000; }
};

namespace internal {

using sqlite::Exec;
using sqlite::RunWrite;
using sqlite::SqliteError;
using sqlite::Stmt;
using sqlite::Txn;

// The store a transaction of offline/ runs on (every Txn here is opened on a Store::Impl).
inline Store::Impl& StoreOf(Txn& txn) { return static_cast<Store::Impl&>(txn.connection()); }

// Runs one UPDATE of row ?1 of `table` (?2 is bound to now; `bind` adds the rest) in its
// own write transaction. When no row matched, tells "no such row" (kNotFound) from "the
// row is in a state this transition does not start from" (kFailedPrecondition + rule),
// naming the row as "<noun> <id>".
Status GuardedUpdate(Store::Impl& store, std::string_view table, std::string_view noun, std::int64_t id,
                     std::string_view sql, std::string_view rule, const std::function<void(Stmt&)>& bind);

}  // namespace internal
}  // namespace balcao::offline
