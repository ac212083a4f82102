// The SQLite wrapper: connection, transactions and the statement cache.
#include "common/sqlite.h"

#include <sqlite3.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace balcao::sqlite {

Connection::~Connection() {
  for (auto& [sql, stmt] : statements) sqlite3_finalize(stmt);
  if (db != nullptr) sqlite3_close_v2(db);
}

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

Txn::Txn(Connection& connection, Mode mode) : connection_(connection), lock_(connection.mu) {
  if (connection_.poisoned) {
    status_ = DataLossError("store " + connection_.path + " had an I/O error; reopen it (restart the service)");
    return;
  }
  status_ = Exec(connection_.db, mode == kWrite ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
  open_ = status_.ok();
}

Txn::~Txn() {
  if (open_) sqlite3_exec(connection_.db, "ROLLBACK", nullptr, nullptr, nullptr);
}

Status Txn::Commit() {
  if (!status_.ok()) return status_;
  if (!open_) return FailedPreconditionError("transaction already finished");
  const int rc = sqlite3_exec(connection_.db, "COMMIT", nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) {
    open_ = false;
    return OkStatus();
  }
  Status error = SqliteError(connection_.db, rc, "commit");
  if ((rc & 0xff) == SQLITE_IOERR) connection_.poisoned = true;
  return error;  // the destructor rolls back what is left
}

Stmt::Stmt(Txn& txn, std::string_view sql) : connection_(txn.connection()) {
  status_ = txn.status();
  if (status_.ok()) Prepare(sql);
}

Stmt::Stmt(Connection& connection, std::string_view sql) : connection_(connection) { Prepare(sql); }

void Stmt::Prepare(std::string_view sql) {
  auto& cache = connection_.statements;
  if (auto it = cache.find(sql); it != cache.end()) {
    stmt_ = it->second;
    return;
  }
  owned_ = cache.size() >= Connection::kMaxCachedStatements;
  const int rc = sqlite3_prepare_v3(connection_.db, sql.data(), static_cast<int>(sql.size()),
                                    owned_ ? 0 : SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr);
  if (rc != SQLITE_OK) {
    status_ = SqliteError(connection_.db, rc, "prepare");
    sqlite3_finalize(stmt_);
    stmt_ = nullptr;
    return;
  }
  if (!owned_) cache.emplace(std::string(sql), stmt_);
}

Stmt::~Stmt() {
  if (stmt_ == nullptr) return;
  if (owned_) {
    sqlite3_finalize(stmt_);
    return;
  }
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

namespace {
Status BindResult(sqlite3* db, int rc) { return rc == SQLITE_OK ? OkStatus() : SqliteError(db, rc, "bind"); }
}  // namespace

Stmt& Stmt::Bind(int index, std::int64_t value) {
  if (status_.ok()) status_ = BindResult(connection_.db, sqlite3_bind_int64(stmt_, index, value));
  return *this;
}

Stmt& Stmt::Bind(int index, std::string_view text) {
  if (status_.ok())
    status_ = BindResult(connection_.db,
                         sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
  return *this;
}

Stmt& Stmt::BindBlob(int index, std::string_view bytes) {
  if (status_.ok())
    status_ =
        BindResult(connection_.db, sqlite3_bind_blob64(stmt_, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT));
  return *this;
}

StatusOr<bool> Stmt::Step() {
  if (!status_.ok()) return status_;
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  status_ = SqliteError(connection_.db, rc, "step");
  return status_;
}

Status Stmt::Run() {
  while (true) {
    BALCAO_ASSIGN_OR_RETURN(bool row, Step());
    if (!row) return OkStatus();
  }
}

int Stmt::Changes() const { return sqlite3_changes(connection_.db); }

std::int64_t Stmt::LastInsertId() const { return sqlite3_last_insert_rowid(connection_.db); }

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

}  // namespace balcao::sqlite
