// The shared SQLite wrapper (common/sqlite.h) on real database files: errors come back as
// Status values naming what failed, a transaction left without Commit() rolls back, and a
// connection whose statement cache is full still runs new statements.
#include "common/sqlite.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/testing/temp_dir.h"

namespace balcao::sqlite {
namespace {

class SqliteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.File("sqlite_test.db");
    connection_.path = path_;
    ASSERT_EQ(sqlite3_open_v2(path_.c_str(), &connection_.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr),
              SQLITE_OK);
    ASSERT_TRUE(Exec(connection_.db, "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)").ok());
  }
  std::int64_t Rows() {
    Stmt count(connection_, "SELECT count(*) FROM t");
    EXPECT_TRUE(count.Step().ok());
    return count.Int(0);
  }

  const test_util::TempDir dir_{"sqlite"};  // declared first: removed after the connection closed
  std::string path_;
  Connection connection_;
};

TEST_F(SqliteTest, CommittedRowsStayAndAnUncommittedTransactionRollsBack) {
  {
    Txn txn(connection_, Txn::kWrite);
    ASSERT_TRUE(txn.status().ok());
    Stmt insert(txn, "INSERT INTO t(name) VALUES(?1)");
    ASSERT_TRUE(insert.Bind(1, "kept").Run().ok());
    EXPECT_EQ(insert.LastInsertId(), 1);
    ASSERT_TRUE(txn.Commit().ok());
  }
  {
    Txn txn(connection_, Txn::kWrite);
    Stmt insert(txn, "INSERT INTO t(name) VALUES(?1)");
    ASSERT_TRUE(insert.Bind(1, "dropped").Run().ok());
  }
  EXPECT_EQ(Rows(), 1);
}

TEST_F(SqliteTest, AConstraintIsAFailedPreconditionNamingTheStep) {
  {
    Stmt first(connection_, "INSERT INTO t(name) VALUES(?1)");
    ASSERT_TRUE(first.Bind(1, "same").Run().ok());
  }  // a cached statement serves one Stmt at a time: the same SQL text is the same handle
  Stmt again(connection_, "INSERT INTO t(name) VALUES(?1)");
  const Status st = again.Bind(1, "same").Run();
  EXPECT_EQ(st.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(st.message().find("step: UNIQUE constraint failed"), std::string::npos) << st.message();
}

TEST_F(SqliteTest, BadSqlIsReportedByStepNotThrown) {
  Stmt bad(connection_, "SELECT name FROM nowhere");
  const StatusOr<bool> row = bad.Step();
  ASSERT_FALSE(row.ok());
  EXPECT_NE(row.status().message().find("prepare: no such table: nowhere"), std::string::npos)
      << row.status().message();
}

TEST_F(SqliteTest, PastTheCacheLimitStatementsStillRun) {
  for (std::size_t i = 0; i < Connection::kMaxCachedStatements + 10; ++i) {
    Stmt insert(connection_, "INSERT INTO t(name) VALUES('row " + std::to_string(i) + "')");
    ASSERT_TRUE(insert.Run().ok()) << i;
  }
  EXPECT_EQ(connection_.statements.size(), Connection::kMaxCachedStatements);
  EXPECT_EQ(Rows(), static_cast<std::int64_t>(Connection::kMaxCachedStatements + 10));
}

TEST_F(SqliteTest, ReadAllReturnsEveryRowOrTheFirstRowItRefuses) {
  {
    Txn txn(connection_, Txn::kWrite);
    ASSERT_TRUE(txn.status().ok());
    for (const char* name : {"ana", "bruno", "carla"})
      ASSERT_TRUE(Stmt(txn, "INSERT INTO t(name) VALUES(?1)").Bind(1, name).Run().ok());
    ASSERT_TRUE(txn.Commit().ok());
  }
  Txn txn(connection_, Txn::kRead);
  ASSERT_TRUE(txn.status().ok());
  Stmt all(txn, "SELECT name FROM t ORDER BY id");
  auto names = ReadAll(all, [](const Stmt& row) { return row.Text(0); });
  ASSERT_TRUE(names.ok()) << names.status().ToString();
  EXPECT_EQ(*names, (std::vector<std::string>{"ana", "bruno", "carla"}));

  Stmt again(txn, "SELECT name FROM t WHERE id > ?1 ORDER BY id");
  again.Bind(1, 1);
  auto refused = ReadAll(again, [](const Stmt& row) -> StatusOr<std::string> {
    if (row.Text(0) == "carla") return InvalidArgumentError("name: carla is refused");
    return row.Text(0);
  });
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(), "name: carla is refused");
}

}  // namespace
}  // namespace balcao::sqlite
