// The sale book's views (terminal/service/sale_book.h, sale_view.h): an ended sale let go
// answers the same row as before; and the touchscreen's long poll (sale_watch.h) over a real
// book: a held answer wakes at the sale's next change, not at a put that changed nothing, nor
// at another sale's change; it wakes at its deadline; a version already gone past is answered
// at once.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "checkout/checkout.h"
#include "terminal/service/sale_watch.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace balcao::terminal::service {
namespace {

std::string VersionOf(const SaleBook& book, const std::string& id) {
  const std::string view = book.ViewJson(id).value_or("");
  const std::string key = "{\"version\":";
  return view.rfind(key, 0) == 0 ? view.substr(key.size(), view.find_first_of(",}") - key.size()) : "none";
}

class SaleWatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    book_.OnChange([this](const std::string& id) { watch_.Changed(id); });
    sale_.id = "v-a";
    sale_.amount = 1250;
    book_.Put(sale_);
  }
  const test_util::TempDir dir_{"sale-watch"};  // a file of its own: tests run in parallel processes
  SaleBook book_{dir_.File("index")};
  SaleWatch watch_{book_};
  checkout::Sale sale_;
  SaleWatch::Clock::time_point now_ = SaleWatch::Clock::now();
};

TEST_F(SaleWatchTest, TheViewCarriesTheVersionItWasReadWith) {
  EXPECT_EQ(VersionOf(book_, "v-a"), std::to_string(book_.Version("v-a")));
  EXPECT_GT(book_.Version("v-a"), 0u);
}

TEST_F(SaleWatchTest, AHeldAnswerWakesAtTheSalesChangeOnly) {
  std::vector<std::string> woken;
  ASSERT_TRUE(watch_.Hold("v-a", book_.Version("v-a"), now_, [&] { woken.push_back("v-a"); }));
  book_.Put(sale_);  // the driver's tick puts an unchanged sale: nothing moves
  book_.SetMessage("v-b", "another sale");
  EXPECT_TRUE(woken.empty());
  EXPECT_EQ(watch_.Held(), 1u);
  book_.SetMessage("v-a", "Falando com o banco…");
  EXPECT_EQ(woken, std::vector<std::string>{"v-a"});
  EXPECT_EQ(watch_.Held(), 0u);
}

TEST_F(SaleWatchTest, AVersionAlreadyGonePastIsAnsweredAtOnce) {
  const std::uint64_t seen = book_.Version("v-a");
  book_.AddFlag("v-a", "reprint");
  bool woken = false;
  EXPECT_FALSE(watch_.Hold("v-a", seen, now_, [&] { woken = true; }));
  EXPECT_FALSE(woken);  // the caller answers itself
  EXPECT_EQ(watch_.Held(), 0u);
}

TEST_F(SaleWatchTest, AHeldAnswerWakesAtItsDeadline) {
  int woken = 0;
  ASSERT_TRUE(watch_.Hold("v-a", book_.Version("v-a"), now_, [&] { ++woken; }));
  watch_.Expire(now_ + SaleWatch::kHold - std::chrono::milliseconds(1));
  EXPECT_EQ(woken, 0);
  watch_.Expire(now_ + SaleWatch::kHold);
  EXPECT_EQ(woken, 1);
}

TEST_F(SaleWatchTest, NoMoreThanKMaxHeld) {
  int woken = 0;
  for (std::size_t i = 0; i < SaleWatch::kMaxHeld; ++i)
    ASSERT_TRUE(watch_.Hold("v-a", book_.Version("v-a"), now_, [&] { ++woken; }));
  EXPECT_FALSE(watch_.Hold("v-a", book_.Version("v-a"), now_, [] {}));
  book_.SetInstallments("v-a", 3);
  EXPECT_EQ(woken, static_cast<int>(SaleWatch::kMaxHeld));
}

// A paid Pix sale, as the driver would put it.
checkout::Sale PaidPix(const std::string& id, checkout::Cents amount) {
  checkout::Sale sale;
  sale.id = id;
  sale.amount = amount;
  const checkout::EntityRef deposit{checkout::EntityKind::kDeposit, "5" + id.substr(2), 0};
  sale.created = {{checkout::EntityKind::kBrcode, "pix" + id, 1}, deposit};
  sale.ledger = {checkout::Money{deposit, amount, 0, checkout::MoneyRole::kPayment}};
  sale.state = checkout::Paid{{checkout::Method::kPix, deposit, true}};
  return sale;
}

// The view without its version and receipts: what a sale let go must still answer.
std::string RowWithoutVersion(const SaleBook& book, const std::string& id) {
  std::string view = book.ViewJson(id).value_or("");
  view.erase(1, view.find(',') - 1 + 1);
  return view;
}

TEST(SaleBookMemory, AnEndedSaleLetGoAnswersTheSameRowAsItsCopyDid) {
  const test_util::TempDir dir("sale-book");
  SaleBook book(dir.File("index"));
  const UnixMicros noon = *ParseTimestamp("2026-11-27T15:00:00+00:00");
  for (std::size_t i = 0; i <= SaleBook::kFullCopiesKept; ++i) ASSERT_OK(book.Add("v-" + std::to_string(i), 100, noon));
  book.Put(PaidPix("v-0", 4990));
  book.SetMessage("v-0", "Pix recebido");
  book.AddFlag("v-0", "late-money");
  const std::string before = RowWithoutVersion(book, "v-0");
  ASSERT_NE(before.find("\"status\":\"paid\""), std::string::npos) << before;
  for (std::size_t i = 1; i <= SaleBook::kFullCopiesKept; ++i) book.Put(PaidPix("v-" + std::to_string(i), 100));
  EXPECT_FALSE(book.HasCopy("v-0"));
  EXPECT_TRUE(book.HasView("v-0"));
  EXPECT_EQ(RowWithoutVersion(book, "v-0"), before);
  const std::string day = book.DayJson("2026-11-27");
  EXPECT_NE(day.find("\"id\":\"v-0\""), std::string::npos) << day;
  EXPECT_NE(day.find("\"count\":33"), std::string::npos) << day;
}

}  // namespace
}  // namespace balcao::terminal::service
