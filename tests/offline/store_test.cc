// The store: migrations from empty, idempotent reopen, pragmas, ownership and the
// crash recovery of rows left in flight.
#include "offline/store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "offline/internal/db.h"
#include "offline/internal/migrations.h"
#include "tests/offline/test_util.h"
#include "tests/testing/lone_fork.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::IsOk;
using ::balcao::test_util::StatusIs;
using ::testing::Not;

namespace balcao::offline {
namespace {

using testing::TempDir;

std::string QueryText(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* stmt = nullptr;
  std::string out;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK) {
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      if (!out.empty()) out += ",";
      const unsigned char* t = sqlite3_column_text(stmt, 0);
      out += t ? reinterpret_cast<const char*>(t) : "NULL";
    }
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

TEST(Store, MigratesFromEmptyToTheLatestVersion) {
  TempDir dir;
  const std::string path = dir.File("box.db");
  auto store = Store::Open(path);
  ASSERT_OK(store);
  const int latest = static_cast<int>(internal::Migrations().size());
  EXPECT_GE(latest, 1);
  EXPECT_EQ((*store)->schema_version(), latest);
  EXPECT_EQ(QueryText(path, "PRAGMA user_version"), std::to_string(latest));
  EXPECT_EQ(QueryText(path, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(
      QueryText(path, "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name"),
      "applied_events,card_outcomes,operator_actions,operators,outbox,pos_keys,pos_nonces,print_jobs,"
      "register_requests,sale_journal,sales,sealed_cards,settings,settlement_sales,settlements");
}

TEST(Store, ReopenIsIdempotentAndKeepsData) {
  TempDir dir;
  const std::string path = dir.File("box.db");
  {
    auto store = Store::Open(path);
    ASSERT_OK(store);
    internal::Txn txn((*store)->impl(), internal::Txn::kWrite);
    ASSERT_OK(internal::Exec(txn.db(), "INSERT INTO settings VALUES ('x', '1')"));
    ASSERT_OK(txn.Commit());
  }
  for (int i = 0; i < 3; ++i) {
    auto store = Store::Open(path);
    ASSERT_OK(store);
    EXPECT_EQ((*store)->schema_version(), static_cast<int>(internal::Migrations().size()));
  }
  EXPECT_EQ(QueryText(path, "SELECT value FROM settings WHERE name='x'"), "1");
}

// ProbeWrite (the readiness check) commits a real row, every time, and keeps only one.
TEST(Store, ProbeWriteCommitsARowThatAnotherConnectionReads) {
  TempDir dir;
  const std::string path = dir.File("box.db");
  auto store = Store::Open(path);
  ASSERT_OK(store);
  ASSERT_OK((*store)->ProbeWrite());
  const std::string first = QueryText(path, "SELECT value FROM settings WHERE name='health.write_probe'");
  EXPECT_FALSE(first.empty());
  EXPECT_GT(std::stoll(first), 1'600'000'000'000LL);  // epoch milliseconds
  ASSERT_OK((*store)->ProbeWrite());
  EXPECT_EQ(QueryText(path, "SELECT count(*) FROM settings WHERE name='health.write_probe'"), "1");
}

TEST(Store, PragmasAreDurableOnTheConnection) {
  TempDir dir;
  auto store = Store::Open(dir.File("box.db"));
  ASSERT_OK(store);
  internal::Txn txn((*store)->impl(), internal::Txn::kRead);
  internal::Stmt sync(txn, "PRAGMA synchronous");
  ASSERT_TRUE(*sync.Step());
  EXPECT_EQ(sync.Int(0), 2);  // FULL
  internal::Stmt secure(txn, "PRAGMA secure_delete");
  ASSERT_TRUE(*secure.Step());
  EXPECT_EQ(secure.Int(0), 1);
  internal::Stmt fk(txn, "PRAGMA foreign_keys");
  ASSERT_TRUE(*fk.Step());
  EXPECT_EQ(fk.Int(0), 1);
}

TEST(Store, NewFilesAreOwnerOnly) {
  TempDir dir;
  const std::string path = dir.File("box.db");
  ASSERT_OK(Store::Open(path));
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(Store, RefusesADatabaseFromANewerBuild) {
  TempDir dir;
  const std::string path = dir.File("box.db");
  ASSERT_OK(Store::Open(path));
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA user_version=999", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto store = Store::Open(path);
  ASSERT_THAT(store, StatusIs(StatusCode::kFailedPrecondition));
  EXPECT_NE(store.status().message().find("newer than this build"), std::string::npos);
}

TEST(Store, RefusesAFileThatIsNotADatabase) {
  TempDir dir;
  const std::string path = dir.File("box.db");
  {
    std::ofstream out(path);
    out << "this is not a database, it is a shopping list: rice, beans, coffee, sugar, milk, bread";
  }
  EXPECT_THAT(Store::Open(path), Not(IsOk()));
}

TEST(Store, OnlyOneOpenerIsTheOwner) {
  TempDir dir;
  const std::string path = dir.File("box.db");
  auto first = Store::Open(path);
  ASSERT_OK(first);
  EXPECT_TRUE((*first)->is_owner());
  auto second = Store::Open(path);
  ASSERT_OK(second);
  EXPECT_FALSE((*second)->is_owner());
  EXPECT_THAT((*second)->TryBecomeOwner(), StatusIs(StatusCode::kUnavailable));
  first->reset();
  EXPECT_OK((*second)->TryBecomeOwner());
  EXPECT_TRUE((*second)->is_owner());
}

TEST(Store, OwnershipPassesOnWhenTheOwnerIsKilled) {
  TempDir dir;
  const std::string path = dir.File("box.db");
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = balcao::test_util::ForkOfLoneThread();  // the child runs the test's code: one thread only
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto store = Store::Open(path);
    char ok = (store.ok() && (*store)->is_owner()) ? 'y' : 'n';
    (void)!::write(ready[1], &ok, 1);
    ::pause();
    ::_exit(0);
  }
  char ok = 0;
  ASSERT_EQ(::read(ready[0], &ok, 1), 1);
  EXPECT_EQ(ok, 'y');
  auto guest = Store::Open(path);
  ASSERT_OK(guest);
  EXPECT_FALSE((*guest)->is_owner());
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  EXPECT_OK((*guest)->TryBecomeOwner());
  ::close(ready[0]);
  ::close(ready[1]);
}

}  // namespace
}  // namespace balcao::offline
