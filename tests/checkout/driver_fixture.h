// The fixture of the checkout driver's end-to-end tests: an in-process sandbox (real signed
// HTTP on loopback), a real SQLite journal file, a driver whose clock follows the sandbox's
// (and may run faster than real time, so 1 s polls take a fraction of that), the effects the
// counter saw, a restart (a new driver on the same file), a child process SIGKILLed at the
// k-th crash-hook point, a script that plays the customer and the cashier from whatever
// state a sale is in, and read-backs of the sandbox's entities and ledger.
// Thread-safety: one test thread (plus killed children, separate processes that own the journal
// while alive: tests/checkout/kill_child.h).
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "api/bank.h"
#include "checkout/driver/driver.h"
#include "checkout/driver/intake.h"
#include "offline/journal.h"
#include "offline/store.h"
#include "tests/sandbox/sandbox_client.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace balcao::checkout::e2e {

// A card with the cardholder's contact and billing address, as the touchscreen's customer form
// sends them (3-D Secure requires them), and the device it was typed on.
inline CardData TestCard(const std::string& number) {
  return {number,
          "123",
          "2035-01",
          "MARIA SILVA",
          "maria.silva@example.com",
          "+5511987654321",
          {"Rua Augusta, 1500", "apto 12", "Sao Paulo", "SP", "01304-001", "BRA"}};
}
inline BrowserData TestBrowser() { return {"Mozilla/5.0 (balcao checkout tests)", "127.0.0.1", "pt-BR", 180, ""}; }

using sandbox::testing::Json;

// The sandbox's time as the driver must see it (system time plus however far the simulation
// API moved the sandbox), optionally sped up: at speed 5 a 1 s poll is due after 0.2 s.
class TestClock final : public Clock {
 public:
  UnixMicros Now() const override {
    const UnixMicros real = SystemClock::Instance().Now();
    return real + offset_.load() + (real - base_) * (speed_.load() - 1);
  }
  void Follow(UnixMicros sandbox_now) { offset_ = offset_.load() + (sandbox_now - Now()); }
  // The clock's state, so a re-executed child (kill_child.h) runs on the same time.
  nlohmann::json Save() const { return {{"offset", offset_.load()}, {"speed", speed_.load()}, {"base", base_}}; }
  void Restore(const nlohmann::json& state) {
    offset_ = state.at("offset").get<UnixMicros>();
    speed_ = state.at("speed").get<int>();
    base_ = state.at("base").get<UnixMicros>();
  }
  void SetSpeed(int speed) {
    const UnixMicros now = Now();
    base_ = SystemClock::Instance().Now();
    speed_ = speed;
    offset_ = offset_.load() + (now - Now());
  }

 private:
  std::atomic<UnixMicros> offset_{0};
  std::atomic<int> speed_{1};
  UnixMicros base_ = SystemClock::Instance().Now();
};

// The store's clock (StoreOptions::clock): the system's, unless a test pins it to a moment
// (the settlement's sales rung up "yesterday").
class PinnableClock final : public Clock {
 public:
  UnixMicros Now() const override {
    const UnixMicros at = pinned_.load();
    return at != 0 ? at : SystemClock::Instance().Now();
  }
  UnixMicros pinned() const { return pinned_.load(); }
  void Pin(UnixMicros at) { pinned_ = at; }
  void Unpin() { pinned_ = 0; }

 private:
  std::atomic<UnixMicros> pinned_{0};  // 0: not pinned
};

// What the customer and the cashier do in one sale, whatever state it is found in, so the
// same script runs a sale from the start or finishes one resumed after a crash.
struct Script {
  Method method = Method::kPix;
  Cents amount = 1000;
  Cents reverse = 0;    // given back after payment by operator "op-7" (0: nothing)
  bool cancel = false;  // the cashier cancels (operator "op-7") instead of the customer paying
  Customer customer{"Maria da Silva", "337.451.076-08"};
  std::string card = "4242424242424242";  // 5500000000000004: a 3-D Secure challenge, passed
  // Card: before reversing, let the bank confirm the purchase (sandbox clock +31 s) and learn
  // it from the bank's events (Intake::CatchUp), so the reversal is a PATCH reversed.
  bool await_confirmation = false;
  // Pix: the customer does not pay the QR; once it expired, the cashier falls back to an
  // invoice, which the customer pays.
  bool pix_expires_then_invoice = false;
};
// Plays `script` on sale `id` until it is over (Paid as scripted, Refunded, Voided) or the
// driver crashed; `payer` pays QR codes and invoices through the simulation API; `intake`
// (over the same driver) is needed for await_confirmation.
void Play(Driver& driver, const std::string& id, const Script& script, sandbox::testing::Client& payer,
          const Clock& clock, Intake* intake = nullptr);

