// The chain's night's rules (hub/night.h), pure: a missing report, a paid entity no event of its
// lane carried, an event routed to another lane, a report whose net is not the bank's; and the
// summary a box publishes (settlement::NightSummaryJson).
#include "hub/night.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "checkout/types.h"
#include "hub/routing.h"
#include "settlement/report.h"

namespace balcao::hub {
namespace {

settlement::BankEntity Deposit(const std::string& id, const std::string& store, const std::string& terminal,
                               settlement::Cents amount) {
  settlement::BankEntity e;
  e.kind = settlement::BankKind::kDeposit;
  e.id = id;
  e.sale_id = "s-" + id;
  e.status = "created";
  e.amount = amount;
  e.ledger_in = amount;
  e.lane = checkout::LaneRoot(store, terminal);
  return e;
}

std::string Summary(const std::string& day, settlement::Cents net) {
  return nlohmann::json{{"day", day},
                        {"settled_at", day + "T23:00:00Z"},
                        {"status", "reconciled"},
                        {"attention", 0},
                        {"difference", {{"bank", net}, {"journal", net}}},
                        {"total", {{"net", net}}}}
      .dump();
}

ChainNightInput TwoLanes() {
  ChainNightInput in;
  in.day = "2026-11-20";
  in.entities = {Deposit("d1", "loja-1", "caixa-1", 1000), Deposit("d2", "loja-1", "caixa-2", 2500)};
  in.account = settlement::GroupByLane(in.day, in.entities, {{"deposit/d1", 1000, 0}, {"deposit/d2", 2500, 0}});
  in.enrolled = {{"loja-1", "caixa-1"}, {"loja-1", "caixa-2"}};
  for (auto [terminal, net] : {std::pair{"caixa-1", 1000}, {"caixa-2", 2500}}) {
    auto night = ParseNight("loja-1", terminal, Summary(in.day, net));
    EXPECT_TRUE(night.ok()) << night.status().ToString();
    in.nights.push_back(*night);
  }
  in.routed = {{LaneSubject("loja-1", "caixa-1"), "deposit/d1"}, {LaneSubject("loja-1", "caixa-2"), "deposit/d2"}};
  return in;
}

TEST(ChainNight, FourWaysAgreeAndReconcile) {
  const ChainNight night = ReconcileChain(TwoLanes());
  EXPECT_EQ(night.items, 0) << ChainNightText(night);
  ASSERT_EQ(night.lanes.size(), 2u);
  EXPECT_EQ(night.lanes[1].report_net, 2500);
  EXPECT_EQ(night.lanes[1].events, 1);
  EXPECT_NE(ChainNightText(night).find("RECONCILED four ways"), std::string::npos);
}

TEST(ChainNight, NamesTheLaneWhoseReportIsMissing) {
  ChainNightInput in = TwoLanes();
  in.nights.pop_back();
  in.enrolled.insert({"loja-2", "caixa-1"});  // enrolled, nothing sold, no report either
  const ChainNight night = ReconcileChain(in);
  EXPECT_EQ(night.items, 2);
  const std::string text = ChainNightText(night);
  EXPECT_NE(text.find("loja-1/caixa-2"), std::string::npos);
  EXPECT_NE(text.find("loja-2/caixa-1"), std::string::npos);
  EXPECT_NE(text.find("no report from the box for 2026-11-20"), std::string::npos) << text;
}

TEST(ChainNight, APaidEntityWithoutItsLanesEventAndAMisroutedOne) {
  ChainNightInput in = TwoLanes();
  in.routed = {{LaneSubject("loja-1", "caixa-2"), "deposit/d1"}, {LaneSubject("loja-1", "caixa-2"), "deposit/d2"}};
  const ChainNight night = ReconcileChain(in);
  ASSERT_EQ(night.lanes[0].unrouted, std::vector<std::string>{"deposit/d1"});
  ASSERT_EQ(night.lanes[0].misrouted, std::vector<std::string>{"deposit/d1"});
  EXPECT_EQ(night.items, 2);
  // Past the replay window the hub no longer has the day's events: not held against the bank.
  in.events_kept = false;
  EXPECT_EQ(ReconcileChain(in).items, 0);
}

TEST(ChainNight, AReportWhoseNetIsNotTheBanks) {
  ChainNightInput in = TwoLanes();
  in.nights[0] = *ParseNight("loja-1", "caixa-1", Summary(in.day, 900));
  const ChainNight night = ReconcileChain(in);
  EXPECT_EQ(night.items, 1);
  EXPECT_NE(ChainNightText(night).find("the box's net R$ 9,00 is not what the bank holds, R$ 10,00"), std::string::npos)
      << ChainNightText(night);
}

TEST(ChainNight, ParseNightNamesTheField) {
  EXPECT_NE(ParseNight("l", "c", "[]").status().message().find("JSON object"), std::string::npos);
  EXPECT_NE(ParseNight("l", "c", R"({"day":"2026-02-30"})").status().message().find("day:"), std::string::npos);
  EXPECT_NE(ParseNight("l", "c", R"({"day":"2026-02-03","status":"fine"})").status().message().find("status:"),
            std::string::npos);
  nlohmann::json no_net = nlohmann::json::parse(Summary("2026-02-03", 1));
  no_net["total"]["net"] = "1,00";
  EXPECT_NE(ParseNight("l", "c", no_net.dump()).status().message().find("total.net"), std::string::npos);
}

TEST(NightSummary, TheReportWithoutItsLists) {
  const std::string report =
      R"({"day":"2026-11-20","settled_at":"x","status":"reconciled","attention":0,"sales":[{"id":"s-1"}],)"
      R"("totals":[],"total":{"net":5},"fed":[],"orphans":[{"id":"o"}],"outbox":[],"ledger":{"known":true}})";
  auto summary = settlement::NightSummaryJson(report);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  const auto doc = nlohmann::json::parse(*summary);
  EXPECT_FALSE(doc.contains("sales"));
  EXPECT_FALSE(doc.contains("orphans"));
  EXPECT_EQ(doc["total"]["net"], 5);
  EXPECT_TRUE(doc["ledger"]["known"]);
  EXPECT_FALSE(settlement::NightSummaryJson("{\"day\":1}").ok());
  EXPECT_FALSE(settlement::NightSummaryJson("not json").ok());
}

}  // namespace
}  // namespace balcao::hub
