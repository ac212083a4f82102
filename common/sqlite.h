// The one SQLite wrapper of Balcão (the box's store in offline/ and the sandbox's entity
// store): a connection with its statement cache, an RAII transaction and a prepared
// statement, all reporting errors as Status (docs/style.md S1). <sqlite3.h> stays in the .cc
// files; only the opaque handles are named here.
// Thread-safety: a Connection is used by one thread at a time: under its mutex (a Txn takes
// it) or under its owner's own lock (the sandbox's engine).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace balcao::sqlite {

// An open database handle plus what lives as long as it: the statement cache and whether an
// I/O error made it untrustworthy. The destructor finalizes the cache and closes the handle.
struct Connection {
  Connection() = default;
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  sqlite3* db = nullptr;
  std::mutex mu;  // taken by Txn: one transaction at a time
  std::string path;
  // After an I/O error on commit the handle is not trusted again (fsyncgate lesson,
  // docs/reliability.md, "Store failures"): every later Txn fails until it is reopened.
  bool poisoned = false;
  // Prepared statements by SQL text, kept for the connection's life. Bounded: past
  // kMaxCachedStatements a statement is prepared for one use (queries built with variable
  // IN() lists come in many shapes).
  std::map<std::string, sqlite3_stmt*, std::less<>> statements;
  static constexpr std::size_t kMaxCachedStatements = 256;
};

// Turns a SQLite result code into a Status ("<what>: <sqlite message>"), naming what the
// operating system said. Codes: kUnavailable (busy or locked: try again), kFailedPrecondition
// (a constraint), kResourceExhausted (disk full), kDataLoss (I/O error, corrupt file),
// kInternal (anything else).
Status SqliteError(sqlite3* db, int rc, std::string_view what);

// Runs SQL text with no results (may hold several statements).
Status Exec(sqlite3* db, const char* sql);

// A transaction on the connection that holds the connection's lock. kWrite starts with
// BEGIN IMMEDIATE so the write lock is taken up front (busy_timeout applies to this one
// statement); destruction without Commit() rolls back.
class Txn {
 public:
  enum Mode { kRead, kWrite };
  Txn(Connection& connection, Mode mode);
  ~Txn();
  Txn(const Txn&) = delete;
  Txn& operator=(const Txn&) = delete;

  const Status& status() const { return status_; }  // check before use
  Status Commit();
  Connection& connection() { return connection_; }
  sqlite3* db() { return connection_.db; }

 private:
  Connection& connection_;
  std::unique_lock<std::mutex> lock_;
  Status status_;
  bool open_ = false;
};

// A prepared statement (from the connection's cache), reset and unbound when this goes out of
// scope. Bind errors are kept and reported by Step/Run; parameters are numbered from 1.
class Stmt {
 public:
  Stmt(Txn& txn, std::string_view sql);
  // For a connection whose owner serialises calls and runs its transactions itself.
  Stmt(Connection& connection, std::string_view sql);
  ~Stmt();
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& Bind(int index, std::int64_t value);
  Stmt& Bind(int index, int value) { return Bind(index, static_cast<std::int64_t>(value)); }
  Stmt& Bind(int index, std::string_view text);
  Stmt& Bind(int index, const std::string& text) { return Bind(index, std::string_view(text)); }
  Stmt& Bind(int index, const char* text) { return Bind(index, std::string_view(text)); }
  Stmt& BindBlob(int index, std::string_view bytes);
  // Binds ?1, ?2, ... to `values` in order: a row's whole INSERT in one call, no index to
  // miscount.
  template <typename... Values>
  Stmt& BindAll(const Values&... values) {
    return BindFrom(1, values...);
  }
  // The same from ?`first` on (after the parameters a shared statement binds itself).
  template <typename... Values>
  Stmt& BindFrom(int first, const Values&... values) {
    (Bind(first++, values), ...);
    return *this;
  }

  StatusOr<bool> Step();  // true: a row is available
  Status Run();           // steps to the end, ignoring rows
  int Changes() const;    // rows changed by the last Run
  std::int64_t LastInsertId() const;

  std::int64_t Int(int col) const;
  std::string Text(int col) const;
  std::string Blob(int col) const;
  bool IsNull(int col) const;
  // Reads columns 0, 1, ... into `fields` in order, each by its type (integer, int, bool,
  // text): a row type's reader in one call, in the order of its SELECT's column list.
  template <typename... Fields>
  void ReadInto(Fields&... fields) const {
    ReadFrom(0, fields...);
  }
  // The same from column `first` on (after a column that needs its own reading: a blob, a
  // name to parse).
  template <typename... Fields>
  void ReadFrom(int first, Fields&... fields) const {
    (ReadColumn(first++, fields), ...);
  }

 private:
  void Prepare(std::string_view sql);
  void ReadColumn(int col, std::int64_t& field) const { field = Int(col); }
  void ReadColumn(int col, int& field) const { field = static_cast<int>(Int(col)); }
  void ReadColumn(int col, bool& field) const { field = Int(col) != 0; }
  void ReadColumn(int col, std::string& field) const { field = Text(col); }

  Connection& connection_;
  sqlite3_stmt* stmt_ = nullptr;
  bool owned_ = false;  // prepared for this use only (the cache was full): finalized here
  Status status_;
};

// Runs one statement, bound to `values` (?1, ?2, ...), in a write transaction of its own and
// commits it: the number of rows it changed (0: nothing matched, or an INSERT OR IGNORE found
// the row there; the caller says what that means). On an error nothing is written.
template <typename... Values>
StatusOr<int> RunWrite(Connection& connection, std::string_view sql, const Values&... values) {
  Txn txn(connection, Txn::kWrite);
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt stmt(txn, sql);
  BALCAO_RETURN_IF_ERROR(stmt.BindAll(values...).Run());
  const int changed = stmt.Changes();
  BALCAO_RETURN_IF_ERROR(txn.Commit());
  return changed;
}

namespace internal {
template <typename T>
struct RowOf {
  using type = T;
  static StatusOr<T> Lift(T value) { return value; }
};
template <typename T>
struct RowOf<StatusOr<T>> {
  using type = T;
  static StatusOr<T> Lift(StatusOr<T> value) { return value; }
};
}  // namespace internal

// Every row `stmt` yields, each made by `read(stmt)`: a row type, or a StatusOr of one when
// a row can be refused (an unknown state name). The first error (the step's or the row's) is
// returned instead.
template <typename Read>
auto ReadAll(Stmt& stmt, Read read)
    -> StatusOr<std::vector<typename internal::RowOf<std::invoke_result_t<Read&, const Stmt&>>::type>> {
  using Made = std::invoke_result_t<Read&, const Stmt&>;
  std::vector<typename internal::RowOf<Made>::type> rows;
  while (true) {
    BALCAO_ASSIGN_OR_RETURN(const bool more, stmt.Step());
    if (!more) return rows;
    BALCAO_ASSIGN_OR_RETURN(auto row, internal::RowOf<Made>::Lift(read(static_cast<const Stmt&>(stmt))));
    rows.push_back(std::move(row));
  }
}

}  // namespace balcao::sqlite
