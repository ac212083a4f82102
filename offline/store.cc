// Opening the store: file mode, pragmas, migrations, ownership and crash recovery.
#include "offline/store.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "offline/internal/db.h"
#include "offline/internal/migrations.h"

namespace balcao::offline {

bool IsDiskFailure(const Status& status) {
  return status.code() == StatusCode::kResourceExhausted || status.code() == StatusCode::kDataLoss;
}

namespace {

using internal::Exec;
using internal::Txn;

bool InMemory(const std::string& path) { return path.empty() || path == ":memory:"; }

// Creates the file with mode 0600 when missing: the -wal and -shm files inherit the
// database file's mode, and sealed card records live here (encrypted, but still).
Status CreateFileIfMissing(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return UnavailableError("cannot create store " + path + ": " + std::strerror(errno));
  ::close(fd);
  return OkStatus();
}

StatusOr<std::string> PragmaText(sqlite3* db, const char* sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr);
  if (rc != SQLITE_OK) return internal::SqliteError(db, rc, sql);
  std::string value;
  rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW && sqlite3_column_text(stmt, 0) != nullptr)
    value = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
  sqlite3_finalize(stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return internal::SqliteError(db, rc, sql);
  return value;
}

Status Configure(Store::Impl& s) {
  sqlite3_extended_result_codes(s.db, 1);
  sqlite3_busy_timeout(s.db, 5000);
  BALCAO_ASSIGN_OR_RETURN(std::string mode, PragmaText(s.db, "PRAGMA journal_mode=WAL"));
  if (mode != "wal" && !(InMemory(s.path) && mode == "memory"))
    return FailedPreconditionError("store " + s.path + " cannot use WAL (journal_mode=" + mode + ")");
  // FULL: one WAL sync per commit, so an acknowledged write survives power loss.
  // secure_delete: freed pages are zeroed (sealed card records; docs/reliability.md, "Card
  // data handling").
  return Exec(s.db, "PRAGMA synchronous=FULL; PRAGMA secure_delete=ON; PRAGMA foreign_keys=ON;");
}

Status Migrate(Store::Impl& s) {
  const auto& migrations = internal::Migrations();
  for (std::size_t i = 0; i < migrations.size(); ++i) {
    if (migrations[i].number != static_cast<int>(i) + 1)
      return InternalError(std::string("migration ") + migrations[i].name + " is out of sequence");
  }
  const int latest = static_cast<int>(migrations.size());
  BALCAO_ASSIGN_OR_RETURN(std::string text, PragmaText(s.db, "PRAGMA user_version"));
  s.schema_version = std::stoi(text);
  if (s.schema_version > latest)
    return FailedPreconditionError("store " + s.path + " has schema version " + text + ", newer than this build (" +
                                   std::to_string(latest) + ")");
  for (const auto& m : migrations) {
    if (m.number <= s.schema_version) continue;
    Txn txn(s, Txn::kWrite);
    BALCAO_RETURN_IF_ERROR(txn.status());
    // Re-read inside the write lock: another process may have migrated meanwhile.
    BALCAO_ASSIGN_OR_RETURN(std::string now, PragmaText(s.db, "PRAGMA user_version"));
    if (std::stoi(now) >= m.number) {
      s.schema_version = std::stoi(now);
      continue;
    }
    Status applied = Exec(s.db, m.sql);
    if (applied.ok()) {
      if (internal::MigrationStep step = internal::MigrationStepOf(m.name)) applied = step(txn);
    }
    if (!applied.ok()) return InternalError(std::string("migration ") + m.name + ": " + applied.message());
    BALCAO_RETURN_IF_ERROR(Exec(s.db, ("PRAGMA user_version=" + std::to_string(m.number)).c_str()));
    BALCAO_RETURN_IF_ERROR(txn.Commit());
    s.schema_version = m.number;
  }
  return OkStatus();
}

Status RecoverAfterCrash(Store::Impl& s) {
  Txn txn(s, Txn::kWrite);
  const std::int64_t now = s.NowMs();
  internal::Stmt outbox(txn,
                        "UPDATE outbox SET state='unknown', reached_bank=1, updated_at=?1, next_attempt_at=?1, "
                        "last_error='interrupted while sending: outcome unknown, looking up before any resend' "
                        "WHERE state='inflight'");
  BALCAO_RETURN_IF_ERROR(outbox.Bind(1, now).Run());
  internal::Stmt prints(txn, "UPDATE print_jobs SET state='queued', updated_at=?1 WHERE state='printing'");
  BALCAO_RETURN_IF_ERROR(prints.Bind(1, now).Run());
  return txn.Commit();
}

// Non-blocking flock on "<path>-owner". The kernel drops it when the process dies,
// so a SIGKILLed owner never blocks its successor.
bool TakeOwnerLock(Store::Impl& s) {
  if (InMemory(s.path)) return true;
  if (s.owner_fd < 0) {
    s.owner_fd = ::open((s.path + "-owner").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (s.owner_fd < 0) return false;
  }
  return ::flock(s.owner_fd, LOCK_EX | LOCK_NB) == 0;
}

}  // namespace

StatusOr<std::unique_ptr<Store>> Store::Open(const std::string& path, const StoreOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->clock = options.clock;
  impl->path = path.empty() ? ":memory:" : path;
  if (!InMemory(impl->path)) BALCAO_RETURN_IF_ERROR(CreateFileIfMissing(impl->path));
  const int rc = sqlite3_open_v2(impl->path.c_str(), &impl->db,
                                 SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) return internal::SqliteError(impl->db, rc, "open " + impl->path);
  BALCAO_RETURN_IF_ERROR(Configure(*impl));
  BALCAO_RETURN_IF_ERROR(Migrate(*impl));
  std::unique_ptr<Store> store(new Store(std::move(impl)));
  Status owner = store->TryBecomeOwner();
  if (!owner.ok() && owner.code() != StatusCode::kUnavailable) return owner;
  return store;
}

StatusOr<std::unique_ptr<Store>> Store::OpenReadOnly(const std::string& path, const StoreOptions& options) {
  if (InMemory(path)) return InvalidArgumentError("store path: a read-only open needs a file, not :memory:");
  if (::access(path.c_str(), F_OK) != 0) return NotFoundError("store " + path + " does not exist");
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->read_only = true;
  impl->clock = options.clock;
  const int rc = sqlite3_open_v2(path.c_str(), &impl->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) return internal::SqliteError(impl->db, rc, "open " + path);
  sqlite3_extended_result_codes(impl->db, 1);
  sqlite3_busy_timeout(impl->db, 5000);
  BALCAO_ASSIGN_OR_RETURN(std::string text, PragmaText(impl->db, "PRAGMA user_version"));
  impl->schema_version = std::stoi(text);
  const int latest = static_cast<int>(internal::Migrations().size());
  if (impl->schema_version > latest)
    return FailedPreconditionError("store " + path + " has schema version " + text + ", newer than this build (" +
                                   std::to_string(latest) + ")");
  if (impl->schema_version < latest)
    return FailedPreconditionError("store " + path + " has schema version " + text + ", older than this build's (" +
                                   std::to_string(latest) +
                                   "): a reader does not migrate; open it once with the service or `balcao queue`");
  return std::unique_ptr<Store>(new Store(std::move(impl)));
}

Status Store::TryBecomeOwner() {
  if (impl_->owner) return OkStatus();
  if (impl_->read_only) return FailedPreconditionError("store " + impl_->path + " was opened read-only");
  if (!TakeOwnerLock(*impl_)) return UnavailableError("another process owns store " + impl_->path);
  BALCAO_RETURN_IF_ERROR(RecoverAfterCrash(*impl_));
  impl_->owner = true;
  return OkStatus();
}

Status Store::ProbeWrite() {
  return internal::RunWrite(*impl_,
                            "INSERT INTO settings (name, value) VALUES ('health.write_probe', ?1) "
                            "ON CONFLICT (name) DO UPDATE SET value=excluded.value",
                            std::to_string(impl_->NowMs()))
      .status();
}

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Store::~Store() {
  const int owner_fd = impl_ ? impl_->owner_fd : -1;
  impl_.reset();                         // close the database first,
  if (owner_fd >= 0) ::close(owner_fd);  // then release the owner flock
}

const std::string& Store::path() const { return impl_->path; }
int Store::schema_version() const { return impl_->schema_version; }
bool Store::is_owner() const { return impl_->owner; }

}  // namespace balcao::offline
