// The print-job queue: durable jobs, claim order, failure stays visible, reprint,
// a job interrupted mid-print queued again when the store is reopened, whether a job opens the
// cash drawer (recorded, or inferred for jobs queued before it was), and the stats by state.
#include "offline/print_jobs.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/offline/test_util.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::StatusIs;

namespace balcao::offline {
namespace {

using testing::TempDir;

TEST(PrintJobs, ClaimsInOrderAndMarksPrinted) {
  auto store = Store::Open(":memory:");
  ASSERT_OK(store);
  PrintJobs jobs(**store);
  auto a = jobs.Enqueue("sale-1", "card", "tcp://127.0.0.1:9100", std::string("\x1b@hello\n\x1dV\x00", 10), false);
  auto b = jobs.Enqueue("", "test", "file:/tmp/x", "page", false);
  ASSERT_OK(a);
  ASSERT_OK(b);
  auto first = jobs.ClaimNext();
  ASSERT_OK(first);
  ASSERT_TRUE(first->has_value());
  EXPECT_EQ((*first)->id, *a);
  EXPECT_EQ((*first)->payload, std::string("\x1b@hello\n\x1dV\x00", 10));  // bytes, NUL included
  EXPECT_EQ((*first)->state, PrintJobState::kPrinting);
  ASSERT_OK(jobs.MarkPrinted(*a));
  EXPECT_EQ(jobs.Get(*a)->state, PrintJobState::kPrinted);
  auto for_target = jobs.ClaimNext("tcp://127.0.0.1:9100");
  ASSERT_OK(for_target);
  EXPECT_FALSE(for_target->has_value());
  auto second = jobs.ClaimNext();
  ASSERT_OK(second);
  ASSERT_TRUE(second->has_value());
  EXPECT_EQ((*second)->id, *b);
  auto none = jobs.ClaimNext();
  ASSERT_OK(none);
  EXPECT_FALSE(none->has_value());
}

TEST(PrintJobs, FailureStaysVisibleAndCanBeReprinted) {
  auto store = Store::Open(":memory:");
  ASSERT_OK(store);
  PrintJobs jobs(**store);
  auto id = jobs.Enqueue("sale-2", "pix", "tcp://10.0.0.9:9100", "receipt", false);
  ASSERT_OK(id);
  ASSERT_OK(jobs.ClaimNext());
  EXPECT_THAT(jobs.MarkFailed(*id, ""), StatusIs(StatusCode::kInvalidArgument));
  ASSERT_OK(jobs.MarkFailed(*id, "paper out"));
  auto failed = jobs.List(PrintJobState::kFailed);
  ASSERT_OK(failed);
  ASSERT_EQ(failed->size(), 1u);
  EXPECT_EQ((*failed)[0].last_error, "paper out");
  EXPECT_EQ((*failed)[0].attempts, 1);
  EXPECT_EQ((*failed)[0].sale_id, "sale-2");
  EXPECT_THAT(jobs.MarkPrinted(*id), StatusIs(StatusCode::kFailedPrecondition));
  ASSERT_OK(jobs.Requeue(*id));
  EXPECT_EQ(jobs.Get(*id)->state, PrintJobState::kQueued);
  EXPECT_THAT(jobs.Requeue(*id), StatusIs(StatusCode::kFailedPrecondition));
  EXPECT_THAT(jobs.Requeue(12345), StatusIs(StatusCode::kNotFound));
  EXPECT_THAT(jobs.Get(12345), StatusIs(StatusCode::kNotFound));
}

TEST(PrintJobs, RejectsEmptyJobs) {
  auto store = Store::Open(":memory:");
  ASSERT_OK(store);
  PrintJobs jobs(**store);
  EXPECT_THAT(jobs.Enqueue("s", "", "t", "x", false), StatusIs(StatusCode::kInvalidArgument));
  EXPECT_THAT(jobs.Enqueue("s", "card", "t", "", false), StatusIs(StatusCode::kInvalidArgument));
  EXPECT_THAT(jobs.List(std::nullopt, 0), StatusIs(StatusCode::kInvalidArgument));
}

TEST(PrintJobs, AJobInterruptedMidPrintIsQueuedAgainOnReopen) {
  TempDir dir;
  const std::string path = dir.File("box.db");
  std::int64_t id = 0;
  {
    auto store = Store::Open(path);
    ASSERT_OK(store);
    PrintJobs jobs(**store);
    id = *jobs.Enqueue("sale-3", "card", "", "receipt", false);
    ASSERT_OK(jobs.ClaimNext());
    EXPECT_EQ(jobs.Get(id)->state, PrintJobState::kPrinting);
  }
  auto store = Store::Open(path);
  ASSERT_OK(store);
  PrintJobs jobs(**store);
  EXPECT_EQ(jobs.Get(id)->state, PrintJobState::kQueued);
}

// Whether a job opens the drawer is recorded when it is queued; a job a box queued before the
// record existed (schema 7: the later migrations undone) is taken as opening it when its bytes hold a kick command.
TEST(PrintJobs, RecordsWhetherAJobOpensTheDrawerAndInfersItForOlderJobs) {
  TempDir dir;
  const std::string path = dir.File("box.db");
  const std::string kick("\x1b@\x1bp\x00\x19\xfa", 7);
  std::int64_t kicks = 0, plain = 0;
  {
    auto store = Store::Open(path);
    ASSERT_OK(store);
    PrintJobs jobs(**store);
    kicks = *jobs.Enqueue("sale-1", "pix-paid", "", kick, true);
    plain = *jobs.Enqueue("sale-2", "pix", "", "receipt", false);
    EXPECT_TRUE(jobs.Get(kicks)->opens_drawer);
    EXPECT_FALSE(jobs.Get(plain)->opens_drawer);
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  const int rc =
      sqlite3_exec(db,
                   "ALTER TABLE print_jobs DROP COLUMN opens_drawer; ALTER TABLE operators DROP COLUMN language; "
                   "PRAGMA user_version=7;",
                   nullptr, nullptr, &error);
  const std::string why = error ? error : "";
  sqlite3_free(error);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << why;
  auto store = Store::Open(path);
  ASSERT_OK(store);
  PrintJobs jobs(**store);
  EXPECT_TRUE(jobs.Get(kicks)->opens_drawer);
  EXPECT_FALSE(jobs.Get(plain)->opens_drawer);
}

// Stats: what /readyz and /metrics read about the printer, from the index by state.
TEST(PrintJobs, StatsCountByStateAndTellWhetherTheNewestFinishedJobFailed) {
  auto store = Store::Open(":memory:");
  ASSERT_OK(store);
  PrintJobs jobs(**store);
  auto empty = jobs.Stats();
  ASSERT_OK(empty);
  EXPECT_EQ(empty->queued + empty->printing + empty->printed + empty->failed, 0);
  EXPECT_EQ(empty->oldest_waiting_created_at_ms, 0);
  EXPECT_FALSE(empty->last_failed);

  auto a = jobs.Enqueue("sale-1", "card", "file:/tmp/p", "one", false);
  auto b = jobs.Enqueue("sale-2", "pix", "file:/tmp/p", "two", false);
  auto c = jobs.Enqueue("sale-3", "pix", "file:/tmp/p", "three", false);
  ASSERT_OK(a);
  ASSERT_OK(b);
  ASSERT_OK(c);
  ASSERT_OK(jobs.ClaimNext());
  ASSERT_OK(jobs.MarkPrinted(*a));
  ASSERT_OK(jobs.ClaimNext());
  ASSERT_OK(jobs.MarkFailed(*b, "paper out"));
  auto stats = jobs.Stats();
  ASSERT_OK(stats);
  EXPECT_EQ(stats->queued, 1);
  EXPECT_EQ(stats->printing, 0);
  EXPECT_EQ(stats->printed, 1);
  EXPECT_EQ(stats->failed, 1);
  EXPECT_EQ(stats->oldest_waiting_created_at_ms, jobs.Get(*c)->created_at_ms);
  EXPECT_TRUE(stats->last_failed);
  EXPECT_EQ(stats->last_error, "paper out");

  // The printer is back: the failed job reprinted, then the queued one.
  ASSERT_OK(jobs.Requeue(*b));
  for (int i = 0; i < 2; ++i) {
    auto next = jobs.ClaimNext();
    ASSERT_OK(next);
    ASSERT_TRUE(next->has_value());
    ASSERT_OK(jobs.MarkPrinted((*next)->id));
  }
  stats = jobs.Stats();
  ASSERT_OK(stats);
  EXPECT_EQ(stats->printed, 3);
  EXPECT_EQ(stats->queued + stats->failed, 0);
  EXPECT_EQ(stats->oldest_waiting_created_at_ms, 0);
  EXPECT_FALSE(stats->last_failed);
}

}  // namespace
}  // namespace balcao::offline
