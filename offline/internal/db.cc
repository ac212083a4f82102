// SQLite plumbing of the store: transactions and the statement cache.
#include "offline/internal/db.h"

#include <sqlite3.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

namespace balcao::offline {

Store::Impl::~Impl() {
  for (auto& [sql, stmt] : statements) sqlite3_finalize(stmt);
  if (db != nullptr) sqlite3_close_v2(db);
}

namespace internal {
namespace {
std::atomic<const Clock*> g_clock{nullptr};
}  // namespace

std::int64_t NowMs() {
  const Clock* clock = g_clock.load();
  const UnixMicros now = clock != nullptr ? clock->Now() : SystemClock::Instance().Now();
  return now / 1000;
}

void SetClockForTest(const Clock* clock) { g_clock.store(clock); }

Status SqliteError(sqlite3* db, int rc, std::string_view what) {
  std::string message(what);
  message += ": ";
  message += db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  // What the operating system said (ENOSPC, EIO, EROFS...): the operator's first clue. SQLite
  // reports a write refused with ENOSPC as SQLITE_FULL and keeps no errno for it (it is "not a
  // system error" there), so that one is named here.
  const int primary = rc & 0xff;
  int os_error = db != nullptr ? sqlite3_system_errno(db) : 0;
  if (primary == SQLITE_FULL && os_error == 0) os_error = ENOSPC;
  if (os_error != 0 &&
      (primary == SQLITE_FULL || primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY))
    message += std::string(" (") + std::strerror(os_error) + ")";
  switch (primary) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return UnavailableError(message + " (database busy)");
    case SQLITE_CONSTRAINT:
      return FailedPreconditionError(message);
    case SQLITE_FULL:
      return ResourceExhaustedError(message);
    case SQLITE_IOERR:
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return DataLossError(message);
    default:
      return InternalError(message);
  }
}

Status Exec(sqlite3* db, const char* sql) {
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &error);
  if (rc == SQLITE_OK) return OkStatus();
  std::string message = error != nullptr ? error : sqlite3_errstr(rc);
  sqlite3_free(error);
  return SqliteError(nullptr, rc, message);
}

Txn::Txn(Store::Impl& store, Mode mode) : store_(store), lock_(store.mu) {
  if (store_.poisoned) {
    status_ = DataLossError("store " + store_.path + " had an I/O error; reopen it (restart the service)");
    return;
  }
  status_ = Exec(store_.db, mode == kWrite ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
  open_ = status_.ok();
}

Txn::~Txn() {
  if (open_) sqlite3_exec(store_.db, "ROLLBACK", nullptr, nullptr, nullptr);
}

Status Txn::Commit() {
  if (!status_.ok()) return status_;
  if (!open_) return FailedPreconditionError("transaction already finished");
  const int rc = sqlite3_exec(store_.db, "COMMIT", nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) {
    open_ = false;
    return OkStatus();
  }
  Status error = SqliteError(store_.db, rc, "commit");
  if ((rc & 0xff) == SQLITE_IOERR) store_.poisoned = true;
  return error;  // the destructor rolls back what is left
}

Stmt::Stmt(Txn& txn, std::string_view sql) : txn_(txn) {
  if (!txn.status().ok()) {
    status_ = txn.status();
    return;
  }
  auto& cache = txn.store().statements;
  auto it = cache.find(sql);
  if (it == cache.end()) {
    sqlite3_stmt* prepared = nullptr;
    const int rc = sqlite3_prepare_v3(txn.db(), sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                                      &prepared, nullptr);
    if (rc != SQLITE_OK) {
      status_ = SqliteError(txn.db(), rc, "prepare");
      return;
    }
    it = cache.emplace(std::string(sql), prepared).first;
  }
  stmt_ = it->second;
}

Stmt::~Stmt() {
  if (stmt_ != nullptr) {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
}

namespace {
Status BindResult(sqlite3* db, int rc) { return rc == SQLITE_OK ? OkStatus() : SqliteError(db, rc, "bind"); }
}  // namespace

Stmt& Stmt::Bind(int index, std::int64_t value) {
  if (status_.ok()) status_ = BindResult(txn_.db(), sqlite3_bind_int64(stmt_, index, value));
  return *this;
}

Stmt& Stmt::Bind(int index, std::string_view text) {
  if (status_.ok())
    status_ = BindResult(txn_.db(),
                         sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
  return *this;
}

Stmt& Stmt::BindBlob(int index, std::string_view bytes) {
  if (status_.ok())
    status_ = BindResult(txn_.db(), sqlite3_bind_blob64(stmt_, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT));
  return *this;
}

Stmt& Stmt::BindNull(int index) {
  if (status_.ok()) status_ = BindResult(txn_.db(), sqlite3_bind_null(stmt_, index));
  return *this;
}

StatusOr<bool> Stmt::Step() {
  if (!status_.ok()) return status_;
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  status_ = SqliteError(txn_.db(), rc, "step");
  return status_;
}

Status Stmt::Run() {
  while (true) {
    BALCAO_ASSIGN_OR_RETURN(bool row, Step());
    if (!row) return OkStatus();
  }
}

int Stmt::Changes() const { return sqlite3_changes(txn_.db()); }

std::int64_t Stmt::Int(int col) const { return sqlite3_column_int64(stmt_, col); }

std::string Stmt::Text(int col) const {
  const unsigned char* text = sqlite3_column_text(stmt_, col);
  return text == nullptr ? std::string()
                         : std::string(reinterpret_cast<const char*>(text), sqlite3_column_bytes(stmt_, col));
}

std::string Stmt::Blob(int col) const {
  const void* data = sqlite3_column_blob(stmt_, col);
  return data == nullptr ? std::string()
                         : std::string(static_cast<const char*>(data), sqlite3_column_bytes(stmt_, col));
}

bool Stmt::IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

Status GuardedUpdate(Store::Impl& store, std::string_view table, std::string_view noun, std::int64_t id,
                     std::string_view sql, std::string_view rule, const std::function<void(Stmt&)>& bind) {
  Txn txn(store, Txn::kWrite);
  Stmt stmt(txn, sql);
  stmt.Bind(1, id).Bind(2, NowMs());
  if (bind) bind(stmt);
  BALCAO_RETURN_IF_ERROR(stmt.Run());
  const std::string name = std::string(noun) + " " + std::to_string(id);
  if (stmt.Changes() == 0) {
    Stmt current(txn, "SELECT state FROM " + std::string(table) + " WHERE id=?1");
    BALCAO_ASSIGN_OR_RETURN(bool found, current.Bind(1, id).Step());
    if (!found) return NotFoundError(name + " does not exist");
    return FailedPreconditionError(name + " is " + current.Text(0) + ": " + std::string(rule));
  }
  return txn.Commit();
}

}  // namespace internal
}  // namespace balcao::offline
