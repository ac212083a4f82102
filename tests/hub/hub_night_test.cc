// The chain's night through the hub (docs/hub.md, "The boxes' nights", "The chain's night"):
// each box's `balcao settle` is published by the running box through its hub link and kept in
// PostgreSQL; `balcao hub settle` holds the reports, the events routed, the bank's day by pages
// and its ledger against each other, names the lane that did not report, and reconciles once
// every lane did.
#include <gtest/gtest.h>

#include <thread>

#include "tests/hub/hub_fixture.h"

namespace balcao::hub::testing {
namespace {

using HubNight = HubE2E;

Json LaneOf(const Json& night, const Box& box) {
  for (const Json& lane : night["lanes"])
    if (lane["store"] == box.store && lane["terminal"] == box.terminal) return lane;
  return Json();
}

TEST_F(HubNight, EachBoxsNightReachesTheHubAndTheChainReconcilesFourWays) {
  for (auto& box : boxes_) StartBox(*box);
  std::vector<Sale> sales;
  long long amount = 1500;
  for (auto& box : boxes_)
    for (const char* method : {"pix", "card", "invoice"}) sales.push_back(Sell(*box, method, amount += 11));
  for (const Sale& sale : sales) Pay(sale);
  for (const Sale& sale : sales) ExpectPaidOnce(sale);
  ASSERT_EQ(Http("POST", sandbox_url_ + "/sandbox/clock", Json{{"advance", 31}}.dump()).status, 200);
  ASSERT_EQ(Sim("flush", Json::object()).status, 200);  // the card purchases are captured and credited
  const std::string day = BusinessDayOf(SystemClock::Instance().Now());

  // Two of the three lanes run their night; the third does not (yet).
  SettleBox(*boxes_[0], day);
  SettleBox(*boxes_[2], day);
  const std::vector<LaneNight> nights = NightsAtTheHub(day, 2);
  ASSERT_EQ(nights.size(), 2u) << "the boxes' nights did not reach the hub";
  for (const LaneNight& night : nights) {
    EXPECT_EQ(night.status, "reconciled") << night.summary_json;
    EXPECT_EQ(Json::parse(night.summary_json).count("sales"), 0u) << "a summary, not the whole report";
  }

  auto [text, code] = RunCliStatus({"hub", "settle", "--day", day, "--config", hub_config_});
  EXPECT_EQ(code, 1) << text;
  EXPECT_NE(text.find("loja-1/caixa-2"), std::string::npos) << text;
  EXPECT_NE(text.find("no report from the box for " + day), std::string::npos) << text;
  const auto [json_out, json_code] = RunCliStatus({"hub", "settle", "--day", day, "--config", hub_config_, "--json"});
  EXPECT_EQ(json_code, 1);
  const Json night = Json::parse(json_out, nullptr, false);
  ASSERT_TRUE(night.is_object()) << json_out;
  EXPECT_EQ(LaneOf(night, *boxes_[1])["report"], "missing") << json_out;
  for (Box* box : {boxes_[0].get(), boxes_[2].get()}) {
    const Json lane = LaneOf(night, *box);
    long long sold = 0;
    for (const Sale& sale : sales) sold += sale.box == box ? sale.amount : 0;
    EXPECT_EQ(lane["report"], "reconciled") << lane.dump();
    EXPECT_EQ(lane["report_net"], sold) << lane.dump();
    EXPECT_EQ(lane["bank_held"], sold) << lane.dump();
    EXPECT_EQ(lane["ledger_net"], sold) << lane.dump();
    EXPECT_GE(lane["events"].get<int>(), 2) << "the Pix deposit's and the invoice's events, routed to the lane";
    EXPECT_TRUE(lane["to_look_at"].empty()) << lane.dump();
  }

  // The last lane settles: every lane agrees four ways, per store and for the account.
  SettleBox(*boxes_[1], day);
  ASSERT_EQ(NightsAtTheHub(day, 3).size(), 3u);
  std::tie(text, code) = RunCliStatus({"hub", "settle", "--day", day, "--config", hub_config_});
  EXPECT_EQ(code, 0) << text;
  EXPECT_NE(text.find("RECONCILED four ways"), std::string::npos) << text;
  // A day the hub cannot read (bad date) is exit 2, naming the rule.
  EXPECT_EQ(RunCliStatus({"hub", "settle", "--day", "2026-02-30", "--config", hub_config_}).second, 2);
}

}  // namespace
}  // namespace balcao::hub::testing
