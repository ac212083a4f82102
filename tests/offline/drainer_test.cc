// The drainer against an in-memory bank that injects faults: every intent takes effect
// exactly once, unknown outcomes are looked up (never blindly re-sent), 400s fail with
// the bank's codes, PATCHes already applied are recognised, rows of a sale go in order.
#include "offline/drainer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <thread>
#include <utility>

#include "offline/internal/drain_step.h"
#include "tests/offline/fake_bank.h"
#include "tests/offline/test_util.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::IsOk;
using ::testing::Not;

namespace balcao::offline {
namespace {

using testing::FakeBank;

OutboxRequest Create(const std::string& key, const std::string& sale_id) {
  OutboxRequest r;
  r.key = key;
  r.kind = "item.create";
  r.method = "POST";
  r.path = "/v2/item";
  r.body = R"({"items":[{"amount":100,"tags":[")" + key + R"("]}]})";
  r.lookup = LookupBy::kTags;
  r.sale_id = sale_id;
  r.amount = 100;
  return r;
}

OutboxRequest Cancel(const std::string& key, const std::string& id) {
  OutboxRequest r;
  r.key = key;
  r.kind = "item.cancel";
  r.method = "PATCH";
  r.path = "/v2/item/" + id;
  r.body = R"({"status":"canceled"})";
  r.lookup = LookupBy::kEntity;
  return r;
}

OutboxPolicy FastPolicy() {
  OutboxPolicy p;
  p.backoff_initial_ms = 1;
  p.backoff_max_ms = 4;
  p.max_attempts = 1000;
  p.max_lookups = 1000;
  p.unknown_settle_ms = 0;
  return p;
}

auto Forever() { return std::chrono::steady_clock::now() + std::chrono::seconds(60); }

class DrainerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = std::move(*Store::Open(dir_.File("box.db")));
    outbox_ = std::make_unique<Outbox>(*store_, FastPolicy());
  }
  testing::TempDir dir_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<Outbox> outbox_;
};

TEST_F(DrainerTest, EveryIntentExactlyOnceUnderRandomFaults) {
  FakeBank bank(0.45, 11);
  std::vector<std::string> keys;
  for (int sale = 0; sale < 30; ++sale)
    for (int i = 0; i < 4; ++i) {
      keys.push_back("s" + std::to_string(sale) + "-" + std::to_string(i));
      ASSERT_OK(outbox_->Enqueue(Create(keys.back(), "s" + std::to_string(sale))));
    }
  auto stats =
      DrainNow(*outbox_, bank, {.concurrency = 4, .poll_interval = std::chrono::milliseconds(5)}, true, Forever());
  ASSERT_OK(stats);
  for (const auto& k : keys) EXPECT_EQ(bank.Effects(k), 1) << k;
  auto metrics = *outbox_->Metrics();
  EXPECT_EQ(metrics.depth, 0);
  EXPECT_EQ(metrics.failed, 0);
  EXPECT_GT(stats->lookups, 0);
  EXPECT_GT(stats->unknown, 0);
  for (const auto& k : keys) {
    auto item = *outbox_->GetByKey(k);
    EXPECT_EQ(item.state, OutboxState::kDone);
    EXPECT_FALSE(item.bank_id.empty());
  }
}

TEST_F(DrainerTest, CommitThenDropIsFoundByLookupNotResent) {
  FakeBank bank;
  bank.Script({FakeBank::kCommitThenDrop});
  ASSERT_OK(outbox_->Enqueue(Create("k1", "")));
  auto stats = DrainNow(*outbox_, bank, {.poll_interval = std::chrono::milliseconds(2)}, true, Forever());
  ASSERT_OK(stats);
  EXPECT_EQ(bank.Effects("k1"), 1);
  EXPECT_EQ(stats->sent, 1);     // one send...
  EXPECT_EQ(stats->lookups, 1);  // ...one lookup, which found it
  EXPECT_EQ(outbox_->GetByKey("k1")->state, OutboxState::kDone);
}

TEST_F(DrainerTest, ResetBeforeProcessingIsLookedUpThenResentWithTheSameKey) {
  FakeBank bank;
  bank.Script({FakeBank::kResetBefore});
  ASSERT_OK(outbox_->Enqueue(Create("k1", "")));
  auto stats = DrainNow(*outbox_, bank, {.poll_interval = std::chrono::milliseconds(2)}, true, Forever());
  ASSERT_OK(stats);
  EXPECT_EQ(bank.Effects("k1"), 1);
  EXPECT_EQ(stats->absent, 1);
  EXPECT_EQ(stats->sent, 2);
  EXPECT_EQ(outbox_->GetByKey("k1")->attempts, 2);
}

TEST_F(DrainerTest, ARefusalFailsWithTheBankCodes) {
  FakeBank bank;
  bank.Reject("bad");
  ASSERT_OK(outbox_->Enqueue(Create("bad", "")));
  ASSERT_OK(DrainNow(*outbox_, bank, {}, true, Forever()));
  auto item = *outbox_->GetByKey("bad");
  EXPECT_EQ(item.state, OutboxState::kFailed);
  EXPECT_EQ(item.http_status, 400);
  EXPECT_EQ(item.bank_codes, "invalidAmount: refused\n");
}

