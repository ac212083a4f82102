// The settlement report's forms (settlement/report.h): the JSON, deterministic, and the day
// summary read back from it for the printer.
#include "settlement/report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "settlement/settlement.h"
#include "tests/settlement/reconcile_fixture.h"

namespace balcao::settlement {
namespace {

using namespace checkout;
using namespace fixture;

TEST(Report, TheJsonIsDeterministicAndGivesTheSummaryBack) {
  DayInput in = Day({SaleBuilder("s-card", 5000)
                         .CardPaid("p-1", 5000)
                         .Add(Reverse{5000, "op-7", "returned"})
                         .Add(Reversed{"p-1", 0})
                         .Build(),
                     SaleBuilder("s-pix", 3000).PixPaid("b-1", "d-1", 3000).Build()},
                    {Purchase("s-card", "p-1", "canceled", 0, 0), Deposit("s-pix", "d-1", "b-1", 3000, 3000)});
  in.outbox = {{3, "sale/s-9/a1", "invoice.create", "pending", "s-9", 4500, ""}};
  in.ledger = {true, 2, 3000, 0, 3000, true, 123456};
  const std::string json = ReportJson(Reconcile(in));
  EXPECT_EQ(json, ReportJson(Reconcile(in)));
  const auto doc = nlohmann::json::parse(json);
  EXPECT_EQ(doc["status"], "attention");
  EXPECT_EQ(doc["ledger"]["net"], 3000);
  EXPECT_EQ(doc["ledger"]["other_net"], 0);
  EXPECT_EQ(doc["sales"].size(), 2u);

  auto summary = DaySummaryFromJson(json, printer::Merchant{"PADARIA"}, kNow);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  EXPECT_EQ(summary->business_day, "2025-11-21");
  ASSERT_EQ(summary->totals.size(), 2u);
  EXPECT_EQ(summary->totals[0].method, "credit");
  EXPECT_EQ(summary->totals[0].amount_cents, 5000);
  EXPECT_EQ(summary->totals[1].method, "pix");
  EXPECT_EQ(summary->refund_count, 1);
  EXPECT_EQ(summary->refunds_cents, 5000);
  EXPECT_EQ(summary->pending_offline, 1);
  EXPECT_FALSE(DaySummaryFromJson("[1]", {}, kNow).ok());
  auto missing = DaySummaryFromJson(R"({"day":"2025-11-21"})", {}, kNow);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("totals"), std::string::npos);
}

}  // namespace
}  // namespace balcao::settlement
