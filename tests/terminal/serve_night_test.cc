// The night on the box's health (docs/settlement.md, "The night on the box's health"): the
// nightly `balcao settle` that could not settle its day (exit 2: here the bank unreachable)
// shows the next morning on /readyz (a warning: the counter still sells, 200) and on the
// touchscreen's health line (GET /api/status "health"), with its reason and what to run; the
// night run again with the bank back settles the day, and both clear. A box that has settled
// before and has no night for yesterday says so once the morning came (06:00 São Paulo).
// The screen follows the bank: a Pix deposit lowered at the bank with the account's
// credentials (`balcao api patch deposit`, behind the box's back) shows on the sale's view and
// the day's list (`bank_reversed`, "estornado no banco" in the web app) and on the health line
// until a night has run since; the money the box collected stays what it collected, and the
// night flags the difference (exit 1).
// The real `balcao serve` and `balcao settle` on one store, against a sandbox.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "common/time.h"
#include "tests/terminal/serve_fixture.h"
#include "tests/testing/loopback.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/test_bank.h"

namespace balcao::terminal::testing {
namespace {

UnixMicros Now() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string Text(const Json& doc, const char* key) { return doc.contains(key) ? doc[key].get<std::string>() : ""; }

TEST(ServeNight, AFailedNightShowsOnReadyzAndTheHealthLineUntilItsDayIsSettled) {
  const auto dir = FreshDir("serve-night");
  auto bank = test_util::StartTestBank(dir / "bank");
  ASSERT_OK(bank);
  const std::string credentials = (*bank)->credentials().credentials_path;
  ServeProcess serve;
  serve.Start(dir / "data", {}, {{"BALCAO_CREDENTIALS", credentials}});
  const std::string db = (dir / "data" / "balcao.db").string();
  const auto settle = [&](const std::string& day, const std::string& bank_url) {
    return RunShell("BALCAO_CREDENTIALS='" + credentials + "' " +
                    (bank_url.empty() ? "" : "BALCAO_BANK_URL=" + bank_url + " ") + "'" + BALCAO_CLI +
                    "' settle --lang en-US --db '" + db + "' --day " + day);
  };

  Reply ready = serve.Get("/readyz");
  EXPECT_EQ(ready.status, 200) << ready.body;
  EXPECT_EQ(Text(ready.json["checks"]["settlement"], "detail"), "no day settled yet") << ready.body;

  // The timer's run of yesterday, with the bank unreachable: exit 2, nothing recorded.
  const std::string day = PreviousBusinessDay(Now());
  const test_util::RefusingLoopbackPort unreachable_bank;
  const std::string closed = unreachable_bank.Url("/v2");
  const ShellRun failed = settle(day, closed);
  ASSERT_EQ(failed.code, 2) << failed.out;

  ready = serve.Get("/readyz");
  EXPECT_EQ(ready.status, 200) << "the counter still sells: " << ready.body;
  const std::string warning = Text(ready.json["checks"]["settlement"], "warning");
  EXPECT_NE(warning.find("the settlement of " + day + " failed at "), std::string::npos) << ready.body;
  EXPECT_NE(warning.find("run `balcao settle --day " + day + "`"), std::string::npos) << ready.body;
  EXPECT_EQ(ready.json["status"], "ready") << ready.body;
  Json health = serve.Get("/api/status").json["health"]["settlement"];
  EXPECT_FALSE(health["ok"].get<bool>()) << health.dump();
  EXPECT_EQ(health["message"], warning);
  EXPECT_TRUE(std::filesystem::exists(dir / "data" / "settle-failed.json"));

  // The night again with the bank back: the day is settled (no sales: reconciled), both clear.
  const ShellRun settled = settle(day, "");
  ASSERT_EQ(settled.code, 0) << settled.out;
  ready = serve.Get("/readyz");
  EXPECT_FALSE(ready.json["checks"]["settlement"].contains("warning")) << ready.body;
  EXPECT_EQ(Text(ready.json["checks"]["settlement"], "detail"), day + " settled: reconciled") << ready.body;
  health = serve.Get("/api/status").json["health"]["settlement"];
  EXPECT_TRUE(health["ok"].get<bool>()) << health.dump();
  EXPECT_FALSE(std::filesystem::exists(dir / "data" / "settle-failed.json"));
  serve.Stop();
}

TEST(ServeNight, NoNightForYesterdayOnABoxThatSettlesIsShownOnceTheMorningCame) {
  const auto dir = FreshDir("serve-night-missed");
  auto bank = test_util::StartTestBank(dir / "bank");
  ASSERT_OK(bank);
  const std::string credentials = (*bank)->credentials().credentials_path;
  ServeProcess serve;
  serve.Start(dir / "data", {}, {{"BALCAO_CREDENTIALS", credentials}});
  // The box settled the day before yesterday; nothing ran for yesterday.
  const UnixMicros now = Now();
  const std::string yesterday = PreviousBusinessDay(now);
  const std::string before = PreviousBusinessDay(*BusinessDayStart(yesterday));
  const ShellRun settled = RunShell("BALCAO_CREDENTIALS='" + credentials + "' '" + BALCAO_CLI + "' settle --db '" +
                                    (dir / "data" / "balcao.db").string() + "' --day " + before);
  ASSERT_EQ(settled.code, 0) << settled.out;

  const Reply ready = serve.Get("/readyz");
  EXPECT_EQ(ready.status, 200) << ready.body;
  const Json& night = ready.json["checks"]["settlement"];
  const bool morning = Now() - BusinessDayStartOf(Now()) >= 6LL * 3600 * kMicrosPerSecond;
  if (morning) {
    EXPECT_NE(Text(night, "warning")
                  .find("no settlement of " + yesterday + " (last settled " + before +
                        "): the nightly run did not run for its day"),
              std::string::npos)
        << ready.body;
  } else {
    EXPECT_EQ(Text(night, "detail"), "last settled " + before + "; the night of " + yesterday + " runs at 02:30")
        << ready.body;
  }
  EXPECT_EQ(serve.Get("/api/status").json["health"]["settlement"]["ok"].get<bool>(), !morning);
  serve.Stop();
}

TEST(ServeNight, ADepositLoweredAtTheBankShowsOnTheSaleAndTheHealthLineUntilANightRuns) {
  const auto dir = FreshDir("serve-night-lowered");
  ServeProcess serve;
  serve.Start(dir / "data");  // the embedded sandbox, whose seeded webhook tells the box
  const std::string db = (dir / "data" / "balcao.db").string();
  const std::string id = serve.NewSale(1250)["id"].get<std::string>();
  const Reply chosen = serve.Post("/api/sales/" + id + "/method", {{"method", "pix"}});
  ASSERT_EQ(chosen.status, 200) << chosen.body;
  ASSERT_EQ(serve.Simulate("dynamic-brcode/pay", {{"uuid", BankId(chosen.json, "brcode")}}).status, 200);
  const Json paid = serve.WaitFor(id, "paid");
  ASSERT_TRUE(paid.contains("payment_id")) << paid.dump();
  EXPECT_EQ(paid["bank_reversed"], 0) << paid.dump();

  // Behind the box's back, with the account's credentials: R$ 12,50 lowered to R$ 9,50.
  const ShellRun lowered = RunShell("BALCAO_DB='" + db + "' '" + BALCAO_CLI + "' api patch deposit " +
                                    paid["payment_id"].get<std::string>() + " --json '{\"amount\":950}'");
  ASSERT_EQ(lowered.code, 0) << lowered.out;
  Json view;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    view = serve.Get("/api/sales/" + id).json;
    if (view.value("bank_reversed", 0) != 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  EXPECT_EQ(view["bank_reversed"], 300) << view.dump();
  EXPECT_EQ(view["collected"], 1250) << "what the box collected stays: " << view.dump();
  EXPECT_EQ(view["status"], "paid") << view.dump();
  const Json list = serve.Get("/api/sales").json;
  bool listed = false;
  for (const Json& row : list["sales"])
    if (row["id"] == id) listed = row["bank_reversed"] == 300;
  EXPECT_TRUE(listed) << list.dump();
  Json health = serve.Get("/api/status").json["health"]["settlement"];
  EXPECT_FALSE(health["ok"].get<bool>()) << health.dump();
  EXPECT_EQ(health["bank_reversed"], 300) << health.dump();
  EXPECT_EQ(health["message"], "reversed at the bank outside Balcão: R$ 3,00 of 1 sale(s) (" + id +
                                   "); the next night's settlement flags it");
  EXPECT_NE(Text(serve.Get("/readyz").json["checks"]["settlement"], "warning").find("R$ 3,00"), std::string::npos);

  // The night (yesterday's and today's) reads the bank and flags it: the health line clears,
  // the sale keeps saying what the bank took back.
  const UnixMicros now = Now();
  for (const std::string& day : {PreviousBusinessDay(now), BusinessDayOf(now)}) {
    const ShellRun night =
        RunShell("'" + std::string(BALCAO_CLI) + "' settle --lang en-US --db '" + db + "' --day " + day);
    EXPECT_EQ(night.code, day == BusinessDayOf(now) ? 1 : 0) << night.out;
    if (day == BusinessDayOf(now)) {
      EXPECT_NE(night.out.find("the bank holds R$ 9,50, the journal says R$ 12,50"), std::string::npos) << night.out;
    }
  }
  health = serve.Get("/api/status").json["health"]["settlement"];
  EXPECT_TRUE(health["ok"].get<bool>()) << health.dump();
  EXPECT_EQ(health["bank_reversed"], 0) << health.dump();
  EXPECT_EQ(serve.Get("/api/sales/" + id).json["bank_reversed"], 300);
  serve.Stop();
}

}  // namespace
}  // namespace balcao::terminal::testing
