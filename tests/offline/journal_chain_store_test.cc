// The journal chain on a real store file: a day of sales verifies; one byte changed with the
// real `sqlite3` tool, a row deleted, rows cut from the end, or the whole chain recomputed
// behind a settlement's back are named by the real `balcao journal verify`, which reads
// beside an owner and changes nothing; a store of the previous schema gets its chain when
// opened, in one transaction with the schema change.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "offline/internal/db.h"
#include "offline/internal/migrations.h"
#include "offline/journal.h"
#include "offline/journal_chain.h"
#include "offline/outbox.h"
#include "offline/settlement_records.h"
#include "tests/offline/test_util.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::IsOk;
using ::balcao::test_util::StatusIs;
using ::testing::Not;

namespace balcao::offline {
namespace {

struct ShellRun {
  int code = -1;
  std::string out;
};

ShellRun Shell(const std::string& cmd) {
  ShellRun run;
  FILE* pipe = ::popen((cmd + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) run.out.append(buf.data(), n);
  const int status = ::pclose(pipe);
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

ShellRun Verify(const std::string& db, const std::string& extra = "") {
  return Shell(std::string(BALCAO_CLI) + " journal verify --db '" + db + "' " + extra);
}

// The real sqlite3 command-line tool: what someone with a shell on the box would use.
ShellRun Sqlite(const std::string& db, const std::string& sql) { return Shell("sqlite3 '" + db + "' \"" + sql + "\""); }

std::string Query(const std::string& db, const std::string& sql) {
  ShellRun run = Sqlite(db, sql);
  EXPECT_EQ(run.code, 0) << run.out;
  while (!run.out.empty() && run.out.back() == '\n') run.out.pop_back();
  return run.out;
}

OutboxRequest InvoiceFor(const std::string& sale, std::int64_t amount) {
  return {"sale/" + sale + "/a1",
          "invoice.create",
          "POST",
          "/v2/invoice",
          R"({"invoices":[{"amount":)" + std::to_string(amount) + "}]}",
          LookupBy::kTags,
          "/v2/invoice",
          "sale/" + sale + "/a1",
          sale,
          amount};
}

// A day at the counter: Pix and card sales of several events, interleaved, one closed with
// an outbox row and its journal event in one transaction, one refunded later.
void RingUpADay(Store& store) {
  Journal journal(store);
  Outbox outbox(store);
  for (int s = 1; s <= 6; ++s) {
    const std::string sale = "sale-" + std::to_string(s);
    ASSERT_OK(journal.Append(sale, 1, "cashier.start", R"({"amount":)" + std::to_string(1000 * s) + "}"));
    ASSERT_OK(journal.Append(sale, 2, "cashier.method", s % 2 ? R"({"method":"pix"})" : R"({"method":"card"})"));
  }
  for (int s = 1; s <= 6; ++s) {
    const std::string sale = "sale-" + std::to_string(s);
    if (s == 4) {
      ASSERT_OK(outbox.EnqueueWithJournal(InvoiceFor(sale, 4000), 3, "queued", R"({"key":"a1"})"));
      continue;
    }
    ASSERT_OK(journal.Append(sale, 3, "api.result", R"({"status":"paid","id":"5656565656565656"})"));
    ASSERT_OK(journal.MarkClosed(sale, "Paid"));
  }
  ASSERT_OK(journal.Append("sale-2", 4, "cashier.reverse", R"({"amount":2000,"operator":"op-7"})"));
  ASSERT_OK(journal.Append("sale-2", 3, "api.result", R"({"status":"paid","id":"5656565656565656"})"));
}

class JournalChainStore : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open(db_);
    ASSERT_OK(store);
    RingUpADay(**store);
  }
  testing::TempDir dir_;
  const std::string db_ = dir_.File("box.db");
};

TEST_F(JournalChainStore, ADayOfSalesVerifies) {
  auto store = Store::Open(db_);
  ASSERT_OK(store);
  auto verdict = Journal(**store).VerifyChain();
  ASSERT_OK(verdict);
  EXPECT_TRUE(verdict->ok()) << verdict->broken->detail;
  EXPECT_EQ(verdict->rows, 19);
  EXPECT_EQ(Query(db_, "SELECT count(*) FROM sale_journal"), "19");
  EXPECT_EQ(Query(db_, "SELECT min(chain_seq) || '-' || max(chain_seq) FROM sale_journal"), "1-19");
  EXPECT_EQ(HexOf(verdict->head), Query(db_, "SELECT lower(hex(chain_hash)) FROM sale_journal WHERE chain_seq=19"));

  const ShellRun text = Verify(db_);
  EXPECT_EQ(text.code, 0) << text.out;
  EXPECT_NE(text.out.find("journal chain holds: 19 row(s) checked, head " + HexOf(verdict->head)), std::string::npos)
      << text.out;
  const ShellRun json = Verify(db_, "--json");
  ASSERT_EQ(json.code, 0) << json.out;
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["verified"], true);
  EXPECT_EQ(doc["rows"], 19);
  EXPECT_EQ(doc["head"], HexOf(verdict->head));
  EXPECT_FALSE(doc.contains("broken"));
}

TEST_F(JournalChainStore, OneByteChangedWithSqlite3IsNamedByTheCli) {
  const std::string row = Query(db_, "SELECT chain_seq FROM sale_journal WHERE sale_id='sale-3' AND seq=1");
  EXPECT_EQ(Query(db_, "SELECT payload FROM sale_journal WHERE sale_id='sale-3' AND seq=1"), R"({"amount":3000})");
  // 3000 becomes 8000: one byte of one payload.
  ASSERT_EQ(Sqlite(db_,
                   "UPDATE sale_journal SET payload=replace(payload, '3000', '8000') "
                   "WHERE sale_id='sale-3' AND seq=1")
                .code,
            0);
  const ShellRun text = Verify(db_);
  EXPECT_EQ(text.code, 1) << text.out;
  EXPECT_NE(text.out.find("journal chain BROKEN at row " + row + " (sale sale-3 seq 1): content changed"),
            std::string::npos)
      << text.out;
  const ShellRun json = Verify(db_, "--json");
  EXPECT_EQ(json.code, 1) << json.out;
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["verified"], false);
  EXPECT_EQ(doc["broken"]["row"], std::stoll(row));
  EXPECT_EQ(doc["broken"]["sale_id"], "sale-3");
  EXPECT_EQ(doc["broken"]["seq"], 1);
  EXPECT_EQ(doc["broken"]["kind"], "content changed");

