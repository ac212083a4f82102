// The settlement's end-to-end fixture: the checkout driver's (an in-process sandbox, a real
// SQLite store, a driver whose clock follows the sandbox's) with the sandbox reset per test
// (orphans are read day-wide), plus helpers to ring up sales and read reports back.
// Thread-safety: one test thread.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

#include "checkout/journal_codec.h"
#include "offline/internal/db.h"
#include "settlement/settle.h"
#include "tests/checkout/driver_fixture.h"

namespace balcao::settlement::e2e {

using checkout::e2e::DriverE2E;
using checkout::e2e::Script;
using checkout::e2e::StateOf;
using nlohmann::json;

// The store's clock set to yesterday noon (Sao Paulo) while sales are rung up: their journal
// says they opened yesterday.
class FixedClock final : public Clock {
 public:
  explicit FixedClock(UnixMicros at) : at_(at) {}
  UnixMicros Now() const override { return at_; }

 private:
  UnixMicros at_;
};

class SettleE2E : public DriverE2E {
 protected:
  void SetUp() override {
    DriverE2E::SetUp();
    ASSERT_EQ(api().Sim("/sandbox/reset").status, 200);  // orphans are read day-wide
  }
  api::Bank Bank() {
    auto client = api::Client::FromEnvironment(sandbox().credentials().credentials_path);
    EXPECT_TRUE(client.ok()) << client.status().ToString();
    return api::Bank(*client);
  }
  std::string Today() const { return BusinessDayOf(SystemClock::Instance().Now()); }
  // In the day's first minutes the run looks sales up by tag too (the bank's clock may be
  // behind the box's): exact call counts hold only after them.
  bool PastTheDaysFirstMinutes() const {
    return SystemClock::Instance().Now() - *BusinessDayStart(Today()) > 10 * 60 * kMicrosPerSecond;
  }

  checkout::Sale Paid(const std::string& id, const Script& script) {
    EXPECT_TRUE(driver_->Open(id, script.amount, settings_).ok());
    checkout::e2e::Play(*driver_, id, script, api(), clock_);
    return *driver_->Get(id);
  }
  // A sale the customer left with its invoice (PayLater); returns the invoice's id.
  std::string PayLater(const std::string& id, checkout::Cents amount) {
    using namespace checkout;
    EXPECT_TRUE(driver_->Open(id, amount, settings_).ok());
    Fed(id, ChooseMethod{Method::kInvoice, Customer{"Maria da Silva", "337.451.076-08"}, Now()});
    const Sale shown = RunUntil(id, [](const Sale& s) { return std::holds_alternative<ShowingInvoice>(s.state); });
    if (!std::holds_alternative<ShowingInvoice>(shown.state)) {
      ADD_FAILURE() << "no invoice shown for " << id;
      return "";
    }
    EXPECT_EQ(StateOf(Fed(id, KeepOpen{Now()})), "PayLater");
    return std::get<ShowingInvoice>(shown.state).invoice.id;
  }
  // Runs `ring_up` with the store's clock at yesterday noon (Sao Paulo): the journal says the
  // sales it opens opened yesterday.
  template <typename Fn>
  void Yesterday(Fn ring_up) {
    const FixedClock then(*BusinessDayStart(PreviousBusinessDay(SystemClock::Instance().Now())) +
                          12 * 3600 * kMicrosPerSecond);
    offline::internal::SetClockForTest(&then);
    ring_up();
    offline::internal::SetClockForTest(nullptr);
  }
  // A Pix QR shown, then the sale driven to `until` (by the cashier's events).
  checkout::Sale PixShown(const std::string& id, checkout::Cents amount) {
    EXPECT_TRUE(driver_->Open(id, amount, settings_).ok());
    Fed(id, checkout::ChooseMethod{checkout::Method::kPix, {}, Now()});
    return RunUntil(id, [](const checkout::Sale& s) { return std::holds_alternative<checkout::ShowingPix>(s.state); });
  }
  checkout::Sale Replayed(const std::string& id) {
    auto entries = journal_->Read(id);
    EXPECT_TRUE(entries.ok());
    std::vector<checkout::Event> events;
    for (const auto& entry : *entries) events.push_back(*checkout::EventFromJson(entry.payload));
    return checkout::Replay(events);
  }
  static json SaleIn(const json& report, const std::string& id) {
    for (const json& s : report["sales"]) {
      if (s["id"] == id) return s;
    }
    ADD_FAILURE() << "no sale " << id << " in the report";
    return json::object();
  }
  static json TotalOf(const json& report, const std::string& method) {
    for (const json& t : report["totals"]) {
      if (t["method"] == method) return t;
    }
    return json::object();
  }
};

}  // namespace balcao::settlement::e2e
