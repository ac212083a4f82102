// A box whose clock is wrong: `balcao serve` under libfaketime (Debian's faketime), against a
// bank on time in a process of its own (`balcao sandbox`, on loopback, its own port). The bank
// refuses an Access-Time 5 minutes off; the service learns the bank's time from its answers'
// Date and signs with it (docs/adr/0005-bank-time.md).
//  - The clock 10 minutes ahead or behind: Pix and card sales go through, and the offset is
//    shown (relógio do caixa) on the touchscreen's health, /readyz and /metrics, never as a
//    decline.
//  - The clock jumps an hour ahead in the middle of an outbox drain (invoices queued while the
//    bank was unreachable, sent when it is back): each queued request reaches the bank once, a
//    Pix QR shown before expires nothing early, and the books balance to the cent.
#include <gtest/gtest.h>

#include <fstream>
#include <ostream>
#include <random>
#include <set>
#include <thread>

#include "tests/terminal/fault_fixture.h"
#include "tests/testing/loopback.h"

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
  SandboxProcess bank;
  bank.Start(dir / "bank");
  ASSERT_TRUE(bank.running());
  const std::string config = WriteConfig(dir, {{"checkout", {{"poll_interval_s", 1}}}});

  // As `faketime -f +10m balcao serve` runs it: the monotonic clock shifted too (libfaketime's
  // default), which a wait on an absolute steady-clock deadline would sleep through.
  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config},
              {{"BALCAO_CREDENTIALS", bank.credentials()}, {"LD_PRELOAD", faketime}, {"FAKETIME", c.faketime}});
  ASSERT_TRUE(serve.running());

  std::map<std::string, long long> opened, paid;
  // Pix: the QR is created at the bank (signed with the bank's time), the payer pays it.
  const std::string pix = OpenSale(serve, rng, opened);
  ASSERT_FALSE(pix.empty());
  PayByPix(serve, bank.url(), pix, opened, paid);
  // Card, approved.
  const std::string card = OpenSale(serve, rng, opened);
  ASSERT_FALSE(card.empty());
  PayByCard(serve, card, opened, paid);

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
  EXPECT_EQ(bank.List("merchant-purchase").size(), 1u) << "the card was charged once";
  EXPECT_EQ(bank.List("deposit").size(), 1u) << "the Pix was paid once";
  serve.Stop();
  bank.Stop();
}

INSTANTIATE_TEST_SUITE_P(TenMinutes, FaultClock,
                         ::testing::Values(ClockCase{"ahead", "+10m", -600}, ClockCase{"behind", "-10m", 600}),
                         [](const auto& info) { return std::string(info.param.name); });

// The sale views of `ids` whose status is not `status`.
int CountNot(const ServeProcess& serve, const std::vector<std::string>& ids, const std::string& status) {
  int count = 0;
  for (const std::string& id : ids) count += serve.Get("/api/sales/" + id).json.value("status", "") != status;
  return count;
}