  // Putting the byte back restores the chain: the check reads what is there, nothing else.
  ASSERT_EQ(Sqlite(db_,
                   "UPDATE sale_journal SET payload=replace(payload, '8000', '3000') "
                   "WHERE sale_id='sale-3' AND seq=1")
                .code,
            0);
  EXPECT_EQ(Verify(db_).code, 0);
}

TEST_F(JournalChainStore, ADeletedRowIsMissingAndRowsCutFromTheEndToo) {
  const std::string row = Query(db_, "SELECT chain_seq FROM sale_journal WHERE sale_id='sale-5' AND seq=2");
  ASSERT_EQ(Sqlite(db_, "DELETE FROM sale_journal WHERE sale_id='sale-5' AND seq=2").code, 0);
  ShellRun run = Verify(db_, "--json");
  EXPECT_EQ(run.code, 1) << run.out;
  auto doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["broken"]["kind"], "row missing");
  EXPECT_EQ(doc["broken"]["row"], std::stoll(row));
  run = Verify(db_);
  EXPECT_NE(run.out.find("BROKEN at row " + row + ": row missing"), std::string::npos) << run.out;

  // The last rows of the journal: no later link notices, the sale index does.
  testing::TempDir other;
  const std::string db = other.File("box.db");
  {
    auto store = Store::Open(db);
    ASSERT_OK(store);
    RingUpADay(**store);
  }
  ASSERT_EQ(Sqlite(db, "DELETE FROM sale_journal WHERE chain_seq >= 18").code, 0);
  run = Verify(db, "--json");
  EXPECT_EQ(run.code, 1) << run.out;
  doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["broken"]["kind"], "row missing");
  EXPECT_EQ(doc["broken"]["sale_id"], "sale-2");
  EXPECT_EQ(doc["broken"]["seq"], 4);
}