// The log (common/log.h) tells the operator what happened to every row: key, kind and
// sale, the outcome, the bank's codes, and never a body.
TEST_F(DrainerTest, LeavesAnOperatorTrailWithoutBodies) {
  testing::ScopedLogFile log(dir_.File("balcao.log"));
  FakeBank bank;
  ASSERT_OK(outbox_->Enqueue(Create("ok-1", "sale-1")));
  ASSERT_OK(DrainNow(*outbox_, bank, {}, true, Forever()));
  bank.Script({FakeBank::kCommitThenDrop});
  ASSERT_OK(outbox_->Enqueue(Create("drop-1", "")));
  ASSERT_OK(DrainNow(*outbox_, bank, {.poll_interval = std::chrono::milliseconds(2)}, true, Forever()));
  bank.Reject("bad");
  ASSERT_OK(outbox_->Enqueue(Create("bad", "")));
  ASSERT_OK(DrainNow(*outbox_, bank, {}, true, Forever()));
  OutboxPolicy two_attempts = FastPolicy();
  two_attempts.max_attempts = 2;
  Outbox short_lived(*store_, two_attempts);
  bank.Script({FakeBank::kNotSent, FakeBank::kNotSent});
  ASSERT_OK(short_lived.Enqueue(Create("gone", "")));
  ASSERT_OK(DrainNow(short_lived, bank, {.poll_interval = std::chrono::milliseconds(2)}, true, Forever()));
  ASSERT_EQ(short_lived.GetByKey("gone")->state, OutboxState::kDead);

  const std::string trail = testing::ReadBytes(dir_.File("balcao.log"));
  for (const char* record : {
           "INFO drainer: sent key=ok-1 kind=item.create sale=sale-1 attempt=1",
           "INFO drainer: answered key=ok-1 kind=item.create sale=sale-1 bank_id=",
           "WARN drainer: outcome unknown: will look up before any resend key=drop-1 kind=item.create attempt=1 "
           "error=\"DEADLINE_EXCEEDED: response lost\"",
           "INFO drainer: looking up key=drop-1 kind=item.create",
           "INFO drainer: found at the bank key=drop-1 kind=item.create",
           "ERROR drainer: failed: refused by the bank key=bad kind=item.create sale=\"\" http=400 codes=invalidAmount",
           "WARN drainer: not sent: will retry key=gone kind=item.create attempt=1",
           "ERROR drainer: dead: in the operator's hands key=gone kind=item.create sale=\"\" attempts=2",
       })
    EXPECT_NE(trail.find(record), std::string::npos) << record << "\n" << trail;
  EXPECT_EQ(trail.find("\"items\""), std::string::npos) << "a body reached the log";
}

TEST_F(DrainerTest, APatchAlreadyAppliedIsRecognisedByReadingTheEntity) {
  FakeBank bank;
  const std::string id = bank.CreateDirect("pre");
  bank.Script({FakeBank::kCommitThenDrop});  // applied, answer lost; the resend gets a 400
  ASSERT_OK(outbox_->Enqueue(Cancel("cancel-1", id)));
  auto stats = DrainNow(*outbox_, bank, {.poll_interval = std::chrono::milliseconds(2)}, true, Forever());
  ASSERT_OK(stats);
  auto item = *outbox_->GetByKey("cancel-1");
  EXPECT_EQ(item.state, OutboxState::kDone) << item.last_error;
  EXPECT_EQ(bank.Effects("patch:" + id), 1);
  EXPECT_EQ(bank.Entity(id)["status"], "canceled");
}

// The checkout queues a PATCH again after a restart whose earlier process may have sent it
// directly (the outbox never saw that attempt): the bank's refusal plus an entity that
// already has the requested fields is "done", not a failure.
TEST_F(DrainerTest, ARefusedPatchWhoseEntityAlreadyHasItsFieldsIsDone) {
  FakeBank bank;
  const std::string id = bank.CreateDirect("pre");
  bank.Script({FakeBank::kCommitThenDrop});
  EXPECT_THAT(bank.Call("PATCH", "/v2/item/" + id, {}, R"({"status":"canceled"})"),
              Not(IsOk()));  // applied, answer lost
  ASSERT_OK(outbox_->Enqueue(Cancel("cancel-2", id)));
  ASSERT_OK(DrainNow(*outbox_, bank, {.poll_interval = std::chrono::milliseconds(2)}, true, Forever()));
  auto item = *outbox_->GetByKey("cancel-2");
  EXPECT_EQ(item.state, OutboxState::kDone) << item.last_error;
  EXPECT_EQ(bank.Effects("patch:" + id), 1);
  // A refusal for an entity that does not have the fields stays a failure.
  OutboxRequest other = Cancel("cancel-3", id);
  other.body = R"({"status":"canceled","note":"never applied"})";
  ASSERT_OK(outbox_->Enqueue(other));
  ASSERT_OK(DrainNow(*outbox_, bank, {.poll_interval = std::chrono::milliseconds(2)}, true, Forever()));
  item = *outbox_->GetByKey("cancel-3");
  EXPECT_EQ(item.state, OutboxState::kFailed);
  EXPECT_EQ(item.bank_codes.rfind("invalidOperation", 0), 0u) << item.bank_codes;
}

