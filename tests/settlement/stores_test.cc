// The store and account settlement's grouping (settlement/stores.h) with hand-built inputs:
// two lanes of one store and a lane of another, entities by method with their ledger lines,
// a refund, a card purchase not captured, and entities no lane claims.
#include "settlement/stores.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "checkout/types.h"

namespace balcao::settlement {
namespace {

BankEntity Entity(BankKind kind, const std::string& id, const std::string& lane, const std::string& sale,
                  const std::string& status, Cents amount, Cents in, Cents out = 0) {
  BankEntity e{kind, id, sale, status, amount};
  e.lane = lane;
  e.ledger_in = in;
  e.ledger_out = out;
  if (kind == BankKind::kPurchase) e.funding = "credit";
  return e;
}

const std::string kLane1 = checkout::LaneRoot("loja-1", "caixa-1");
const std::string kLane2 = checkout::LaneRoot("loja-1", "caixa-2");
const std::string kOther = checkout::LaneRoot("loja-2", "caixa-1");

std::vector<BankEntity> Day() {
  return {
      Entity(BankKind::kPurchase, "p1", kLane1, "v1", "paid", 1000, 1000),
      Entity(BankKind::kDeposit, "d1", kLane1, "v2", "created", 500, 500),
      Entity(BankKind::kInvoice, "i1", kLane2, "v1", "paid", 2000, 2000),
      Entity(BankKind::kPurchase, "p2", kLane2, "v2", "canceled", 0, 700, 700),  // refunded in full
      Entity(BankKind::kDeposit, "d9", kOther, "v1", "created", 300, 300),
      Entity(BankKind::kDeposit, "d0", "", "", "created", 50, 50),  // a cash-in by Pix key
  };
}
std::vector<LedgerLine> Ledger() {
  return {{"merchant-purchase/p1", 1000, 0},
          {"deposit/d1", 490, 10},
          {"invoice/i1", 2000, 0},
          {"merchant-purchase/p2", 700, 0},
          {"merchant-purchase/p2", -700, 0},
          {"deposit/d9", 300, 0},
          {"deposit/d0", 50, 0}};
}

TEST(StoresTest, LanesSumToTheStoreAndTheStoreToItsLedger) {
  const AccountDay account = GroupByLane("2026-11-25", Day(), Ledger());
  ASSERT_EQ(account.stores.size(), 2u);
  const StoreDay* store = FindStore(account, "loja-1");
  ASSERT_NE(store, nullptr);
  ASSERT_EQ(store->lanes.size(), 2u);
  EXPECT_EQ(store->lanes[0].terminal, "caixa-1");
  EXPECT_EQ(store->lanes[0].sales, 2);
  EXPECT_EQ(store->lanes[0].total.net(), 1500);
  EXPECT_EQ(store->lanes[0].methods[0].gross, 1000) << "credit";
  EXPECT_EQ(store->lanes[0].methods[2].gross, 500) << "pix, its fee added back";
  EXPECT_EQ(store->lanes[1].total.net(), 2000);
  EXPECT_EQ(store->lanes[1].total.refunds, 700);
  EXPECT_EQ(store->lanes[1].total.refund_count, 1);
  EXPECT_EQ(store->sum.sales, 4);
  EXPECT_EQ(store->sum.total.net(), 3500);
  EXPECT_EQ(store->ledger_net, 3500);
  EXPECT_TRUE(store->matches_ledger);
  EXPECT_EQ(FindStore(account, "loja-2")->sum.total.net(), 300) << "the other store's, never loja-1's";
  ASSERT_EQ(account.unclaimed.size(), 1u);
  EXPECT_EQ(account.unclaimed[0].id, "d0");
  EXPECT_EQ(account.ledger_unclaimed, 50);
  EXPECT_EQ(account.ledger_count, 7);
  EXPECT_EQ(account.ledger_credits, 4540);
  EXPECT_EQ(account.ledger_debits, 700);
}

TEST(StoresTest, ACardPurchaseNotCapturedKeepsTheStoreFromMatching) {
  std::vector<BankEntity> day = Day();
  day.push_back(Entity(BankKind::kPurchase, "p3", kLane1, "v3", "approved", 900, 0));
  const AccountDay account = GroupByLane("2026-11-25", day, Ledger());
  const StoreDay* store = FindStore(account, "loja-1");
  EXPECT_EQ(store->lanes[0].awaiting_capture, 1);
  EXPECT_FALSE(store->lanes[0].matches_ledger());
  EXPECT_FALSE(store->matches_ledger);
  EXPECT_TRUE(FindStore(account, "loja-2")->matches_ledger);
  EXPECT_NE(StoresText(account, "loja-1").find("not captured yet"), std::string::npos);
}

TEST(StoresTest, ASaleIsCountedOnceWhateverItsEntities) {
  std::vector<BankEntity> day = Day();
  day.push_back(Entity(BankKind::kPurchase, "p1b", kLane1, "v1", "paid", 200, 200));  // v1's second purchase
  std::vector<LedgerLine> ledger = Ledger();
  ledger.push_back({"merchant-purchase/p1b", 200, 0});
  const AccountDay account = GroupByLane("2026-11-25", day, ledger);
  const StoreDay* store = FindStore(account, "loja-1");
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->lanes[0].sales, 2);
  EXPECT_EQ(store->lanes[0].methods[0].count, 1) << "credit: one sale";
  EXPECT_EQ(store->lanes[0].methods[0].gross, 1200);
  EXPECT_TRUE(store->matches_ledger);
}

// Lines of the day whose entity is of an earlier day (an invoice paid today, a Pix given back
// today): the lane their tags name has them, as earlier days' money of its day's ledger; a lane
// with no entity of the day is there for them; a line of no lane stays unclaimed.
TEST(StoresTest, AnEarlierDaysSalesLinesAreTheirLanesDayLedger) {
  std::vector<LedgerLine> ledger = Ledger();
  ledger.push_back({"invoice/i0", 4000, 0, 0, kLane2, "v0"});
  ledger.push_back({"deposit/d8", -500, 0, 0, kLane1, "v8"});
  const std::string lane3 = checkout::LaneRoot("loja-1", "caixa-3");
  ledger.push_back({"invoice/i7", 900, 0, 0, lane3, "v7"});
  ledger.push_back({"invoice/i6", 100, 0, 0, "", ""});
  const AccountDay account = GroupByLane("2026-11-25", Day(), ledger);
  const StoreDay* store = FindStore(account, "loja-1");
  ASSERT_NE(store, nullptr);
  ASSERT_EQ(store->lanes.size(), 3u);
  EXPECT_EQ(store->lanes[0].earlier_net, -500);
  EXPECT_EQ(store->lanes[0].day_ledger, 1000);
  EXPECT_EQ(store->lanes[1].earlier_net, 4000);
  EXPECT_EQ(store->lanes[1].day_ledger, 6000);
  EXPECT_EQ(store->lanes[2].terminal, "caixa-3");
  EXPECT_EQ(store->lanes[2].entities, 0);
  EXPECT_EQ(store->lanes[2].day_ledger, 900);
  EXPECT_EQ(store->sum.earlier_net, 4400);
  EXPECT_EQ(store->sum.earlier_lines, 3);
  EXPECT_EQ(store->sum.day_ledger, 3500 + 4400);
  EXPECT_EQ(store->sum.total.net(), 3500) << "the day's sales' totals are unchanged";
  EXPECT_EQ(store->ledger_net, 3500);
  EXPECT_TRUE(store->matches_ledger);
  EXPECT_EQ(account.ledger_unclaimed, 150) << "d0's and the untagged line's";
  EXPECT_NE(StoresText(account, "loja-1").find("earlier days' sales, in the day's ledger: R$ 44,00 (3 line(s))"),
            std::string::npos)
      << StoresText(account, "loja-1");
}

TEST(StoresTest, TheFormsShowOneStoreOrEveryStore) {
  const AccountDay account = GroupByLane("2026-11-25", Day(), Ledger());
  const auto one = nlohmann::json::parse(StoresJson(account, "loja-1"));
  EXPECT_EQ(one["store"]["store"], "loja-1");
  EXPECT_EQ(one["store"]["lanes"].size(), 2u);
  EXPECT_EQ(one["store"]["sum"]["total"]["net"], 3500);
  EXPECT_FALSE(one.contains("stores"));
  const auto all = nlohmann::json::parse(StoresJson(account, ""));
  EXPECT_EQ(all["stores"].size(), 2u);
  EXPECT_EQ(all["unclaimed"].size(), 1u);
  const std::string text = StoresText(account, "");
  EXPECT_NE(text.find("Store loja-1: 2 lanes"), std::string::npos) << text;
  EXPECT_NE(text.find("Store loja-2: 1 lane\n"), std::string::npos) << text;
  EXPECT_EQ(StoresText(account, "loja-1").find("loja-2"), std::string::npos) << "one store's figures only";
  EXPECT_NE(StoresText(account, "loja-9").find("no entity in the day"), std::string::npos);
}

}  // namespace
}  // namespace balcao::settlement