TEST_F(JournalChainStore, SettlementHeadsCatchAChainRecomputedBehindTheirBack) {
  {
    auto store = Store::Open(db_);
    ASSERT_OK(store);
    ASSERT_OK(InsertSettlement(**store, {"2026-05-01", 1, "reconciled", 0, 6, 21000, 0, "{}", "report"}, {}));
    EXPECT_EQ(Query(db_, "SELECT journal_rows FROM settlements"), "19");
    Journal journal(**store);
    ASSERT_OK(journal.Append("sale-7", 1, "cashier.start", R"({"amount":700})"));
    auto verdict = journal.VerifyChain();
    ASSERT_OK(verdict);
    EXPECT_TRUE(verdict->ok());
    EXPECT_EQ(verdict->anchors_checked, 1);
  }
  EXPECT_NE(Verify(db_).out.find("settlement heads found in place: 1"), std::string::npos);

  // Someone who knows the scheme changes sale-1's amount and recomputes every hash after it.
  {
    auto store = Store::Open(db_);
    ASSERT_OK(store);
    internal::Txn txn((*store)->impl(), internal::Txn::kWrite);
    ASSERT_TRUE(internal::Exec(txn.db(),
                               "UPDATE sale_journal SET payload='{\"amount\":10}' "
                               "WHERE sale_id='sale-1' AND seq=1")
                    .ok());
    std::string prev = ChainGenesis();
    for (std::int64_t position = 1; position <= 20; ++position) {
      internal::Stmt read(txn, "SELECT sale_id, seq, kind, payload, created_at FROM sale_journal WHERE chain_seq=?1");
      ASSERT_TRUE(*read.Bind(1, position).Step());
      ChainRow row{position, read.Text(0), read.Int(1), read.Text(2), read.Text(3), read.Int(4), prev, ""};
      row.hash = ChainLink(prev, row);
      internal::Stmt write(txn, "UPDATE sale_journal SET chain_prev=?2, chain_hash=?3 WHERE chain_seq=?1");
      ASSERT_OK(write.Bind(1, position).BindBlob(2, row.prev).BindBlob(3, row.hash).Run());
      prev = row.hash;
    }
    ASSERT_OK(txn.Commit());
  }
  const ShellRun run = Verify(db_, "--json");
  EXPECT_EQ(run.code, 1) << run.out;
  const auto doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["broken"]["kind"], "rewritten since a settlement");
  EXPECT_EQ(doc["broken"]["row"], 19);
  EXPECT_NE(doc["broken"]["detail"].get<std::string>().find("2026-05-01"), std::string::npos) << run.out;
}

TEST_F(JournalChainStore, VerifyReadsBesideTheOwnerAndChangesNothing) {
  ASSERT_EQ(Sqlite(db_,
                   "INSERT INTO outbox (key, kind, method, path, lookup, lookup_path, lookup_value, state, "
                   "next_attempt_at, created_at, updated_at) VALUES ('k', 'invoice.create', 'POST', "
                   "'/v2/invoice', 'tags', '/v2/invoice', 'k', 'inflight', 0, 0, 0)")
                .code,
            0);
  // No owner: a writer's open would take the lock and recover the row in flight; verify does not.
  EXPECT_EQ(Verify(db_).code, 0);
  EXPECT_EQ(Query(db_, "SELECT state FROM outbox WHERE key='k'"), "inflight");

  // Beside the owner (what `balcao serve` holds), while it writes.
  auto owner = Store::Open(db_);
  ASSERT_OK(owner);
  ASSERT_TRUE((*owner)->is_owner());
  ASSERT_OK(Journal(**owner).Append("sale-8", 1, "cashier.start", R"({"amount":800})"));
  const ShellRun run = Verify(db_);
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("20 row(s) checked"), std::string::npos) << run.out;
  ASSERT_OK(Journal(**owner).Append("sale-8", 2, "cashier.method", R"({"method":"pix"})"));

  auto reader = Store::OpenReadOnly(db_);
  ASSERT_OK(reader);
  EXPECT_FALSE((*reader)->is_owner());
  EXPECT_THAT((*reader)->TryBecomeOwner(), StatusIs(StatusCode::kFailedPrecondition));
  EXPECT_THAT(Journal(**reader).Append("sale-9", 1, "cashier.start", "{}"), Not(IsOk()));
  EXPECT_EQ(Journal(**reader).VerifyChain()->rows, 21);
}

TEST(JournalChainCli, ErrorsExitTwo) {
  testing::TempDir dir;
  EXPECT_EQ(Verify(dir.File("missing.db")).code, 2);
  EXPECT_EQ(Shell(std::string(BALCAO_CLI) + " journal verify").code, 2) << "no store named";
  EXPECT_EQ(Shell(std::string(BALCAO_CLI) + " journal frobnicate --db x").code, 2);
  EXPECT_EQ(Shell(std::string(BALCAO_CLI) + " journal verify --db x --bogus").code, 2);
  const ShellRun env = Shell("BALCAO_DB='" + dir.File("missing.db") + "' " + BALCAO_CLI + " journal verify");
  EXPECT_EQ(env.code, 2);
  EXPECT_NE(env.out.find("missing.db does not exist"), std::string::npos) << env.out;
}

