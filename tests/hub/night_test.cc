// The chain's night's rules (hub/night.h), pure: a missing report, a paid entity no event of its
// lane carried, an event routed to another lane, a report whose net is not the bank's; and the
// summary a box publishes (settlement::NightSummaryJson).
#include "hub/night.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "checkout/types.h"
#include "common/time.h"
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

// A São Paulo wall-clock time ("2026-11-21T02:30") as the instant.
UnixMicros At(const std::string& local) { return *ParseTimestamp(local + ":00-03:00"); }

std::string Summary(const std::string& day, settlement::Cents net, const std::string& settled_at = "") {
  return nlohmann::json{{"day", day},
                        {"settled_at", settled_at.empty() ? day + "T23:00:00Z" : settled_at},
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
  in.ledger = {{"deposit/d1", 1000, 0, At("2026-11-20T10:00")}, {"deposit/d2", 2500, 0, At("2026-11-20T11:00")}};
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

settlement::BankEntity Invoice(const std::string& id, const std::string& terminal, settlement::Cents paid) {
  settlement::BankEntity e = Deposit(id, "loja-1", terminal, paid);
  e.kind = settlement::BankKind::kInvoice;
  e.status = paid > 0 ? "paid" : "created";
  return e;
}
settlement::LedgerLine Credit(const std::string& source, settlement::Cents amount, const std::string& local,
                              const std::string& terminal) {
  return {
      source, amount, 0, At(local), checkout::LaneRoot("loja-1", terminal), "s-" + source.substr(source.find('/') + 1)};
}
LaneNight Night(const std::string& day, const std::string& terminal, settlement::Cents net, const std::string& ran) {
  auto night = ParseNight("loja-1", terminal, Summary(day, net, FormatTimestamp(At(ran))));
  EXPECT_TRUE(night.ok()) << night.status().ToString();
  return *night;
}
const LaneFourWays& LaneOf(const ChainNight& night, const std::string& terminal) {
  for (const LaneFourWays& lane : night.lanes)
    if (lane.terminal == terminal) return lane;
  ADD_FAILURE() << "no lane " << terminal;
  return night.lanes.front();
}

// A pay-later invoice rung up on caixa-2 on the 20th and paid on the 22nd at 15:00. The box counts
// it once, on the night of the 22nd ("earlier day, counted tonight"); the bank's day puts the
// invoice on the 20th and its ledger line on the 22nd. Each of the hub's nights holds the money
// where the box did: the 20th and the 22nd both reconcile, the 21st does not see it.
TEST(ChainNight, APayLaterInvoicePaidDaysLaterIsTheNightsThatCountedIt) {
  const settlement::LedgerLine paid = Credit("invoice/i1", 4000, "2026-11-22T15:00", "caixa-2");
  ChainNightInput rung_up;
  rung_up.day = "2026-11-20";
  rung_up.entities = {Deposit("d1", "loja-1", "caixa-1", 1000), Invoice("i1", "caixa-2", 4000)};
  rung_up.ledger = {Credit("deposit/d1", 1000, "2026-11-20T10:00", "caixa-1"), paid};
  rung_up.nights = {Night("2026-11-20", "caixa-1", 1000, "2026-11-21T02:30"),
                    Night("2026-11-20", "caixa-2", 0, "2026-11-21T02:31")};
  rung_up.routed = {{LaneSubject("loja-1", "caixa-1"), "deposit/d1"}, {LaneSubject("loja-1", "caixa-2"), "invoice/i1"}};
  const ChainNight first = ReconcileChain(rung_up);
  EXPECT_EQ(first.items, 0) << ChainNightText(first);
  EXPECT_EQ(LaneOf(first, "caixa-2").bank_held, 0);
  EXPECT_EQ(LaneOf(first, "caixa-2").later, std::vector<std::string>{"invoice/i1"});
  EXPECT_NE(ChainNightText(first).find("invoice/i1: paid after the night, a later night's"), std::string::npos);

  ChainNightInput between;  // the 21st: nothing of it
  between.day = "2026-11-21";
  between.ledger = {paid};
  between.nights = {Night("2026-11-21", "caixa-2", 0, "2026-11-22T02:30")};
  between.previous_nights = rung_up.nights;
  const ChainNight second = ReconcileChain(between);
  EXPECT_EQ(second.items, 0) << ChainNightText(second);
  EXPECT_EQ(LaneOf(second, "caixa-2").bank_held, 0);

  ChainNightInput paid_day;
  paid_day.day = "2026-11-22";
  paid_day.ledger = {paid};
  paid_day.nights = {Night("2026-11-22", "caixa-2", 4000, "2026-11-23T02:30")};
  paid_day.previous_nights = between.nights;
  paid_day.routed = {{LaneSubject("loja-1", "caixa-2"), "invoice/i1"}};
  const ChainNight third = ReconcileChain(paid_day);
  EXPECT_EQ(third.items, 0) << ChainNightText(third);
  EXPECT_EQ(LaneOf(third, "caixa-2").bank_held, 4000);
  EXPECT_EQ(LaneOf(third, "caixa-2").earlier, std::vector<std::string>{"invoice/i1"});
  EXPECT_EQ(third.account.stores.at(0).ledger_net, 4000);

  // Paid but its event never reached the lane: still named, on the night that holds the money.
  paid_day.routed.clear();
  EXPECT_EQ(ReconcileChain(paid_day).lanes.at(0).unrouted, std::vector<std::string>{"invoice/i1"});
}

// Paid at 01:00 after its day, before the box's night ran at 02:30: that night saw it paid and
// counted it, so it is the day's money (its ledger line of the next day with it), and the next
// day's night, which ran after, does not count it again.
TEST(ChainNight, AnInvoicePaidBeforeTheNightRanIsTheDaysMoney) {
  const settlement::LedgerLine paid = Credit("invoice/i2", 3000, "2026-11-21T01:00", "caixa-2");
  ChainNightInput day;
  day.day = "2026-11-20";
  day.entities = {Invoice("i2", "caixa-2", 3000)};
  day.ledger = {paid};
  day.nights = {Night("2026-11-20", "caixa-2", 3000, "2026-11-21T02:30")};
  day.routed = {{LaneSubject("loja-1", "caixa-2"), "invoice/i2"}};
  const ChainNight night = ReconcileChain(day);
  EXPECT_EQ(night.items, 0) << ChainNightText(night);
  EXPECT_EQ(LaneOf(night, "caixa-2").bank_held, 3000);
  EXPECT_TRUE(LaneOf(night, "caixa-2").later.empty());

  ChainNightInput next;
  next.day = "2026-11-21";
  next.ledger = {paid};
  next.nights = {Night("2026-11-21", "caixa-2", 0, "2026-11-22T02:30")};
  next.previous_nights = day.nights;
  const ChainNight after = ReconcileChain(next);
  EXPECT_EQ(after.items, 0) << ChainNightText(after);
  EXPECT_EQ(after.account.ledger_unclaimed, 0);
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
