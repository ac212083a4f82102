// A box whose clock is wrong: `balcao serve` under libfaketime (Debian's faketime), its clock
// 10 minutes ahead or behind, against a bank on time (the sandbox, in this test's process). The
// bank refuses an Access-Time 5 minutes off; the service learns the bank's time from its
// answers' Date and signs with it, so Pix and card sales go through, and the offset is shown
// (relógio do caixa) on the touchscreen's health, /readyz and /metrics, never as a decline. And
// a clock that jumps an hour mid-sale expires nothing early.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <ostream>
#include <random>
#include <thread>

#include "sandbox/sandbox.h"
#include "tests/terminal/fault_fixture.h"

namespace balcao::terminal::testing {
namespace {

struct ClockCase {
  const char* name;
  const char* faketime;  // FAKETIME: the box's clock this far from the real one
  double offset_s;       // the bank's minus the box's, as the service should measure it
};

// The test's name in ctest's list: the offset (not the struct's bytes).
void PrintTo(const ClockCase& c, std::ostream* out) { *out << "FAKETIME=" << c.faketime; }

class FaultClock : public ::testing::TestWithParam<ClockCase> {};

TEST_P(FaultClock, SalesGoThroughAndTheOffsetIsShownNotDeclined) {
  const ClockCase& c = GetParam();
  const std::string faketime = FaketimeLibrary();
  ASSERT_FALSE(faketime.empty()) << "libfaketime is missing: install the faketime package (deploy/install-deps.sh)";
  std::mt19937_64 rng(FaultSeed());
  const auto dir = FreshDir(std::string("fault-clock-") + c.name);
  sandbox::SandboxOptions options;
  options.data_dir = (dir / "bank").string();
  options.https = false;
  options.tick_millis = 100;
  auto bank = sandbox::Sandbox::Start(options);
  ASSERT_TRUE(bank.ok()) << bank.status().ToString();
  const std::string bank_url = "http://127.0.0.1:" + std::to_string((*bank)->port());
  const std::string config = WriteConfig(dir, {{"checkout", {{"poll_interval_s", 1}}}});

  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config},
              {{"BALCAO_CREDENTIALS", (*bank)->credentials().credentials_path},
               {"LD_PRELOAD", faketime},
               {"FAKETIME", c.faketime},
               {"FAKETIME_DONT_FAKE_MONOTONIC", "1"}});
  ASSERT_TRUE(serve.running());