// A store as the build before the chain left it: the migrations before journal_chain.
class PreviousSchema : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto& migrations = internal::Migrations();
    while (before_ < migrations.size() &&
           std::string(migrations[before_].name).find("_journal_chain") == std::string::npos)
      ++before_;
    ASSERT_LT(before_, migrations.size()) << "no journal_chain migration";
    ASSERT_EQ(sqlite3_open(db_.c_str(), &raw_), SQLITE_OK);
    Exec("PRAGMA journal_mode=WAL");
    for (std::size_t i = 0; i < before_; ++i) Exec(migrations[i].sql);
    Exec("PRAGMA user_version=" + std::to_string(before_));
    // Appended in this order; created_at says otherwise for sale b's first event (a clock step).
    Exec("INSERT INTO sales VALUES ('a', 1000, 2, NULL, ''), ('b', 900, 2, 2000, 'Paid')");
    Exec(
        "INSERT INTO sale_journal VALUES ('a', 1, 'cashier.start', '{\"amount\":100}', 1000), "
        "('a', 2, 'cashier.method', '{\"method\":\"pix\"}', 1500), "
        "('b', 1, 'cashier.start', '{\"amount\":200}', 900), "
        "('b', 2, 'api.result', '{\"status\":\"paid\"}', 1500)");
  }
  void TearDown() override {
    if (raw_ != nullptr) sqlite3_close(raw_);
  }
  void Exec(const std::string& sql) {
    char* error = nullptr;
    ASSERT_EQ(sqlite3_exec(raw_, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "") << sql;
  }
  void Close() {
    sqlite3_close(raw_);
    raw_ = nullptr;
  }
  testing::TempDir dir_;
  const std::string db_ = dir_.File("old.db");
  std::size_t before_ = 0;
  sqlite3* raw_ = nullptr;
};

TEST_F(PreviousSchema, GetsItsChainWhenOpenedAndVerifies) {
  Close();
  EXPECT_THAT(Store::OpenReadOnly(db_), StatusIs(StatusCode::kFailedPrecondition)) << "a reader never migrates";
  EXPECT_EQ(Verify(db_).code, 2);
  std::string hashes;
  {
    auto store = Store::Open(db_);
    ASSERT_OK(store);
    EXPECT_EQ((*store)->schema_version(), static_cast<int>(internal::Migrations().size()));
    auto verdict = Journal(**store).VerifyChain();
    ASSERT_OK(verdict);
    EXPECT_TRUE(verdict->ok()) << verdict->broken->detail;
    EXPECT_EQ(verdict->rows, 4);
    // Oldest first by (created_at, sale_id, seq).
    EXPECT_EQ(
        Query(db_, "SELECT group_concat(sale_id || seq, ',') FROM (SELECT * FROM sale_journal ORDER BY chain_seq)"),
        "b1,a1,a2,b2");
    hashes =
        Query(db_, "SELECT group_concat(hex(chain_hash), ',') FROM (SELECT * FROM sale_journal ORDER BY chain_seq)");
    // New events chain on from the migrated rows.
    ASSERT_OK(Journal(**store).Append("a", 3, "api.result", R"({"status":"paid"})"));
  }
  ASSERT_OK(Store::Open(db_));  // reopening chains nothing again
  EXPECT_EQ(Query(db_,
                  "SELECT group_concat(hex(chain_hash), ',') FROM (SELECT * FROM sale_journal "
                  "WHERE chain_seq <= 4 ORDER BY chain_seq)"),
            hashes);
  const ShellRun run = Verify(db_);
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("5 row(s) checked"), std::string::npos) << run.out;
  // A row written around the chain (an older build's insert) is refused by the store itself.
  const ShellRun around = Sqlite(db_,
                                 "INSERT INTO sales VALUES ('c', 3000, 1, NULL, ''); "
                                 "INSERT INTO sale_journal (sale_id, seq, kind, payload, created_at) "
                                 "VALUES ('c', 1, 'cashier.start', '{}', 3000)");
  EXPECT_NE(around.code, 0);
  EXPECT_NE(around.out.find("needs its chain value"), std::string::npos) << around.out;
}

TEST_F(PreviousSchema, AFailedChainingLeavesTheSchemaAsItWas) {
  // Rows that cannot be updated: the migration's C++ part fails half way.
  Exec(
      "CREATE TRIGGER no_updates BEFORE UPDATE ON sale_journal WHEN NEW.seq = 2 AND NEW.sale_id = 'a' "
      "BEGIN SELECT RAISE(ABORT, 'frozen'); END");
  Close();
  auto failed = Store::Open(db_);
  ASSERT_THAT(failed, Not(IsOk()));
  EXPECT_NE(failed.status().message().find("journal_chain"), std::string::npos) << failed.status().ToString();
  EXPECT_EQ(Query(db_, "PRAGMA user_version"), std::to_string(before_));
  EXPECT_EQ(Query(db_, "SELECT count(*) FROM pragma_table_info('sale_journal') WHERE name LIKE 'chain_%'"), "0");

  ASSERT_EQ(Sqlite(db_, "DROP TRIGGER no_updates").code, 0);
  auto store = Store::Open(db_);
  ASSERT_OK(store);
  EXPECT_TRUE(Journal(**store).VerifyChain()->ok());
}

}  // namespace
}  // namespace balcao::offline
