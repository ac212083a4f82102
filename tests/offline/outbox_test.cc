// The outbox state machine on a real SQLite file: validation, one key per intent,
// claim order per sale, backoff, unknown outcomes looked up before any resend, 400s,
// exhaustion, age limit, operator retry and drop.
#include "offline/outbox.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "offline/internal/db.h"
#include "tests/offline/test_util.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::IsOk;
using ::balcao::test_util::StatusIs;
using ::testing::Not;

namespace balcao::offline {
namespace {

constexpr std::int64_t kMinute = 60'000;

OutboxRequest InvoiceCreate(const std::string& key, const std::string& sale_id = "", std::int64_t amount = 1000) {
  OutboxRequest r;
  r.key = key;
  r.kind = "invoice.create";
  r.method = "POST";
  r.path = "/v2/invoice";
  r.body = R"({"invoices":[{"amount":)" + std::to_string(amount) + R"(,"tags":[")" + key + R"("]}]})";
  r.lookup = LookupBy::kTags;
  r.sale_id = sale_id;
  r.amount = amount;
  return r;
}

OutboxRequest InvoiceCancel(const std::string& key, const std::string& sale_id) {
  OutboxRequest r;
  r.key = key;
  r.kind = "invoice.cancel";
  r.method = "PATCH";
  r.path = "/v2/invoice/123";
  r.body = R"({"status":"canceled"})";
  r.lookup = LookupBy::kEntity;
  r.sale_id = sale_id;
  return r;
}

class OutboxTest : public ::testing::Test {
 protected:
  void SetUp() override { Open(); }
  void Open() {
    outbox_.reset();
    store_.reset();
    auto opened = Store::Open(dir_.File("box.db"));
    ASSERT_OK(opened);
    store_ = std::move(*opened);
    outbox_ = std::make_unique<Outbox>(*store_, policy_);
  }
  std::vector<OutboxWork> Claim(std::int64_t at, int limit = 10, std::vector<std::string> busy = {}) {
    auto work = outbox_->ClaimDue(at, limit, busy);
    EXPECT_OK(work);
    return work.ok() ? *work : std::vector<OutboxWork>{};
  }
  std::int64_t Now() { return store_->impl().NowMs(); }