// The box's clock jumps an hour ahead (a wall clock set by hand, NTP arriving late) while its
// outbox drains: invoices queued while the bank was unreachable go out when it is back, each
// answer held (the bank's --latency) so that the drain spans the jump. Rows sent after it are
// signed with the bank's time, which a step of the wall clock does not move
// (docs/adr/0005-bank-time.md); nothing is sent twice, nothing is lost.
TEST(FaultClockJump, AnHourAheadMidDrainSendsEachQueuedRequestOnce) {
  const std::string faketime = FaketimeLibrary();
  ASSERT_FALSE(faketime.empty()) << "libfaketime is missing: install the faketime package (deploy/install-deps.sh)";
  std::mt19937_64 rng(FaultSeed());
  const auto dir = FreshDir("fault-clock-jump");
  SandboxProcess bank;
  bank.Start(dir / "bank");
  ASSERT_TRUE(bank.running());
  // A Pix QR valid 2 minutes: an hour's jump of a clock it were measured with would expire it.
  // An invoice issued by the drainer waits for the customer (pay-later): its payment reaches
  // the box by its webhook or its catch-up, not by a poll.
  const int port = test_util::FreeLoopbackPort();
  const std::string config = WriteConfig(
      dir, {{"checkout", {{"poll_interval_s", 1}, {"pix_expiration_s", 120}}},
            {"webhook_url", "http://127.0.0.1:" + std::to_string(port) + "/bank/webhook"},
            {"catch_up_interval_s", 1},
            {"connectivity", {{"online_interval_ms", 300}, {"backoff_initial_ms", 100}, {"backoff_max_ms", 500}}}});
  // libfaketime reads the offset from this file at every call (no cache): the jump is a write.
  // The wall clock only: a box's monotonic clock does not move when its wall clock is set.
  const auto offset_file = dir / "faketime";
  std::ofstream(offset_file) << "+0\n";
  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config, "--port", std::to_string(port)},
              {{"BALCAO_CREDENTIALS", bank.credentials()},
               {"LD_PRELOAD", faketime},
               {"FAKETIME_TIMESTAMP_FILE", offset_file.string()},
               {"FAKETIME_NO_CACHE", "1"},
               {"FAKETIME_DONT_FAKE_MONOTONIC", "1"}});
  ASSERT_TRUE(serve.running());
  std::map<std::string, long long> opened, paid;
  const std::string pix = OpenSale(serve, rng, opened);
  const Reply shown = serve.Post("/api/sales/" + pix + "/method", {{"method", "pix"}});
  ASSERT_EQ(shown.json["status"], "pix") << shown.body;

  // The bank goes away; the cashier issues invoices, which wait in the outbox.
  bank.Stop();
  ASSERT_TRUE(Eventually([&] { return !serve.Get("/api/status").json.value("online", true); }))
      << serve.Get("/api/status").body;
  std::vector<std::string> invoices;
  const int queued = std::uniform_int_distribution<int>(9, 12)(rng);
  for (int i = 0; i < queued; ++i) {
    invoices.push_back(OpenSale(serve, rng, opened));
    const Reply issued = serve.Post("/api/sales/" + invoices.back() + "/method",
                                    {{"method", "invoice"}, {"customer", InvoiceCustomer()}});
    ASSERT_EQ(issued.json["status"], "queued") << issued.body;
  }

  // The bank is back, each answer 0.8 s late; the drainer sends 4 rows at once, so the drain
  // takes 3 rounds or more. The box sees the bank again when its probe is answered, and its
  // drainer starts at once: the jump comes then, with the first round in flight (signed before
  // it) and the later rounds signed after it.
  bank.Start(dir / "bank", {"--latency", "800ms"});
  ASSERT_TRUE(bank.running());
  ASSERT_TRUE(
      Eventually([&] { return serve.Get("/api/status").json.value("online", false); }, std::chrono::seconds(30)));
  std::ofstream(offset_file) << "+1h\n";  // the jump
  const int queued_at_jump = queued - CountNot(serve, invoices, "queued");
  EXPECT_GT(queued_at_jump, 0) << "the drain ended before the jump";
  for (const std::string& id : invoices) serve.WaitFor(id, "pay-later");
  EXPECT_EQ(serve.Get("/api/sales/" + pix).json["status"], "pix") << "the QR must not expire early";

  // Every queued invoice reached the bank once, with its amount; customers pay them and the QR.
  const Json at_the_bank = bank.List("invoice");
  ASSERT_EQ(at_the_bank.size(), invoices.size()) << at_the_bank.dump();
  std::map<std::string, long long> bank_amounts;
  for (const Json& invoice : at_the_bank)
    bank_amounts[invoice["id"].get<std::string>()] = invoice["amount"].get<long long>();
  std::set<std::string> bank_ids;
  for (const std::string& id : invoices) {
    const std::string bank_id = BankId(serve.Get("/api/sales/" + id).json, "invoice");
    EXPECT_TRUE(bank_ids.insert(bank_id).second) << "two sales, one invoice " << bank_id;
    ASSERT_TRUE(bank_amounts.count(bank_id)) << "sale " << id << "'s invoice " << bank_id << " is not at the bank";
    EXPECT_EQ(bank_amounts[bank_id], opened[id]) << id;
    ASSERT_EQ(bank.Simulate("invoice/pay", {{"id", bank_id}, {"name", "Maria da Silva"}}).status, 200);
  }
  // An invoice after the jump, issued at once (signed with the bank's time), paid too.
  const std::string after = OpenSale(serve, rng, opened);
  const Reply issued =
      serve.Post("/api/sales/" + after + "/method", {{"method", "invoice"}, {"customer", InvoiceCustomer()}});
  ASSERT_EQ(issued.json["status"], "invoice") << issued.body;
  ASSERT_EQ(bank.Simulate("invoice/pay", {{"id", BankId(issued.json, "invoice")}, {"name", "Cliente"}}).status, 200);
  const Reply pay = bank.Simulate("dynamic-brcode/pay", {{"uuid", BankId(shown.json, "brcode")}, {"name", "Cliente"}});
  ASSERT_EQ(pay.status, 200) << pay.body;
  // Every bank call of the box is 0.8 s late (polls, catch-ups, the payments' look-ups), so
  // the payments take longer to be seen than on a prompt bank.
  for (const auto& [id, amount] : opened) {
    serve.WaitFor(id, "paid", std::chrono::seconds(45));
    paid[id] = amount;
  }
  EXPECT_NEAR(serve.Get("/api/status").json["health"]["clock"]["offset_s"].get<double>(), -3600, 5);
  ExpectBooksBalance(serve, opened, paid);
  EXPECT_EQ(bank.List("deposit").size(), 1u) << "the Pix was paid once";
  serve.Stop();
  bank.Stop();
}

}  // namespace
}  // namespace balcao::terminal::testing
