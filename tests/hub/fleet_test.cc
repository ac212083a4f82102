// The fleet's view (hub/fleet.h), pure: silent after 5 minutes without a heartbeat (or never
// seen), a rewritten journal flagged, today's totals only from heartbeats of today.
#include "hub/fleet.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace balcao::hub {
namespace {

constexpr UnixMicros kNow = 1'800'000'000LL * kMicrosPerSecond;

std::string Beat(const std::string& day, int sales, long long collected) {
  return nlohmann::json{{"version", "0.1.0"},
                        {"health", {{"clock", {{"ok", true}, {"message", "ok"}, {"offset_s", 2}}}}},
                        {"queue", {{"depth", 3}, {"oldest_age_s", 40}}},
                        {"today", {{"day", day}, {"sales", sales}, {"collected", collected}}}}
      .dump();
}

TEST(Fleet, SilentTamperedAndToday) {
  const std::string today = BusinessDayOf(kNow);
  const std::vector<FleetLane> lanes = {
      {"loja-1", "caixa-1", Beat(today, 2, 500), kNow - 60 * kMicrosPerSecond, "", 4},
      {"loja-1", "caixa-2", Beat(today, 1, 100), kNow - 6 * 60 * kMicrosPerSecond, "row 3 rewritten", 1},
      {"loja-2", "caixa-1", Beat("2000-01-01", 9, 900), kNow - kMicrosPerSecond, "", 0},
      {"loja-2", "caixa-2", "", 0, "", 0},
  };
  const FleetCounts counts = CountFleet(lanes, kNow);
  EXPECT_EQ(counts.lanes, 4);
  EXPECT_EQ(counts.silent, 2);
  EXPECT_EQ(counts.tampered, 1);
  const auto doc = nlohmann::json::parse(FleetJson(lanes, kNow, today));
  EXPECT_EQ(doc["today"]["sales"], 3);
  EXPECT_EQ(doc["today"]["collected"], 600);
  EXPECT_EQ(doc["stores"][0]["today"]["collected"], 600);
  EXPECT_EQ(doc["stores"][1]["today"]["sales"], 0) << "yesterday's heartbeat counts nothing today";
  const auto& first = doc["stores"][0]["lanes"][0];
  EXPECT_EQ(first["silent"], false);
  EXPECT_EQ(first["clock_offset_s"], 2);
  EXPECT_EQ(first["queue_depth"], 3);
  EXPECT_EQ(doc["stores"][0]["lanes"][1]["silent"], true);
  EXPECT_EQ(doc["stores"][0]["lanes"][1]["chain"], "row 3 rewritten");
  EXPECT_EQ(doc["stores"][1]["lanes"][1]["seen"], false);
}

// The user's choice first, then the browser's Accept-Language by q, then pt-BR.
TEST(FleetLanguage, TheChoiceThenAcceptLanguageThenPortuguese) {
  EXPECT_EQ(FleetLanguage("en-US", "pt-BR"), "en-US");
  EXPECT_EQ(FleetLanguage("pt-BR", "en-US"), "pt-BR");
  EXPECT_EQ(FleetLanguage("fr-FR", "en-GB,en;q=0.9"), "en-US") << "a cookie naming no language is ignored";
  EXPECT_EQ(FleetLanguage("", ""), "pt-BR");
  EXPECT_EQ(FleetLanguage("", "de-DE, fr;q=0.9"), "pt-BR");
  EXPECT_EQ(FleetLanguage("", "EN"), "en-US");
  EXPECT_EQ(FleetLanguage("", "pt-PT;q=0.5, en-US;q=0.8"), "en-US");
  EXPECT_EQ(FleetLanguage("", "en-US;q=0.8, pt-BR"), "pt-BR");
  EXPECT_EQ(FleetLanguage("", "en;q=0.7, pt;q=0.7"), "en-US") << "equal q: the first";
  EXPECT_EQ(FleetLanguage("", "en;q=0, de"), "pt-BR") << "q=0 refuses it";
  EXPECT_EQ(FleetLanguage("", "en;q=2, *;q=0.1"), "pt-BR") << "a bad q counts for nothing";
  EXPECT_EQ(FleetLanguage("", "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7"), "en-US");
}

}  // namespace
}  // namespace balcao::hub
