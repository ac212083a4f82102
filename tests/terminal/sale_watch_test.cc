// The touchscreen's long poll (terminal/service/sale_watch.h) over a real SaleBook: a held
// answer wakes at the sale's next change, not at a put that changed nothing, nor at another
// sale's change; it wakes at its deadline; a version already gone past is answered at once.
#include "terminal/service/sale_watch.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "checkout/checkout.h"
#include "tests/testing/status_matchers.h"

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
  const std::filesystem::path index_ = std::filesystem::temp_directory_path() / "balcao-sale-watch.idx";
  SaleBook book_{index_.string()};
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

}  // namespace
}  // namespace balcao::terminal::service
