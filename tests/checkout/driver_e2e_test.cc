// The driver end to end against the in-process sandbox (real signed HTTP on loopback, a
// real SQLite journal file): card approved / denied / 3-D Secure passed and failed, Pix
// paid, Pix lost-response (its lookup reported found or absent), invoice paid, refunds;
// crash-and-restart at every journal write and every bank call of a Pix sale (in-process
// stop) and of a card sale (a child process, kill_child.h, killed with SIGKILL, with and
// without the sandbox's commit-then-drop fault), each ending as an undisturbed run would: Paid, with exactly one
// brcode / one purchase at the bank.
#include <gtest/gtest.h>

#include <string>

#include "checkout/journal_codec.h"
#include "tests/checkout/driver_fixture.h"
#include "tests/checkout/kill_child.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::StatusIs;

namespace balcao::checkout {
namespace {

using e2e::DriverE2E;
using e2e::StateOf;

// The journal's card scanner refuses Luhn-valid digit runs; a bank id inside a challenge URL
// must not trip it (4242424242424242 passes Luhn).
TEST_F(DriverE2E, JournalTakesBankUrlsHoldingLuhnValidIds) {
  const Event seen = PurchaseSeen{
      1, "4242424242424242", PurchaseStatus::kPending, 100, "https://bank.example/challenge/4242424242424242", "", 1};
  EXPECT_OK(journal_->Append("luhn-url", 1, "PurchaseSeen", EventToJson(seen)));
}

TEST_F(DriverE2E, CardApproved) {
  const std::string id = NewSaleId();
  ASSERT_OK(driver_->Open(id, 2590, settings_));
  ASSERT_OK(driver_->Feed(id, ChooseMethod{Method::kCard, {}, Now()}));
  auto sale = driver_->SubmitCard(id, Card("4242424242424242"), FundingType::kCredit, 2, e2e::TestBrowser());
  ASSERT_OK(sale);
  ASSERT_TRUE(std::holds_alternative<Paid>(sale->state)) << StateOf(*sale);
  EXPECT_EQ(sale->collected(), 2590);
  EXPECT_EQ(AtBank("merchant-purchase", id), 1u);
  auto summary = journal_->Sale(id);
  ASSERT_OK(summary);
  EXPECT_EQ(summary->final_state, "Paid");
  auto entries = journal_->Read(id);
  ASSERT_OK(entries);
  for (const auto& e : *entries) EXPECT_EQ(e.payload.find("4242424242424242"), std::string::npos);
}

TEST_F(DriverE2E, CardDeniedOffersAnotherMethod) {
  const std::string id = NewSaleId();
  ASSERT_OK(driver_->Open(id, 1000, settings_));
  ASSERT_OK(driver_->Feed(id, ChooseMethod{Method::kCard, {}, Now()}));
  auto sale = driver_->SubmitCard(id, Card("4000000000000002"), FundingType::kCredit, 1, e2e::TestBrowser());
  ASSERT_OK(sale);
  const auto* choosing = std::get_if<ChoosingMethod>(&sale->state);
  ASSERT_TRUE(choosing) << StateOf(*sale);
  EXPECT_NE(choosing->notice.find("card not charged"), std::string::npos);
  EXPECT_EQ(sale->collected(), 0);
}

TEST_F(DriverE2E, CardChallengePassedAndFailed) {
  for (const char* outcome : {"pass", "fail"}) {
    const std::string id = NewSaleId();
    ASSERT_OK(driver_->Open(id, 1500, settings_));
    ASSERT_OK(driver_->Feed(id, ChooseMethod{Method::kCard, {}, Now()}));
    auto sale = driver_->SubmitCard(id, Card("5500000000000004"), FundingType::kCredit, 1, e2e::TestBrowser());
    ASSERT_OK(sale);
    const auto* challenge = std::get_if<Challenge>(&sale->state);
    ASSERT_TRUE(challenge) << StateOf(*sale);
    EXPECT_NE(challenge->challenge_url.find("/sandbox/challenge/"), std::string::npos);
    ASSERT_EQ(api().Sim(std::string("/sandbox/challenge/") + outcome, {{"id", challenge->purchase_id}}).status, 200);
    Sale done = Settle(id);
    if (std::string(outcome) == "pass") {
      EXPECT_TRUE(std::holds_alternative<Paid>(done.state)) << outcome;
      EXPECT_EQ(done.collected(), 1500);
    } else {
      EXPECT_TRUE(std::holds_alternative<ChoosingMethod>(done.state)) << outcome;
      EXPECT_EQ(done.collected(), 0);
    }
  }
}

TEST_F(DriverE2E, PixPaidThenPartlyAndFullyReversed) {
  const std::string id = NewSaleId();
  ASSERT_OK(driver_->Open(id, 1234, settings_));
  auto sale = driver_->Feed(id, ChooseMethod{Method::kPix, {}, Now()});
  ASSERT_OK(sale);
  const auto* pix = std::get_if<ShowingPix>(&sale->state);
  ASSERT_TRUE(pix) << StateOf(*sale);
  ASSERT_EQ(api().Sim("/sandbox/dynamic-brcode/pay", {{"brcode", pix->brcode.text}}).status, 200);
  Sale paid = Settle(id);
  ASSERT_TRUE(std::holds_alternative<Paid>(paid.state)) << StateOf(paid);
  EXPECT_EQ(paid.collected(), 1234);
  auto part = driver_->Feed(id, Reverse{234, "op-1", "one item returned", Now()});
  ASSERT_OK(part);
  EXPECT_TRUE(std::holds_alternative<Paid>(part->state));
  EXPECT_EQ(part->collected(), 1000);
  auto full = driver_->Feed(id, Reverse{1000, "op-1", "customer gave everything back", Now()});
  ASSERT_OK(full);
  EXPECT_TRUE(std::holds_alternative<Refunded>(full->state));
  EXPECT_EQ(full->collected(), 0);
}

TEST_F(DriverE2E, InvoicePaidAfterPixExpiredFallback) {
  const std::string id = NewSaleId();
  Settings s = settings_;
  s.pix_expiration_s = 1;
  ASSERT_OK(driver_->Open(id, 5000, s));
  ASSERT_OK(driver_->Feed(id, ChooseMethod{Method::kPix, {}, Now()}));
  Sale expired = Settle(id);
  ASSERT_TRUE(std::holds_alternative<ChoosingMethod>(expired.state)) << StateOf(expired);
  auto sale = driver_->Feed(id, FallbackToInvoice{{"Maria da Silva", "337.451.076-08"}, Now()});
  ASSERT_OK(sale);
  const auto* invoice = std::get_if<ShowingInvoice>(&sale->state);
  ASSERT_TRUE(invoice) << StateOf(*sale);
  ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", invoice->invoice.id}}).status, 200);
  Sale paid = Settle(id);
  ASSERT_TRUE(std::holds_alternative<Paid>(paid.state)) << StateOf(paid);
  EXPECT_EQ(paid.collected(), 5000);
}

TEST_F(DriverE2E, LostCreateResponseIsLookedUpNotResent) {
  const std::string id = NewSaleId();
  ASSERT_EQ(api().Sim("/sandbox/faults", {{"POST /v2/dynamic-brcode", {"commit-then-drop-response"}}}).status, 200);
  ASSERT_OK(driver_->Open(id, 700, settings_));
  auto sale = driver_->Feed(id, ChooseMethod{Method::kPix, {}, Now()});
  ASSERT_OK(sale);
  EXPECT_TRUE(std::holds_alternative<ShowingPix>(sale->state)) << StateOf(*sale);
  // The journal tells the story: the answer was lost, the lookup found the brcode.
  auto entries = journal_->Read(id);
  ASSERT_OK(entries);
  std::string kinds;
  for (const auto& e : *entries) kinds += e.kind + " ";
  EXPECT_EQ(kinds, "Start ChooseMethod CallFailed BrcodeCreated ");
  EXPECT_EQ(AtBank("dynamic-brcode", id), 1u);
}

// OnUnknownResolved (the metric of unknown outcomes resolved): the lookup after a lost answer
// reports found; after a request the bank never processed, absent (and the create is resent).
TEST_F(DriverE2E, EachAnsweredLookupIsReportedFoundOrAbsent) {
  std::vector<std::pair<EntityKind, bool>> resolved;
  driver_->OnUnknownResolved([&](EntityKind kind, bool found) { resolved.emplace_back(kind, found); });
  Fault("POST /v2/dynamic-brcode", "commit-then-drop-response");
  const std::string found = NewSaleId();
  ASSERT_OK(driver_->Open(found, 700, settings_));
  auto sale = driver_->Feed(found, ChooseMethod{Method::kPix, {}, Now()});
  ASSERT_OK(sale);
  ASSERT_TRUE(std::holds_alternative<ShowingPix>(sale->state));
  Fault("POST /v2/dynamic-brcode", "reset-before-processing");
  const std::string absent = NewSaleId();
  ASSERT_OK(driver_->Open(absent, 800, settings_));
  sale = driver_->Feed(absent, ChooseMethod{Method::kPix, {}, Now()});
  ASSERT_OK(sale);
  ASSERT_TRUE(std::holds_alternative<ShowingPix>(sale->state));
  EXPECT_EQ(AtBank("dynamic-brcode", absent), 1u);
  EXPECT_EQ(resolved,
            (std::vector<std::pair<EntityKind, bool>>{{EntityKind::kBrcode, true}, {EntityKind::kBrcode, false}}));
}

// Crash after the k-th journal write or bank call of a Pix sale, restart, finish: always
// Paid, one brcode and one deposit at the bank.
TEST_F(DriverE2E, CrashAtEveryPointOfAPixSaleThenResume) {
  clock_.SetSpeed(5);  // its 1 s polls take 0.2 s
  for (int crash_at = 1; crash_at <= 8; ++crash_at) {
    SCOPED_TRACE("crash at hook call " + std::to_string(crash_at));
    OpenDriver();
    const std::string id = NewSaleId();
    int calls = 0;
    driver_->SetCrashHookForTest([&](const char*) { return ++calls == crash_at; });
    auto opened = driver_->Open(id, 990, settings_);
    if (!driver_->crashed()) {
      ASSERT_OK(opened);
      (void)driver_->Feed(id, ChooseMethod{Method::kPix, {}, Now()});
    }
    if (!driver_->crashed()) (void)driver_->RunUntilSettled(id, Now() + 2 * kMicrosPerSecond);
    OpenDriver();  // the restarted process
    auto resumed = driver_->Resume(id);
    if (!resumed.ok()) {  // crashed before Start reached the journal
      EXPECT_THAT(resumed, StatusIs(StatusCode::kNotFound));
      continue;
    }
    StatusOr<Sale> sale = RunUntil(id, [](const Sale& s) {
      return std::holds_alternative<ShowingPix>(s.state) || std::holds_alternative<ChoosingMethod>(s.state);
    });
    if (sale.ok() && std::holds_alternative<ChoosingMethod>(sale->state)) {
      sale = driver_->Feed(id, ChooseMethod{Method::kPix, {}, Now()});
    }
    ASSERT_OK(sale);
    const auto* pix = std::get_if<ShowingPix>(&sale->state);
    ASSERT_TRUE(pix) << StateOf(*sale);
    ASSERT_EQ(api().Sim("/sandbox/dynamic-brcode/pay", {{"uuid", pix->brcode.uuid}}).status, 200);
    Sale paid = Settle(id);
    EXPECT_TRUE(std::holds_alternative<Paid>(paid.state)) << StateOf(paid);
    EXPECT_EQ(AtBank("dynamic-brcode", id), 1u);
    EXPECT_EQ(Tagged("deposit", BrcodeDepositTag(pix->brcode.uuid)), 1u);
  }
}

// The same with a real SIGKILL of a separate process, for a card sale (the dangerous one):
// killed after each journal write and each bank call, with and without the sandbox
// dropping the purchase's answer after committing it. After restart: Paid, one purchase.
// The killed child's flow (tests/checkout/kill_child.h): open, choose card, submit.
const bool kCardSaleFlow = e2e::RegisterChildFlow("card-sale-4321", [](Driver& d, const e2e::ChildContext& c) {
  if (!d.Open(c.sale_id, 4321, c.settings).ok()) return;
  d.Feed(c.sale_id, ChooseMethod{Method::kCard, {}, c.clock.Now()}).IgnoreError();  // the kill test checks the outcome
  d.SubmitCard(c.sale_id, e2e::TestCard("4242424242424242"), FundingType::kCredit, 1, e2e::TestBrowser())
      .IgnoreError();  // the kill test checks the outcome
});

TEST_F(DriverE2E, CardSaleSurvivesSigkillAtEveryPoint) {
  for (bool drop : {false, true}) {
    for (int k = 1; k <= 7; ++k) {
      SCOPED_TRACE(std::string(drop ? "commit-then-drop, " : "") + "SIGKILL at hook call " + std::to_string(k));
      if (drop) {
        ASSERT_EQ(
            api()
                .Sim("/sandbox/faults", {{"POST /v2/merchant-session/{uuid}/purchase", {"commit-then-drop-response"}}})
                .status,
            200);
      }
      const std::string id = NewSaleId();
      const bool killed = RunChildKilledAt(k, "card-sale-4321", id);
      EXPECT_TRUE(killed) << "the card flow has 7 hook points; the child must die at each";
      auto resumed = driver_->Resume(id);
      ASSERT_OK(resumed);
      Sale sale = RunUntil(id, [](const Sale& s) {
        return !std::holds_alternative<VerifyingSession>(s.state) &&
               !std::holds_alternative<VerifyingPurchase>(s.state) &&
               !std::holds_alternative<CreatingSession>(s.state) && !std::holds_alternative<Charging>(s.state);
      });
      if (std::holds_alternative<ChoosingMethod>(sale.state)) {
        ASSERT_OK(driver_->Feed(id, ChooseMethod{Method::kCard, {}, Now()}));
        sale = *driver_->Get(id);
      }
      if (std::holds_alternative<AwaitingCard>(sale.state)) {  // the card was never charged
        auto again = driver_->SubmitCard(id, Card("4242424242424242"), FundingType::kCredit, 1, e2e::TestBrowser());
        ASSERT_OK(again);
        sale = *again;
      }
      EXPECT_TRUE(std::holds_alternative<Paid>(sale.state)) << StateOf(sale) << (killed ? " (killed)" : " (finished)");
      EXPECT_EQ(sale.collected(), 4321);
      EXPECT_EQ(AtBank("merchant-purchase", id), 1u) << "a card sale must never charge twice";
      api().Raw("DELETE", "/sandbox/faults");  // an unused fault must not leak into the next run
    }
  }
}

}  // namespace
}  // namespace balcao::checkout
