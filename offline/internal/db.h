// Private plumbing of the store: the connection, a statement cache, and the RAII
// transaction every component uses. <sqlite3.h> stays in the .cc files; only the
// opaque handles are named here. Everything here runs under Store::Impl::mu.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "common/status.h"
#include "common/time.h"
#include "offline/store.h"

struct sqlite3;
struct sqlite3_stmt;

namespace balcao::offline {

struct Store::Impl {
  ~Impl();
  sqlite3* db = nullptr;
  std::mutex mu;  // one connection, calls serialized
  std::string path;
  int schema_version = 0;
  // After an I/O error on commit the handle is not trusted again (fsyncgate lesson,
  // docs/reliability.md, "Store failures"): every later call fails until the store is reopened.
  bool poisoned = false;
  std::map<std::string, sqlite3_stmt*, std::less<>> statements;
  int owner_fd = -1;  // flock'ed "<path>-owner" while this Store is the owner
  bool owner = false;
  bool read_only = false;  // Store::OpenReadOnly
};

namespace internal {

// Now in epoch milliseconds; the store's one clock (tests move it through SetClockForTest).
std::int64_t NowMs();
void SetClockForTest(const Clock* clock);  // nullptr restores the system clock

// Turns a SQLite result code into a Status ("<what>: <sqlite message>").
Status SqliteError(sqlite3* db, int rc, std::string_view what);

// Runs SQL text with no results (may hold several statements).
Status Exec(sqlite3* db, const char* sql);

// A transaction on the store's connection that holds the store's lock. kWrite starts
// with BEGIN IMMEDIATE so the write lock is taken up front (busy_timeout applies to
// this one statement); destruction without Commit() rolls back.
class Txn {
 public:
  enum Mode { kRead, kWrite };
  Txn(Store::Impl& store, Mode mode);
  ~Txn();
  Txn(const Txn&) = delete;
  Txn& operator=(const Txn&) = delete;

  const Status& status() const { return status_; }  // check before use
  Status Commit();
  Store::Impl& store() { return store_; }
  sqlite3* db() { return store_.db; }

 private:
  Store::Impl& store_;
  std::unique_lock<std::mutex> lock_;
  Status status_;
  bool open_ = false;
};

// A cached prepared statement, reset and unbound when this goes out of scope.
// Bind errors are kept and reported by Step/Run.
class Stmt {
 public:
  Stmt(Txn& txn, std::string_view sql);
  ~Stmt();
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& Bind(int index, std::int64_t value);
  Stmt& Bind(int index, int value) { return Bind(index, static_cast<std::int64_t>(value)); }
  Stmt& Bind(int index, std::string_view text);
  Stmt& Bind(int index, const std::string& text) { return Bind(index, std::string_view(text)); }
  Stmt& Bind(int index, const char* text) { return Bind(index, std::string_view(text)); }
  Stmt& BindBlob(int index, std::string_view bytes);
  Stmt& BindNull(int index);

  StatusOr<bool> Step();  // true: a row is available
  Status Run();           // steps to the end, ignoring rows
  int Changes() const;    // rows changed by the last Run

  std::int64_t Int(int col) const;
  std::string Text(int col) const;
  std::string Blob(int col) const;
  bool IsNull(int col) const;

 private:
  Txn& txn_;
  sqlite3_stmt* stmt_ = nullptr;
  Status status_;
};

// Runs one UPDATE of row ?1 of `table` (?2 is bound to now; `bind` adds the rest) in its
// own write transaction. When no row matched, tells "no such row" (kNotFound) from "the
// row is in a state this transition does not start from" (kFailedPrecondition + rule),
// naming the row as "<noun> <id>".
Status GuardedUpdate(Store::Impl& store, std::string_view table, std::string_view noun, std::int64_t id,
                     std::string_view sql, std::string_view rule, const std::function<void(Stmt&)>& bind);

}  // namespace internal
}  // namespace balcao::offline
