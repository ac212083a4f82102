// common/metrics: the Prometheus text exposition (0.0.4) of counters, gauges and histograms,
// checked line by line: HELP/TYPE, label escaping, cumulative buckets with +Inf, _sum and
// _count, number formats, registration rules, and concurrent updates.
#include "common/metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <thread>

#include "tests/testing/status_matchers.h"

using ::balcao::test_util::StatusIs;

namespace balcao::metrics {
namespace {

using ::testing::HasSubstr;

TEST(MetricsText, EscapesHelpAndLabelValues) {
  EXPECT_EQ(EscapeHelp("a \\ b\nc \"q\""), "a \\\\ b\\nc \"q\"");  // quotes stay in HELP
  EXPECT_EQ(EscapeLabelValue("a \\ b\nc \"q\""), "a \\\\ b\\nc \\\"q\\\"");
  EXPECT_EQ(EscapeLabelValue("/v2/invoice/{id}"), "/v2/invoice/{id}");
}

TEST(MetricsText, FormatsNumbers) {
  EXPECT_EQ(FormatValue(0), "0");
  EXPECT_EQ(FormatValue(3), "3");
  EXPECT_EQ(FormatValue(-42), "-42");
  EXPECT_EQ(FormatValue(150000), "150000");
  EXPECT_EQ(FormatValue(0.005), "0.005");
  EXPECT_EQ(FormatValue(2.5), "2.5");
  EXPECT_EQ(FormatValue(0.1 + 0.2), "0.30000000000000004");  // reads back as the same double
  EXPECT_EQ(FormatValue(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(FormatValue(-std::numeric_limits<double>::infinity()), "-Inf");
  EXPECT_EQ(FormatValue(std::nan("")), "NaN");
}

TEST(MetricsText, ValidatesNames) {
  EXPECT_TRUE(IsValidMetricName("balcao_sales_total"));
  EXPECT_TRUE(IsValidMetricName("ns:rule_name"));
  EXPECT_FALSE(IsValidMetricName("1abc"));
  EXPECT_FALSE(IsValidMetricName("a-b"));
  EXPECT_FALSE(IsValidMetricName(""));
  EXPECT_TRUE(IsValidLabelName("method"));
  EXPECT_FALSE(IsValidLabelName("__name"));
  EXPECT_FALSE(IsValidLabelName("a:b"));
  EXPECT_FALSE(IsValidLabelName("9a"));
}

TEST(MetricsRegistry, RendersCountersAndGaugesWithLabels) {
  Registry registry;
  auto sales = registry.AddCounter("shop_sales_total", "Sales by method.\nSecond line", {"method", "note"});
  ASSERT_OK(sales);
  auto depth = registry.AddGauge("shop_queue_depth", "Rows waiting.");
  ASSERT_OK(depth);
  (*sales)->With({"pix", "say \"hi\"\\\n"}).Inc();
  (*sales)->With({"card", ""}).Inc(2);
  (*sales)->With({"pix", "say \"hi\"\\\n"}).Inc();
  (*sales)->With({"card", ""}).Inc(-5);  // never down
  (*depth)->With({}).Set(7);
  (*depth)->With({}).Add(-2);

  EXPECT_EQ(registry.Render(),
            "# HELP shop_sales_total Sales by method.\\nSecond line\n"
            "# TYPE shop_sales_total counter\n"
            "shop_sales_total{method=\"card\",note=\"\"} 2\n"
            "shop_sales_total{method=\"pix\",note=\"say \\\"hi\\\"\\\\\\n\"} 2\n"
            "# HELP shop_queue_depth Rows waiting.\n"
            "# TYPE shop_queue_depth gauge\n"
            "shop_queue_depth 5\n");
}

TEST(MetricsRegistry, AFamilyWithoutLabelsShowsZeroBeforeAnyUpdate) {
  Registry registry;
  ASSERT_OK(registry.AddCounter("x_total", "X."));
  EXPECT_THAT(registry.Render(), HasSubstr("\nx_total 0\n"));
  ASSERT_OK(registry.AddGauge("y", "Y.", {"kind"}));
  EXPECT_THAT(registry.Render(), ::testing::EndsWith("# TYPE y gauge\n"));  // labelled: no child yet
}

TEST(MetricsRegistry, HistogramBucketsAreCumulativeWithInfSumAndCount) {
  Registry registry;
  auto latency = registry.AddHistogram("call_seconds", "Latency.", {"route"}, {0.125, 0.5, 1});
  ASSERT_OK(latency);
  Histogram& h = (*latency)->With({"/v2/invoice/{id}"});
  for (double v : {0.0625, 0.125, 0.25, 0.75, 2.0, 3.0}) h.Observe(v);  // 0.125 is in le="0.125"
  h.Observe(std::nan(""));                                              // ignored
  EXPECT_EQ(h.count(), 6u);
  EXPECT_EQ(h.CumulativeCounts(), (std::vector<std::uint64_t>{2, 3, 4, 6}));
  EXPECT_EQ(registry.Render(),
            "# HELP call_seconds Latency.\n"
            "# TYPE call_seconds histogram\n"
            "call_seconds_bucket{route=\"/v2/invoice/{id}\",le=\"0.125\"} 2\n"
            "call_seconds_bucket{route=\"/v2/invoice/{id}\",le=\"0.5\"} 3\n"
            "call_seconds_bucket{route=\"/v2/invoice/{id}\",le=\"1\"} 4\n"
            "call_seconds_bucket{route=\"/v2/invoice/{id}\",le=\"+Inf\"} 6\n"
            "call_seconds_sum{route=\"/v2/invoice/{id}\"} 6.1875\n"
            "call_seconds_count{route=\"/v2/invoice/{id}\"} 6\n");
}

TEST(MetricsRegistry, AHistogramWithoutLabelsPutsLeAlone) {
  Registry registry;
  auto h = registry.AddHistogram("h_seconds", "H.", {}, {1});
  ASSERT_OK(h);
  (*h)->With({}).Observe(0.5);
  EXPECT_THAT(registry.Render(), HasSubstr("h_seconds_bucket{le=\"1\"} 1\nh_seconds_bucket{le=\"+Inf\"} 1\n"
                                           "h_seconds_sum 0.5\nh_seconds_count 1\n"));
}

TEST(MetricsRegistry, RefusesBadRegistrationsNamingTheRule) {
  Registry registry;
  auto bad_name = registry.AddGauge("bad-name", "");
  EXPECT_THAT(bad_name, StatusIs(StatusCode::kInvalidArgument));
  EXPECT_THAT(bad_name.status().message(), HasSubstr("bad-name"));
  EXPECT_THAT(registry.AddCounter("no_suffix", "").status().message(), HasSubstr("_total"));
  EXPECT_THAT(registry.AddGauge("g", "", {"__reserved"}).status().message(), HasSubstr("__reserved"));
  EXPECT_THAT(registry.AddGauge("g", "", {"a", "a"}).status().message(), HasSubstr("repeated"));
  EXPECT_THAT(registry.AddHistogram("h", "", {"le"}, {1}).status().message(), HasSubstr("reserved"));
  EXPECT_THAT(registry.AddHistogram("h", "", {}, {1, 1}).status().message(), HasSubstr("strictly increasing"));
  EXPECT_THAT(registry.AddHistogram("h", "", {}, {1, std::numeric_limits<double>::infinity()}).status().message(),
              HasSubstr("finite"));
  ASSERT_OK(registry.AddGauge("g", ""));
  EXPECT_THAT(registry.AddCounter("g", ""), StatusIs(StatusCode::kInvalidArgument));  // no _total
  EXPECT_THAT(registry.AddGauge("g", ""), StatusIs(StatusCode::kAlreadyExists));
}

TEST(MetricsRegistry, ConcurrentUpdatesAreAllCounted) {
  Registry registry;
  auto calls = registry.AddCounter("calls_total", "", {"thread"});
  auto latency = registry.AddHistogram("lat_seconds", "", {}, {0.5});
  ASSERT_OK(calls);
  ASSERT_OK(latency);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10000; ++i) {
        (*calls)->With({t % 2 ? "odd" : "even"}).Inc();
        (*latency)->With({}).Observe(i % 2 ? 0.25 : 1.0);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ((*calls)->With({"odd"}).value(), 20000);
  EXPECT_EQ((*calls)->With({"even"}).value(), 20000);
  Histogram& h = (*latency)->With({});
  EXPECT_EQ(h.CumulativeCounts(), (std::vector<std::uint64_t>{20000, 40000}));
  EXPECT_DOUBLE_EQ(h.sum(), 20000 * 0.25 + 20000 * 1.0);
}

}  // namespace
}  // namespace balcao::metrics