class DriverE2E : public sandbox::testing::SandboxTest {
 protected:
  void SetUp() override;
  void TearDown() override;

  // A fresh driver on the same journal file: what a restarted process gets.
  void OpenDriver();
  std::string NewSaleId() { return "e2e-" + std::to_string(::getpid()) + "-" + std::to_string(++counter_); }
  UnixMicros Now() const { return clock_.Now(); }
  // Moves the sandbox clock (its jobs run: overdue invoices, confirmations...); the driver follows.
  void AdvanceSandbox(std::int64_t seconds);

  // Runs the sale's timers until `done` holds (at most ~`seconds` of real time).
  template <typename Pred>
  Sale RunUntil(const std::string& id, Pred done, int seconds = 15) {
    auto sale = driver_->Get(id);
    for (int i = 0; i < seconds * 4 && sale.ok() && !done(*sale); ++i) {
      (void)driver_->RunUntilSettled(id, Now() + kMicrosPerSecond / 4);
      sale = driver_->Get(id);
    }
    EXPECT_OK(sale);
    return sale.ok() ? *sale : Sale{};
  }
  Sale Settle(const std::string& id);
  Sale Fed(const std::string& id, const Event& event);  // Feed, expecting acceptance

  // The counter's view: effects the observer got for a sale.
  std::vector<FlagOperator> Flags(const std::string& sale_id) const;
  std::vector<Print> Prints(const std::string& sale_id, Slip slip) const;

  // The bank's view: entities of `resource` carrying `tag` (the sale's tag for AtBank).
  Json Listed(const std::string& resource, const std::string& tag);
  std::size_t Tagged(const std::string& resource, const std::string& tag) { return Listed(resource, tag).size(); }
  std::size_t AtBank(const std::string& resource, const std::string& sale_id) {
    return Tagged(resource, SaleTag(sale_id));
  }
  // The ledger for a tag: what the workspace kept (credits and debits, fees added back) and
  // how many debits (reversals) it holds.
  struct Ledger {
    Cents net = 0;
    int credits = 0;
    int debits = 0;
  };
  Ledger LedgerOf(const std::string& tag);
  CardData Card(const std::string& number) { return TestCard(number); }
  void Fault(const std::string& route, const std::string& fault = "commit-then-drop-response");

  // Runs the child flow `flow` (kill_child.h, registered by name) on sale `sale_id` in a
  // fresh process (this binary re-executed) whose driver SIGKILLs itself right after its k-th
  // journal write or bank call, then reopens the journal here. True when the child died of
  // SIGKILL (false: the flow ended before the k-th point). A child still alive after 120 s is
  // killed and the test fails naming the last step it reached.
  bool RunChildKilledAt(int k, const std::string& flow, const std::string& sale_id,
                        const nlohmann::json& params = nlohmann::json::object());

  // The journal's database, in a directory of its own (mkdtemp): a name made of the pid would
  // meet, after the pid comes round again, an earlier run's leftover -wal file and replay it.
  std::unique_ptr<test_util::TempDir> db_dir_;
  std::string db_;
  Settings settings_;
  TestClock clock_;
  PinnableClock store_clock_;
  std::unique_ptr<offline::Store> store_;
  std::unique_ptr<offline::Journal> journal_;
  std::unique_ptr<Driver> driver_;
  std::vector<std::pair<std::string, Effect>> seen_;  // (sale id, effect) the observer got
  static inline int counter_ = 0;
};

std::string StateOf(const Sale& sale);

}  // namespace balcao::checkout::e2e
