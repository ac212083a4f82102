#include "tests/checkout/driver_fixture.h"

#include "common/time.h"

namespace balcao::checkout::e2e {

std::string StateOf(const Sale& sale) { return StateName(static_cast<int>(sale.state.index())); }

void Play(Driver& driver, const std::string& id, const Script& script, sandbox::testing::Client& payer,
          const Clock& clock, Intake* intake) {
  const CardData card = TestCard(script.card);
  for (int step = 0; step < 80 && !driver.crashed(); ++step) {
    auto sale = driver.Get(id);
    if (!sale.ok()) return;
    const UnixMicros now = clock.Now();
    const State& state = sale->state;
    if (const auto* choosing = std::get_if<ChoosingMethod>(&state)) {
      if (script.pix_expires_then_invoice && choosing->last_method == Method::kPix) {
        (void)driver.Feed(id, FallbackToInvoice{script.customer, now});
      } else {
        (void)driver.Feed(id, ChooseMethod{script.method, script.customer, now});
      }
    } else if (std::holds_alternative<AwaitingCard>(state)) {
      (void)driver.SubmitCard(id, card, FundingType::kCredit, 1, TestBrowser());
    } else if (script.cancel &&
               (std::holds_alternative<ShowingPix>(state) || std::holds_alternative<ShowingInvoice>(state))) {
      (void)driver.Feed(id, Cancel{"op-7", "customer changed their mind", now});
    } else if (script.pix_expires_then_invoice && std::holds_alternative<ShowingPix>(state)) {
      (void)driver.RunUntilSettled(id, now + 10 * kMicrosPerSecond);  // the countdown runs out
    } else if (const auto* pix = std::get_if<ShowingPix>(&state)) {
      payer.Sim("/sandbox/dynamic-brcode/pay", {{"uuid", pix->brcode.uuid}});  // refused once paid
      (void)driver.RunUntilSettled(id, now + 10 * kMicrosPerSecond);
    } else if (const auto* invoice = std::get_if<ShowingInvoice>(&state)) {
      payer.Sim("/sandbox/invoice/pay", {{"id", invoice->invoice.id}});  // refused once paid
      (void)driver.RunUntilSettled(id, now + 10 * kMicrosPerSecond);
    } else if (const auto* challenge = std::get_if<Challenge>(&state)) {
      payer.Sim("/sandbox/challenge/pass", {{"id", challenge->purchase_id}});  // on the customer's phone
      (void)driver.RunUntilSettled(id, now + 10 * kMicrosPerSecond);
    } else if (const auto* paid = std::get_if<Paid>(&state)) {
      if (script.reverse == 0 || sale->collected() != script.amount) return;
      if (script.await_confirmation && intake && !paid->payment.confirmed) {
        payer.Sim("/sandbox/clock", {{"advance", 31}});  // the bank confirms approved purchases
        (void)intake->CatchUp();
        continue;
      }
      (void)driver.Feed(id, Reverse{script.reverse, "op-7", "customer returned the goods", now});
    } else if (std::holds_alternative<Refunded>(state) || std::holds_alternative<Voided>(state)) {
      return;
    } else {  // a create, lookup or reversal in flight or waiting for its retry timer
      (void)driver.RunUntilSettled(id, now + kMicrosPerSecond / 2);
    }
  }
}

void DriverE2E::SetUp() {
  SandboxTest::SetUp();
  db_ = (std::filesystem::temp_directory_path() /
         ("checkout-e2e-" + std::to_string(::getpid()) + "-" + std::to_string(++counter_) + ".db"))
            .string();
  AdvanceSandbox(0);  // an earlier test of this process may have moved the sandbox clock
  OpenDriver();
  settings_.poll_interval_s = 1;
  settings_.lookup_retry_s = 1;
  settings_.installments = {3, 100};
}

void DriverE2E::TearDown() {
  driver_.reset();
  journal_.reset();
  store_.reset();
  std::filesystem::remove(db_);
  api().Raw("DELETE", "/sandbox/faults");  // an unused fault must not leak into the next test
}

void DriverE2E::OpenDriver() {
  driver_.reset();
  journal_.reset();
  store_.reset();
  auto store = offline::Store::Open(db_);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  store_ = std::move(*store);
  journal_ = std::make_unique<offline::Journal>(*store_);
  auto client = api::Client::FromEnvironment(sandbox().credentials().credentials_path);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  driver_ = std::make_unique<Driver>(
      api::Bank(*client), *journal_, clock_,
      [this](const std::string& sale_id, const Effect& effect) { seen_.emplace_back(sale_id, effect); });
}

void DriverE2E::AdvanceSandbox(std::int64_t seconds) {
  auto reply = seconds > 0 ? api().Sim("/sandbox/clock", {{"advance", seconds}}) : api().Raw("GET", "/sandbox/clock");
  ASSERT_EQ(reply.status, 200) << reply.body;
  auto now = ParseTimestamp(reply.json["now"].get<std::string>());
  ASSERT_TRUE(now.ok());
  clock_.Follow(*now);
}

Sale DriverE2E::Settle(const std::string& id) {
  auto sale = driver_->RunUntilSettled(id, Now() + 30 * kMicrosPerSecond);
  EXPECT_TRUE(sale.ok()) << sale.status().ToString();
  return sale.ok() ? *sale : Sale{};
}

Sale DriverE2E::Fed(const std::string& id, const Event& event) {
  auto sale = driver_->Feed(id, event);
  EXPECT_TRUE(sale.ok()) << EventName(static_cast<int>(event.index())) << ": " << sale.status().ToString();
  return sale.ok() ? *sale : *driver_->Get(id);
}

std::vector<FlagOperator> DriverE2E::Flags(const std::string& sale_id) const {
  std::vector<FlagOperator> flags;
  for (const auto& [id, effect] : seen_) {
    if (const auto* flag = std::get_if<FlagOperator>(&effect); flag && id == sale_id) flags.push_back(*flag);
  }
  return flags;
}

std::vector<Print> DriverE2E::Prints(const std::string& sale_id, Slip slip) const {
  std::vector<Print> prints;
  for (const auto& [id, effect] : seen_) {
    if (const auto* print = std::get_if<Print>(&effect); print && id == sale_id && print->slip == slip) {
      prints.push_back(*print);
    }
  }
  return prints;
}

Json DriverE2E::Listed(const std::string& resource, const std::string& tag) {
  auto reply = api().Get("/v2/" + resource + "?limit=100&tags=" + tag);
  EXPECT_EQ(reply.status, 200) << reply.body;
  for (auto& [key, value] : reply.json.items()) {
    if (value.is_array()) return value;
  }
  return Json::array();
}

DriverE2E::Ledger DriverE2E::LedgerOf(const std::string& tag) {
  Ledger ledger;
  for (const Json& tx : Listed("transaction", tag)) {
    const Cents amount = tx["amount"].get<Cents>();
    ledger.net += amount + tx.value("fee", Cents{0});
    ++(amount > 0 ? ledger.credits : ledger.debits);
  }
  return ledger;
}

void DriverE2E::Fault(const std::string& route, const std::string& fault) {
  ASSERT_EQ(api().Sim("/sandbox/faults", {{route, {fault}}}).status, 200);
}

bool DriverE2E::RunChildKilledAt(int k, const std::function<void(Driver&)>& flow) {
  driver_.reset();  // the child owns the journal file while it runs
  journal_.reset();
  store_.reset();
  const pid_t pid = ::fork();
  if (pid == 0) {
    auto store = offline::Store::Open(db_);
    auto client = api::Client::FromEnvironment(sandbox().credentials().credentials_path);
    if (!store.ok() || !client.ok()) ::_exit(10);
    offline::Journal journal(**store);
    Driver driver(api::Bank(*client), journal, clock_);
    int calls = 0;
    driver.SetCrashHookForTest([&](const char*) {
      if (++calls == k) ::raise(SIGKILL);
      return false;
    });
    flow(driver);
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  OpenDriver();
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

}  // namespace balcao::checkout::e2e