TEST_F(DrainerTest, AsioDrainerKeepsSaleOrderAndBoundsConcurrency) {
  FakeBank bank(0.3, 5);
  for (int i = 0; i < 5; ++i)
    for (int sale = 0; sale < 6; ++sale)
      ASSERT_TRUE(
          outbox_->Enqueue(Create("s" + std::to_string(sale) + "-" + std::to_string(i), "s" + std::to_string(sale)))
              .ok());
  boost::asio::io_context io;
  auto guard = boost::asio::make_work_guard(io);
  std::thread runner([&] { io.run(); });
  std::atomic<int> settled{0};
  {
    Drainer drainer(io, *store_, *outbox_, bank, {.concurrency = 3, .poll_interval = std::chrono::milliseconds(5)});
    drainer.OnSettled([&](const OutboxItem&) { ++settled; });  // on the io thread
    drainer.Start();
    for (int i = 0; i < 6000 && (outbox_->Metrics()->depth > 0 || settled < 30); ++i) {
      EXPECT_LE(drainer.in_flight(), 3);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    drainer.Stop();
  }
  guard.reset();
  io.stop();
  runner.join();
  EXPECT_EQ(outbox_->Metrics()->depth, 0);
  EXPECT_EQ(settled, 30);
  std::map<std::string, int> last;
  for (const std::string& tag : bank.EffectOrder()) {
    const std::string sale = tag.substr(0, tag.find('-'));
    const int n = std::stoi(tag.substr(tag.find('-') + 1));
    EXPECT_EQ(n, last.count(sale) ? last[sale] + 1 : 0) << tag;
    last[sale] = n;
  }
}

TEST_F(DrainerTest, NotSentWhileOfflineNothingIsTried) {
  FakeBank bank;
  ASSERT_OK(outbox_->Enqueue(Create("k1", "")));
  boost::asio::io_context io;
  Drainer drainer(io, *store_, *outbox_, bank, {.poll_interval = std::chrono::milliseconds(5)});
  drainer.SetOnline(false);
  drainer.Start();
  io.run_for(std::chrono::milliseconds(100));
  EXPECT_EQ(bank.calls(), 0);
  drainer.SetOnline(true);
  for (int i = 0; i < 200 && outbox_->Metrics()->depth > 0; ++i) io.run_for(std::chrono::milliseconds(10));
  EXPECT_EQ(bank.Effects("k1"), 1);
  drainer.Stop();
}

// OnLookupAnswered (the metric of unknown outcomes resolved): a lost answer whose write took
// effect is found, one whose write never arrived is absent; each lookup is reported once.
TEST_F(DrainerTest, ReportsEachAnsweredLookupFoundOrAbsent) {
  FakeBank bank;
  // k1: committed, answer lost; its lookup finds it. k2: reset before processing; its
  // lookup finds nothing and it is sent again.
  bank.Script({FakeBank::kCommitThenDrop, FakeBank::kNone, FakeBank::kResetBefore});
  ASSERT_OK(outbox_->Enqueue(Create("k1", "s1")));
  ASSERT_OK(outbox_->Enqueue(Create("k2", "s1")));
  boost::asio::io_context io;
  std::vector<std::pair<std::string, bool>> answered;  // io thread only
  Drainer drainer(io, *store_, *outbox_, bank, {.poll_interval = std::chrono::milliseconds(5)});
  drainer.OnLookupAnswered([&](const OutboxItem& item, bool found) { answered.emplace_back(item.request.key, found); });
  drainer.Start();
  for (int i = 0; i < 500 && outbox_->Metrics()->depth > 0; ++i) io.run_for(std::chrono::milliseconds(10));
  drainer.Stop();
  io.run_for(std::chrono::milliseconds(10));
  EXPECT_EQ(bank.Effects("k1"), 1);
  EXPECT_EQ(bank.Effects("k2"), 1);
  EXPECT_EQ(answered, (std::vector<std::pair<std::string, bool>>{{"k1", true}, {"k2", false}}));
}

TEST(DrainStep, ExtractsIdsFromEveryEnvelope) {
  EXPECT_EQ(internal::ExtractBankId(R"({"invoices":[{"id":"123"}]})"), "123");
  EXPECT_EQ(internal::ExtractBankId(R"({"session":{"id":"abc"}})"), "abc");
  EXPECT_EQ(internal::ExtractBankId(R"({"message":"ok","transfers":[{"id":77}]})"), "77");
  EXPECT_EQ(internal::ExtractBankId("not json"), "");
}

}  // namespace
}  // namespace balcao::offline
