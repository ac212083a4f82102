#include "tests/checkout/driver_fixture.h"

#include <fcntl.h>
#include <spawn.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "common/time.h"
#include "tests/checkout/kill_child.h"
#include "tests/testing/status_matchers.h"

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
  db_dir_ = std::make_unique<test_util::TempDir>("checkout-e2e");
  db_ = db_dir_->File("journal.db");
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
  db_dir_.reset();
  api().Raw("DELETE", "/sandbox/faults");  // an unused fault must not leak into the next test
}

void DriverE2E::OpenDriver() {
  driver_.reset();
  journal_.reset();
  store_.reset();
  auto store = offline::Store::Open(db_, {.clock = &store_clock_});
  ASSERT_OK(store);
  store_ = std::move(*store);
  journal_ = std::make_unique<offline::Journal>(*store_);
  auto client = api::Client::FromEnvironment(sandbox().credentials().credentials_path);
  ASSERT_OK(client);
  driver_ = std::make_unique<Driver>(
      api::Bank(*client), *journal_, clock_,
      [this](const std::string& sale_id, const Effect& effect) { seen_.emplace_back(sale_id, effect); });
}

void DriverE2E::AdvanceSandbox(std::int64_t seconds) {
  auto reply = seconds > 0 ? api().Sim("/sandbox/clock", {{"advance", seconds}}) : api().Raw("GET", "/sandbox/clock");
  ASSERT_EQ(reply.status, 200) << reply.body;
  auto now = ParseTimestamp(reply.json["now"].get<std::string>());
  ASSERT_OK(now);
  clock_.Follow(*now);
}

Sale DriverE2E::Settle(const std::string& id) {
  auto sale = driver_->RunUntilSettled(id, Now() + 30 * kMicrosPerSecond);
  EXPECT_OK(sale);
  return sale.ok() ? *sale : Sale{};
}

Sale DriverE2E::Fed(const std::string& id, const Event& event) {
  auto sale = driver_->Feed(id, event);
  EXPECT_OK(sale) << EventName(static_cast<int>(event.index()));
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

namespace {

std::string LastLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::string last = "(none: the child never reached its first journal write or bank call)";
  while (std::getline(in, line)) last = line;
  return last;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

bool DriverE2E::RunChildKilledAt(int k, const std::string& flow, const std::string& sale_id,
                                 const nlohmann::json& params) {
  driver_.reset();  // the child owns the journal file while it runs
  journal_.reset();
  store_.reset();
  const std::string base = db_ + ".child-" + std::to_string(k);
  const auto& credentials = sandbox().credentials();
  const nlohmann::json spec = {{"flow", flow},
                               {"sale_id", sale_id},
                               {"kill_at", k},
                               {"params", params},
                               {"settings", SettingsToJson(settings_)},
                               {"db", db_},
                               {"clock", clock_.Save()},
                               {"store_clock_pinned", store_clock_.pinned()},
                               {"credentials_path", credentials.credentials_path},
                               {"private_key_path", credentials.private_key_path},
                               {"api_base", api().base},
                               {"access_id", api().access_id},
                               {"progress_path", base + ".steps"}};
  std::ofstream(base + ".json") << spec.dump();
  std::filesystem::remove(base + ".steps");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, (base + ".log").c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  std::string mode = "--balcao-kill-child";
  std::string spec_path = base + ".json";
  char* argv[] = {self.data(), mode.data(), spec_path.data(), nullptr};
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, self.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  EXPECT_EQ(spawned, 0) << "spawning the killed child: " << std::strerror(spawned);
  int status = 0;
  bool ended = spawned != 0;
  for (int waited_ms = 0; !ended && waited_ms < 120'000; waited_ms += 20) {
    ended = ::waitpid(pid, &status, WNOHANG) == pid;
    if (!ended) ::usleep(20'000);
  }
  if (!ended) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    ADD_FAILURE() << "the child of flow '" << flow << "' (SIGKILL due at point " << k
                  << ") was still running after 120 s; its last step: " << LastLine(base + ".steps")
                  << "\nits output:\n"
                  << Slurp(base + ".log");
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    ADD_FAILURE() << "the child of flow '" << flow << "' exited with " << WEXITSTATUS(status) << ":\n"
                  << Slurp(base + ".log");
  }
  for (const char* ext : {".json", ".steps", ".log"}) std::filesystem::remove(base + ext);
  OpenDriver();
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

}  // namespace balcao::checkout::e2e
