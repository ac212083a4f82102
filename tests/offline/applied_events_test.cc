// The ids of taken bank events on a real SQLite file: recorded once (a second record keeps the
// first), found again after the store is reopened, pruned only once their event is older than
// the window (the same edge OlderThanWindow draws), pruned at most hourly by PruneIfDue.
#include "offline/applied_events.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "tests/offline/test_util.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::StatusIs;

namespace balcao::offline {
namespace {

class StepClock final : public Clock {
 public:
  UnixMicros Now() const override { return now_.load(); }
  void Advance(std::chrono::microseconds by) { now_ += by.count(); }

 private:
  std::atomic<UnixMicros> now_{1'780'000'000LL * kMicrosPerSecond + 123'456};
};

constexpr std::chrono::hours kWeek{7 * 24};

class AppliedEventsTest : public ::testing::Test {
 protected:
  void SetUp() override { Reopen(); }
  void Reopen() {
    events_.reset();
    store_.reset();
    auto store = Store::Open(dir_.File("box.db"));
    ASSERT_OK(store);
    store_ = std::move(*store);
    events_ = std::make_unique<AppliedEvents>(*store_, clock_, kWeek);
  }
  UnixMicros Ago(std::chrono::microseconds age) const { return clock_.Now() - age.count(); }
  bool Known(const std::string& id) {
    auto found = events_->Find(id);
    EXPECT_OK(found);
    return found.ok() && found->has_value();
  }

  testing::TempDir dir_;
  StepClock clock_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<AppliedEvents> events_;
};

TEST_F(AppliedEventsTest, ARecordSurvivesReopeningAndASecondRecordKeepsTheFirst) {
  const UnixMicros created = Ago(std::chrono::minutes(5));
  ASSERT_OK(events_->Record({"5107489032896512", "v20260529t101500-g1", "applied", created, 0}));
  const UnixMicros recorded_at = clock_.Now();
  clock_.Advance(std::chrono::minutes(30));
  // The same event again (a crash between applying and recording, then applied again).
  ASSERT_OK(events_->Record({"5107489032896512", "", "ignored", created + 1000, 0}));

  Reopen();
  auto found = events_->Find("5107489032896512");
  ASSERT_OK(found);
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->sale_id, "v20260529t101500-g1");
  EXPECT_EQ((*found)->outcome, "applied");
  EXPECT_EQ((*found)->created, created / 1000 * 1000);  // kept to the millisecond
  EXPECT_EQ((*found)->applied_at, recorded_at / 1000 * 1000);
  EXPECT_FALSE(Known("6234355449987072"));
}

TEST_F(AppliedEventsTest, RefusesWhatItCouldNotTellApart) {
  EXPECT_THAT(events_->Record({"", "", "applied", clock_.Now(), 0}), StatusIs(StatusCode::kInvalidArgument));
  const Status odd = events_->Record({"1", "", "not-yet", clock_.Now(), 0});
  EXPECT_THAT(odd, StatusIs(StatusCode::kInvalidArgument));
  EXPECT_NE(odd.message().find("outcome"), std::string::npos) << odd.message();
  EXPECT_FALSE(Known("1"));
}

TEST_F(AppliedEventsTest, PrunesOnlyEventsOlderThanTheWindow) {
  const std::chrono::microseconds week = kWeek;
  ASSERT_OK(events_->Record({"old", "", "ignored", Ago(week + std::chrono::hours(1)), 0}));
  // Recorded just now, but its event is older than the window (the catch-up took it late):
  // pruned too, since a delivery of it is refused by age anyway.
  ASSERT_OK(events_->Record({"late", "s", "applied", Ago(week + std::chrono::seconds(1)), 0}));
  ASSERT_OK(events_->Record({"edge", "s", "applied", Ago(week - std::chrono::milliseconds(1)), 0}));
  ASSERT_OK(events_->Record({"new", "s", "applied", Ago(std::chrono::hours(2)), 0}));
  // Created after the box's now (its clock behind the bank's): kept a whole window past that.
  ASSERT_OK(events_->Record({"ahead", "s", "applied", clock_.Now() + 3600 * kMicrosPerSecond, 0}));

  auto pruned = events_->Prune();
  ASSERT_OK(pruned);
  EXPECT_EQ(*pruned, 2);
  EXPECT_FALSE(Known("old"));
  EXPECT_FALSE(Known("late"));
  EXPECT_TRUE(Known("edge"));
  EXPECT_TRUE(Known("new"));
  EXPECT_TRUE(Known("ahead"));
  pruned = events_->Prune();
  ASSERT_OK(pruned);
  EXPECT_EQ(*pruned, 0) << "pruning again forgets nothing more";
}

TEST_F(AppliedEventsTest, AnIdIsForgottenOnlyOnceItsEventIsRefusedByAge) {
  // Events a few microseconds apart around the window's edge, and a clock that crosses it in
  // steps finer than the store's milliseconds: at every step, each id forgotten is one whose
  // delivery OlderThanWindow refuses.
  std::vector<std::pair<std::string, UnixMicros>> events;
  for (int i = 0; i < 12; ++i) {
    const UnixMicros created = Ago(kWeek) + 1 + i * 377;
    events.emplace_back("e" + std::to_string(i), created);
    ASSERT_OK(events_->Record({events.back().first, "", "applied", created, 0}));
  }
  for (int step = 0; step < 40; ++step) {
    clock_.Advance(std::chrono::microseconds(150));
    ASSERT_OK(events_->Prune());
    for (const auto& [id, created] : events) {
      if (!Known(id)) {
        EXPECT_TRUE(events_->OlderThanWindow(created)) << id << " forgotten too early, step " << step;
      }
    }
  }
  clock_.Advance(std::chrono::milliseconds(2));
  ASSERT_OK(events_->Prune());
  for (const auto& [id, created] : events) EXPECT_FALSE(Known(id)) << id << " kept after the window";
}

TEST_F(AppliedEventsTest, OlderThanWindowIsTheRetentionFromNow) {
  EXPECT_EQ(events_->retention(), std::chrono::seconds(kWeek));
  EXPECT_FALSE(events_->OlderThanWindow(Ago(kWeek)));
  EXPECT_TRUE(events_->OlderThanWindow(Ago(kWeek) - 1));
  EXPECT_FALSE(events_->OlderThanWindow(clock_.Now() + kMicrosPerSecond));
  AppliedEvents day(*store_, clock_, std::chrono::hours(24));
  EXPECT_TRUE(day.OlderThanWindow(Ago(std::chrono::hours(25))));
  EXPECT_FALSE(events_->OlderThanWindow(Ago(std::chrono::hours(25))));
}

TEST_F(AppliedEventsTest, PruneIfDueRunsAtTheFirstCallThenAtMostHourly) {
  ASSERT_OK(events_->Record({"a", "", "ignored", Ago(kWeek + std::chrono::hours(1)), 0}));
  auto first = events_->PruneIfDue();
  ASSERT_OK(first);
  EXPECT_EQ(*first, 1);  // at start

  ASSERT_OK(events_->Record({"b", "", "ignored", Ago(kWeek + std::chrono::hours(1)), 0}));
  clock_.Advance(std::chrono::minutes(59));
  auto early = events_->PruneIfDue();
  ASSERT_OK(early);
  EXPECT_EQ(*early, 0);
  EXPECT_TRUE(Known("b"));

  clock_.Advance(std::chrono::minutes(1));
  auto due = events_->PruneIfDue();
  ASSERT_OK(due);
  EXPECT_EQ(*due, 1);
  EXPECT_FALSE(Known("b"));
}

}  // namespace
}  // namespace balcao::offline