  std::map<std::string, long long> opened, paid;
  // Pix: the QR is created at the bank (signed with the bank's time), the payer pays it.
  const long long pix_amount = std::uniform_int_distribution<long long>(100, 99'999)(rng);
  const std::string pix = serve.NewSale(pix_amount)["id"].get<std::string>();
  opened[pix] = pix_amount;
  const Reply shown = serve.Post("/api/sales/" + pix + "/method", {{"method", "pix"}});
  ASSERT_EQ(shown.status, 200) << shown.body;
  ASSERT_EQ(shown.json["status"], "pix") << shown.body;
  const Reply pay = Http("POST", bank_url + "/sandbox/dynamic-brcode/pay",
                         Json{{"uuid", BankId(shown.json, "brcode")}, {"name", "Cliente"}}.dump());
  ASSERT_EQ(pay.status, 200) << pay.body;
  serve.WaitFor(pix, "paid");
  paid[pix] = pix_amount;

  // Card, approved.
  const long long card_amount = std::uniform_int_distribution<long long>(100, 99'999)(rng);
  const std::string card = serve.NewSale(card_amount)["id"].get<std::string>();
  opened[card] = card_amount;
  ASSERT_EQ(serve.Post("/api/sales/" + card + "/method", {{"method", "card"}}).json["status"], "enter-card");
  const Reply charged = serve.Post("/api/sales/" + card + "/card", WithCardCustomer({{"number", "5277696455399733"},
                                                                                     {"expiry", "12/34"},
                                                                                     {"security_code", "737"},
                                                                                     {"holder_name", "MARIA SOUZA"},
                                                                                     {"installments", 1}}));
  ASSERT_EQ(charged.status, 200) << charged.body;
  EXPECT_EQ(charged.json["status"], "paid") << charged.body;
  paid[card] = card_amount;

  // The offset, where the operator looks: the touchscreen's health, /readyz, /metrics.
  const Reply status = serve.Get("/api/status");
  const Json clock = status.json["health"]["clock"];
  EXPECT_FALSE(clock["ok"].get<bool>()) << status.body;
  EXPECT_NE(clock["message"].get<std::string>().find("relógio do caixa"), std::string::npos) << status.body;
  EXPECT_NEAR(clock["offset_s"].get<double>(), c.offset_s, 5) << status.body;
  EXPECT_EQ(status.body.find("recusad"), std::string::npos) << status.body;
  const Reply ready = serve.Get("/readyz");
  EXPECT_EQ(ready.status, 200) << ready.body;
  EXPECT_NE(ready.json["checks"]["clock"].value("warning", "").find("relógio do caixa"), std::string::npos)
      << ready.body;
  EXPECT_NEAR(MetricValue(serve, "balcao_clock_offset_seconds"), c.offset_s, 5);

  ExpectBooksBalance(serve, opened, paid);
  EXPECT_EQ((*bank)->CountForTest("merchant-purchase"), 1);
  serve.Stop();
  (*bank)->Stop();
}

// The box's clock jumps an hour ahead while a Pix QR is shown and an invoice waits in the
// outbox (a wall clock set by hand, NTP arriving late): nothing the bank dated expires early,
// the QR is paid, the invoice goes out, and the books balance.
TEST(FaultClockJump, AnHourAheadMidSaleExpiresNothingEarly) {
  const std::string faketime = FaketimeLibrary();
  ASSERT_FALSE(faketime.empty()) << "libfaketime is missing: install the faketime package (deploy/install-deps.sh)";
  std::mt19937_64 rng(FaultSeed());
  const auto dir = FreshDir("fault-clock-jump");
  sandbox::SandboxOptions options;
  options.data_dir = (dir / "bank").string();
  options.https = false;
  options.tick_millis = 100;
  auto bank = sandbox::Sandbox::Start(options);
  ASSERT_TRUE(bank.ok()) << bank.status().ToString();
  const std::string bank_url = "http://127.0.0.1:" + std::to_string((*bank)->port());
  // A Pix QR valid 2 minutes: an hour's jump of a clock it were measured with would expire it.
  const std::string config = WriteConfig(dir, {{"checkout", {{"poll_interval_s", 1}, {"pix_expiration_s", 120}}}});
  const auto offset_file = dir / "faketime";
  std::ofstream(offset_file) << "+0\n";

  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config},
              {{"BALCAO_CREDENTIALS", (*bank)->credentials().credentials_path},
               {"LD_PRELOAD", faketime},
               {"FAKETIME_TIMESTAMP_FILE", offset_file.string()},
               {"FAKETIME_CACHE_DURATION", "1"},
               {"FAKETIME_DONT_FAKE_MONOTONIC", "1"}});
  ASSERT_TRUE(serve.running());
  std::map<std::string, long long> opened, paid;
  const long long amount = std::uniform_int_distribution<long long>(100, 99'999)(rng);
  const std::string pix = serve.NewSale(amount)["id"].get<std::string>();
  opened[pix] = amount;
  const Reply shown = serve.Post("/api/sales/" + pix + "/method", {{"method", "pix"}});
  ASSERT_EQ(shown.json["status"], "pix") << shown.body;

  std::ofstream(offset_file) << "+1h\n";                 // the jump
  std::this_thread::sleep_for(std::chrono::seconds(3));  // ticks and polls run across it
  EXPECT_EQ(serve.Get("/api/sales/" + pix).json["status"], "pix") << "the QR must not expire early";
  const Reply pay = Http("POST", bank_url + "/sandbox/dynamic-brcode/pay",
                         Json{{"uuid", BankId(shown.json, "brcode")}, {"name", "Cliente"}}.dump());
  ASSERT_EQ(pay.status, 200) << pay.body;
  serve.WaitFor(pix, "paid");
  paid[pix] = amount;

  // An invoice after the jump: created at the bank (signed with the bank's time).
  const long long invoice_amount = std::uniform_int_distribution<long long>(100, 99'999)(rng);
  const std::string invoice = serve.NewSale(invoice_amount)["id"].get<std::string>();
  opened[invoice] = invoice_amount;
  const Reply issued =
      serve.Post("/api/sales/" + invoice + "/method",
                 {{"method", "invoice"}, {"customer", {{"name", "Maria da Silva"}, {"tax_id", "337.451.076-08"}}}});
  EXPECT_EQ(issued.json["status"], "invoice") << issued.body;
  EXPECT_NEAR(serve.Get("/api/status").json["health"]["clock"]["offset_s"].get<double>(), -3600, 5);
  ExpectBooksBalance(serve, opened, paid);
  serve.Stop();
  (*bank)->Stop();
}

INSTANTIATE_TEST_SUITE_P(TenMinutes, FaultClock,
                         ::testing::Values(ClockCase{"ahead", "+10m", -600}, ClockCase{"behind", "-10m", 600}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace balcao::terminal::testing