  testing::TempDir dir_;
  OutboxPolicy policy_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<Outbox> outbox_;
};

TEST_F(OutboxTest, ValidatesEveryFieldByName) {
  struct Case {
    const char* field;
    void (*mutate)(OutboxRequest&);
  } cases[] = {
      {"key", [](OutboxRequest& r) { r.key = "Upper-Case"; }},
      {"key", [](OutboxRequest& r) { r.key = ""; }},
      {"kind", [](OutboxRequest& r) { r.kind = ""; }},
      {"method", [](OutboxRequest& r) { r.method = "GET"; }},
      {"path", [](OutboxRequest& r) { r.path = "/v1/invoice"; }},
      {"path", [](OutboxRequest& r) { r.path = "/v2/invoice?x=1"; }},
      {"lookup", [](OutboxRequest& r) { r.lookup = LookupBy::kEntity; }},
      {"body", [](OutboxRequest& r) { r.body = ""; }},
      {"body", [](OutboxRequest& r) { r.body = "{oops"; }},
      {"body", [](OutboxRequest& r) { r.body = R"({"card":"4111111111111111"})"; }},
      {"amount", [](OutboxRequest& r) { r.amount = -1; }},
  };
  for (const auto& c : cases) {
    OutboxRequest r = InvoiceCreate("k-1");
    c.mutate(r);
    auto id = outbox_->Enqueue(r);
    ASSERT_THAT(id, Not(IsOk())) << c.field;
    EXPECT_THAT(id, StatusIs(StatusCode::kInvalidArgument)) << c.field;
    EXPECT_NE(id.status().message().find(c.field), std::string::npos) << id.status().message();
  }
  OutboxRequest patch = InvoiceCancel("k-2", "s");
  patch.lookup = LookupBy::kTags;
  EXPECT_THAT(outbox_->Enqueue(patch), StatusIs(StatusCode::kInvalidArgument));
  EXPECT_EQ(outbox_->Metrics()->depth, 0);
}

TEST_F(OutboxTest, OneKeyIsOneIntent) {
  auto a = outbox_->Enqueue(InvoiceCreate("sale-1-invoice", "sale-1"));
  ASSERT_OK(a);
  auto again = outbox_->Enqueue(InvoiceCreate("sale-1-invoice", "sale-1"));
  ASSERT_OK(again);
  EXPECT_EQ(*again, *a);
  auto other = outbox_->Enqueue(InvoiceCreate("sale-1-invoice", "sale-1", 999));
  EXPECT_THAT(other, StatusIs(StatusCode::kAlreadyExists));
  auto item = outbox_->GetByKey("sale-1-invoice");
  ASSERT_OK(item);
  EXPECT_EQ(item->request.lookup_path, "/v2/invoice");
  EXPECT_EQ(item->request.lookup_value, "sale-1-invoice");
  EXPECT_EQ(item->state, OutboxState::kPending);
}

TEST_F(OutboxTest, SendThenDone) {
  auto id = *outbox_->Enqueue(InvoiceCreate("k1"));
  auto work = Claim(Now());
  ASSERT_EQ(work.size(), 1u);
  EXPECT_EQ(work[0].action, OutboxWork::kSend);
  EXPECT_EQ(work[0].item.attempts, 1);
  EXPECT_EQ(outbox_->Get(id)->state, OutboxState::kInflight);
  EXPECT_TRUE(Claim(Now()).empty());
  ASSERT_OK(outbox_->MarkDone(id, "5001", R"({"invoice":{"id":"5001"}})"));
  auto done = outbox_->Get(id);
  EXPECT_EQ(done->state, OutboxState::kDone);
  EXPECT_EQ(done->bank_id, "5001");
  EXPECT_THAT(outbox_->MarkDone(id, "x", ""), StatusIs(StatusCode::kFailedPrecondition));
}

TEST_F(OutboxTest, NotSentBacksOffAndIsSentAgain) {
  auto id = *outbox_->Enqueue(InvoiceCreate("k1"));
  ASSERT_EQ(Claim(Now()).size(), 1u);
  ASSERT_OK(outbox_->MarkNotSent(id, "connect refused", 0.0));
  auto item = *outbox_->Get(id);
  EXPECT_EQ(item.state, OutboxState::kPending);
  EXPECT_FALSE(item.reached_bank);
  EXPECT_GE(item.next_attempt_at_ms - item.updated_at_ms, policy_.backoff_initial_ms / 2);
  EXPECT_TRUE(Claim(item.next_attempt_at_ms - 1).empty());
  auto work = Claim(item.next_attempt_at_ms);
  ASSERT_EQ(work.size(), 1u);
  EXPECT_EQ(work[0].action, OutboxWork::kSend);
  EXPECT_EQ(work[0].item.attempts, 2);
}

TEST_F(OutboxTest, UnknownOutcomeIsLookedUpNeverResentBlindly) {
  auto id = *outbox_->Enqueue(InvoiceCreate("k1"));
  ASSERT_EQ(Claim(Now()).size(), 1u);
  ASSERT_OK(outbox_->MarkUnknown(id, "reset after sending", 0.5));
  EXPECT_TRUE(outbox_->Get(id)->reached_bank);
  auto work = Claim(Now() + kMinute);
  ASSERT_EQ(work.size(), 1u);
  EXPECT_EQ(work[0].action, OutboxWork::kLookup);
  EXPECT_EQ(outbox_->Get(id)->state, OutboxState::kUnknown);  // a lookup claims nothing
  ASSERT_OK(outbox_->MarkLookupFailed(id, "bank unreachable", 0.0));
  EXPECT_EQ(outbox_->Get(id)->state, OutboxState::kUnknown);
  work = Claim(Now() + 10 * kMinute);
  ASSERT_EQ(work.size(), 1u);
  EXPECT_EQ(work[0].action, OutboxWork::kLookup);
  ASSERT_OK(outbox_->MarkAbsent(id));
  work = Claim(Now() + 10 * kMinute);
  ASSERT_EQ(work.size(), 1u);
  EXPECT_EQ(work[0].action, OutboxWork::kSend);
  EXPECT_EQ(work[0].item.request.key, "k1");  // the same key, the same body
}

TEST_F(OutboxTest, UnknownFoundIsDone) {
  auto id = *outbox_->Enqueue(InvoiceCreate("k1"));
  ASSERT_EQ(Claim(Now()).size(), 1u);
  ASSERT_OK(outbox_->MarkUnknown(id, "timeout", 0.5));
  ASSERT_EQ(Claim(Now() + kMinute).size(), 1u);
  ASSERT_OK(outbox_->MarkDone(id, "77", "{}"));
  EXPECT_EQ(outbox_->Get(id)->attempts, 1);
  EXPECT_EQ(outbox_->Get(id)->lookups, 1);
}

TEST_F(OutboxTest, UnknownPatchIsSentAgainDirectly) {
  auto id = *outbox_->Enqueue(InvoiceCancel("k-cancel", "s1"));
  ASSERT_EQ(Claim(Now()).size(), 1u);
  ASSERT_OK(outbox_->MarkUnknown(id, "timeout", 0.5));
  auto work = Claim(Now() + kMinute);
  ASSERT_EQ(work.size(), 1u);
  EXPECT_EQ(work[0].action, OutboxWork::kSend);
}

TEST_F(OutboxTest, OneSaleInOrderSalesConcurrently) {
  auto a1 = *outbox_->Enqueue(InvoiceCreate("a1", "sale-a"));
  auto a2 = *outbox_->Enqueue(InvoiceCancel("a2", "sale-a"));
  auto b1 = *outbox_->Enqueue(InvoiceCreate("b1", "sale-b"));
  auto c1 = *outbox_->Enqueue(InvoiceCreate("c1"));
  auto work = Claim(Now());
  std::vector<std::int64_t> ids;
  for (auto& w : work) ids.push_back(w.item.id);
  EXPECT_EQ(ids, (std::vector<std::int64_t>{a1, b1, c1}));
  EXPECT_TRUE(Claim(Now()).empty());  // a2 waits for a1
  ASSERT_TRUE(outbox_
                  ->MarkFailed(a1, Status(StatusCode::kInvalidArgument, "bank said no",
                                          BankErrorDetail{400, Delivery::kAnswered, {{"invalidAmount", "too small"}}}))
                  .ok());
  work = Claim(Now());
  ASSERT_EQ(work.size(), 1u);
  EXPECT_EQ(work[0].item.id, a2);
  auto failed = *outbox_->Get(a1);
  EXPECT_EQ(failed.state, OutboxState::kFailed);
  EXPECT_EQ(failed.http_status, 400);
  EXPECT_EQ(failed.bank_codes, "invalidAmount: too small\n");
}

TEST_F(OutboxTest, BusyLanesAndLimitAreRespected) {
  for (int i = 0; i < 5; ++i)
    ASSERT_OK(outbox_->Enqueue(InvoiceCreate("k" + std::to_string(i), "s" + std::to_string(i))));
  auto work = Claim(Now(), 2, {"sale:s0"});
  ASSERT_EQ(work.size(), 2u);
  EXPECT_EQ(work[0].item.request.sale_id, "s1");
  EXPECT_EQ(work[1].item.request.sale_id, "s2");
}

TEST_F(OutboxTest, AttemptsRunOutToDead) {
  policy_.max_attempts = 2;
  Open();
  auto id = *outbox_->Enqueue(InvoiceCreate("k1"));
  ASSERT_EQ(Claim(Now()).size(), 1u);
  ASSERT_OK(outbox_->MarkNotSent(id, "refused", 0));
  ASSERT_EQ(Claim(Now() + kMinute).size(), 1u);
  ASSERT_OK(outbox_->MarkNotSent(id, "refused", 0));
  auto item = *outbox_->Get(id);
  EXPECT_EQ(item.state, OutboxState::kDead);
  EXPECT_NE(item.last_error.find("after 2 attempts"), std::string::npos);
  EXPECT_EQ(outbox_->Metrics()->failed, 1);
}

TEST_F(OutboxTest, LookupsRunOutToDeadSayingTheOutcomeIsUnknown) {
  policy_.max_lookups = 2;
  Open();
  auto id = *outbox_->Enqueue(InvoiceCreate("k1"));
  ASSERT_EQ(Claim(Now()).size(), 1u);
  ASSERT_OK(outbox_->MarkUnknown(id, "timeout", 0));
  ASSERT_OK(outbox_->MarkLookupFailed(id, "500", 0));
  ASSERT_OK(outbox_->MarkLookupFailed(id, "500", 0));
  auto item = *outbox_->Get(id);
  EXPECT_EQ(item.state, OutboxState::kDead);
  EXPECT_NE(item.last_error.find("OUTCOME UNKNOWN"), std::string::npos);
  // The operator's retry goes back to a lookup, never straight to a send.
  ASSERT_OK(outbox_->Retry(id, "ana", ""));
  EXPECT_EQ(outbox_->Get(id)->state, OutboxState::kUnknown);
  auto work = Claim(Now() + kMinute);
  ASSERT_EQ(work.size(), 1u);
  EXPECT_EQ(work[0].action, OutboxWork::kLookup);
}

TEST_F(OutboxTest, AgeLimitKillsWhatWasNeverSent) {
  policy_.max_age_ms = kMinute;
  Open();
  auto id = *outbox_->Enqueue(InvoiceCreate("k1"));
  EXPECT_TRUE(Claim(Now() + 2 * kMinute).empty());
  auto item = *outbox_->Get(id);
  EXPECT_EQ(item.state, OutboxState::kDead);
  EXPECT_NE(item.last_error.find("age limit"), std::string::npos);
}

TEST_F(OutboxTest, DropNeedsAReasonAndIsJournaled) {
  auto id = *outbox_->Enqueue(InvoiceCreate("k1", "s", 2500));
  EXPECT_EQ(outbox_->Metrics()->amount_at_risk, 2500);
  EXPECT_THAT(outbox_->Drop(id, "ana", "  "), StatusIs(StatusCode::kInvalidArgument));
  ASSERT_OK(outbox_->Drop(id, "ana", "customer paid cash instead"));
  auto item = *outbox_->Get(id);
  EXPECT_EQ(item.state, OutboxState::kDead);
  EXPECT_TRUE(item.dropped);
  EXPECT_NE(item.last_error.find("customer paid cash instead"), std::string::npos);
  EXPECT_THAT(outbox_->Drop(id, "ana", "again"), StatusIs(StatusCode::kFailedPrecondition));
  auto m = *outbox_->Metrics();
  EXPECT_EQ(m.amount_at_risk, 0);
  EXPECT_EQ(m.dropped, 1);
  EXPECT_EQ(m.depth, 0);
  internal::Txn txn(store_->impl(), internal::Txn::kRead);
  internal::Stmt actions(txn, "SELECT action, target, operator, reason FROM operator_actions");
  ASSERT_TRUE(*actions.Step());
  EXPECT_EQ(actions.Text(0), "drop");
  EXPECT_EQ(actions.Text(1), "outbox:" + std::to_string(id));
  EXPECT_EQ(actions.Text(2), "ana");
  EXPECT_EQ(actions.Text(3), "customer paid cash instead");
}

TEST_F(OutboxTest, InflightRowsNeitherDropNorRetry) {
  auto id = *outbox_->Enqueue(InvoiceCreate("k1"));
  ASSERT_EQ(Claim(Now()).size(), 1u);
  EXPECT_THAT(outbox_->Drop(id, "ana", "why not"), StatusIs(StatusCode::kFailedPrecondition));
  EXPECT_THAT(outbox_->Retry(id, "ana", ""), StatusIs(StatusCode::kFailedPrecondition));
  EXPECT_THAT(outbox_->Retry(999, "ana", ""), StatusIs(StatusCode::kNotFound));
}

TEST_F(OutboxTest, AnUnknownOutcomeSettlesBeforeItsLookup) {
  auto id = *outbox_->Enqueue(InvoiceCreate("k1"));
  ASSERT_EQ(Claim(Now()).size(), 1u);
  ASSERT_OK(outbox_->MarkUnknown(id, "timeout", 0));
  const auto item = *outbox_->Get(id);
  EXPECT_TRUE(Claim(item.next_attempt_at_ms).empty());
  EXPECT_EQ(**outbox_->NextDueAtMs(), item.updated_at_ms + policy_.unknown_settle_ms);
  EXPECT_EQ(Claim(item.updated_at_ms + policy_.unknown_settle_ms).size(), 1u);
}

// A caller that already sent the intent and lost the answer (the checkout, whose own create
// timed out before the box went offline) hands it over as "may have reached the bank": the
// drainer looks it up after the settle time, and sends it only if the bank has nothing.
TEST_F(OutboxTest, AnIntentThatMayHaveReachedTheBankIsLookedUpBeforeItsFirstSend) {
  OutboxRequest request = InvoiceCreate("k1", "sale-1");
  request.may_have_reached_bank = true;
  auto id = *outbox_->Enqueue(request);
  const auto item = *outbox_->Get(id);
  EXPECT_EQ(item.state, OutboxState::kUnknown);
  EXPECT_TRUE(item.reached_bank);
  EXPECT_EQ(item.attempts, 0);
  EXPECT_TRUE(Claim(item.created_at_ms).empty()) << "nothing before the settle time";
  auto work = Claim(item.created_at_ms + policy_.unknown_settle_ms);
  ASSERT_EQ(work.size(), 1u);
  EXPECT_EQ(work[0].action, OutboxWork::kLookup);
  request.may_have_reached_bank = false;
  EXPECT_EQ(*outbox_->Enqueue(request), id) << "the flag is not part of the intent";
  ASSERT_OK(outbox_->MarkAbsent(id));
  work = Claim(Now() + kMinute);
  ASSERT_EQ(work.size(), 1u);
  EXPECT_EQ(work[0].action, OutboxWork::kSend);
}

TEST_F(OutboxTest, EnqueueAllIsAllOrNothing) {
  auto ids = outbox_->EnqueueAll({InvoiceCreate("a"), InvoiceCreate("b"), InvoiceCreate("c")});
  ASSERT_OK(ids);
  EXPECT_EQ(ids->size(), 3u);
  OutboxRequest bad = InvoiceCreate("e");
  bad.method = "GET";
  auto failed = outbox_->EnqueueAll({InvoiceCreate("d"), bad});
  ASSERT_THAT(failed, Not(IsOk()));
  EXPECT_NE(failed.status().message().find("request 1 (e)"), std::string::npos);
  EXPECT_THAT(outbox_->GetByKey("d"), StatusIs(StatusCode::kNotFound));
  EXPECT_EQ(outbox_->Metrics()->depth, 3);
}

TEST_F(OutboxTest, MetricsCountTheQueue) {
  auto a = *outbox_->Enqueue(InvoiceCreate("a", "", 100));
  ASSERT_OK(outbox_->Enqueue(InvoiceCreate("b", "", 200)));
  ASSERT_EQ(Claim(Now(), 1).size(), 1u);
  ASSERT_OK(outbox_->MarkUnknown(a, "timeout", 0));
  auto m = *outbox_->Metrics();
  EXPECT_EQ(m.depth, 2);
  EXPECT_EQ(m.unknown, 1);
  EXPECT_EQ(m.amount_at_risk, 300);
  EXPECT_GE(m.oldest_age_ms, 0);
}

TEST_F(OutboxTest, InflightAtRestartBecomesUnknownAndIsLookedUp) {
  auto id = *outbox_->Enqueue(InvoiceCreate("k1"));
  ASSERT_EQ(Claim(Now()).size(), 1u);
  Open();  // the process "restarts" with the row still inflight
  auto item = *outbox_->Get(id);
  EXPECT_EQ(item.state, OutboxState::kUnknown);
  auto work = Claim(Now() + kMinute);
  ASSERT_EQ(work.size(), 1u);
  EXPECT_EQ(work[0].action, OutboxWork::kLookup);
}

TEST_F(OutboxTest, AGuestMayNotSend) {
  ASSERT_OK(outbox_->Enqueue(InvoiceCreate("k1")));
  auto guest_store = Store::Open(dir_.File("box.db"));
  ASSERT_OK(guest_store);
  Outbox guest(**guest_store);
  EXPECT_THAT(guest.ClaimDue(Now(), 10, {}), StatusIs(StatusCode::kFailedPrecondition));
  EXPECT_EQ(guest.Metrics()->depth, 1);  // reading is fine
}

TEST_F(OutboxTest, EnqueueWithJournalIsAllOrNothing) {
  OutboxRequest r = InvoiceCreate("s1-invoice", "s1");
  ASSERT_OK(outbox_->EnqueueWithJournal(r, 1, "invoice.requested", R"({"amount":1000})"));
  // A journal conflict rolls the outbox row back with it.
  auto bad = outbox_->EnqueueWithJournal(InvoiceCreate("s1-other", "s1"), 1, "other", "{}");
  EXPECT_THAT(bad, StatusIs(StatusCode::kAlreadyExists));
  EXPECT_THAT(outbox_->GetByKey("s1-other"), StatusIs(StatusCode::kNotFound));
}

TEST(Backoff, GrowsDoublingUpToTheCapWithJitter) {
  OutboxPolicy p;
  p.backoff_initial_ms = 100;
  p.backoff_max_ms = 1000;
  EXPECT_EQ(BackoffDelayMs(p, 1, 1.0), 100);
  EXPECT_EQ(BackoffDelayMs(p, 1, 0.0), 50);
  EXPECT_EQ(BackoffDelayMs(p, 3, 1.0), 400);
  EXPECT_EQ(BackoffDelayMs(p, 30, 1.0), 1000);
  EXPECT_EQ(BackoffDelayMs(p, 1000, 0.0), 500);
}

}  // namespace
}  // namespace balcao::offline
