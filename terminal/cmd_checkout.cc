// `balcao checkout`: runs one sale from the command line (docs/checkout.md). Against the
// bank configured in the environment / credentials.json, or, when none is configured, an
// embedded sandbox started in-process, where --autopay makes the simulated payer pay.
// Exit: 0 paid, 3 declined/expired/canceled, 2 errors (1 for bad arguments).
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "api/bank.h"
#include "checkout/driver/driver.h"
#include "checkout/sale_id.h"
#include "common/log.h"
#include "offline/journal.h"
#include "offline/store.h"
#include "sandbox/sandbox.h"
#include "terminal/command.h"
#include "terminal/internal/console.h"
#include "terminal/internal/payer.h"

namespace balcao::terminal {
namespace {

constexpr const char* kUsage =
    "usage: balcao checkout --amount CENTS --method pix|card|invoice [--installments N]\n"
    "                       [--card-file FILE] [--customer-name NAME --customer-tax-id CPF|CNPJ]\n"
    "                       [--autopay] [--journal FILE] [--timeout SECONDS] [--json]\n"
    "--card-file: JSON {\"number\",\"securityCode\",\"expiration\":\"YYYY-MM\",\"holderName\",\n"
    "\"holderEmail\",\"holderPhone\"}; read into memory only. A command line has no customer's browser\n"
    "to send 3-D Secure data from, so the card session is opened without a challenge. Without a\n"
    "configured bank an embedded sandbox is used (test card 4242424242424242 when no card file).\n";

struct Args {
  checkout::Cents amount = 0;
  std::string method;
  int installments = 1;
  std::string card_file, customer_name, customer_tax_id, journal;
  bool autopay = false, json = false;
  int timeout_s = 120;
};

// A whole decimal number, nothing else ("12abc" and "" are refused).
bool ParseInteger(const std::string& text, long long& out) {
  if (text.empty() || text.size() > 18) return false;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (!(std::isdigit(static_cast<unsigned char>(text[i])) || (i == 0 && text[i] == '-' && text.size() > 1)))
      return false;
  out = std::stoll(text);
  return true;
}

// What the sale came to, for --json: "paid" when paid.
std::string Outcome(const checkout::Sale& sale, std::string& reason) {
  if (std::holds_alternative<checkout::Paid>(sale.state)) return "paid";
  if (std::holds_alternative<checkout::Refunded>(sale.state)) return "refunded";
  if (std::holds_alternative<checkout::PayLater>(sale.state)) return "pay-later";
  if (std::holds_alternative<checkout::InvoiceQueued>(sale.state)) return "queued";
  if (const auto* voided = std::get_if<checkout::Voided>(&sale.state)) {
    reason = voided->reason;
    return "voided";
  }
  if (const auto* back = std::get_if<checkout::ChoosingMethod>(&sale.state)) reason = back->notice;
  return "not-paid";
}

int Fail(const std::string& message, int code = 2) {
  std::fprintf(stderr, "balcao checkout: %s\n", message.c_str());
  return code;
}

// Reads the command line into `a`; an exit code when the command ends here (--help: 0, bad: 1).
std::optional<int> ParseArgs(const std::vector<std::string>& argv, Args& a) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& k = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argv.size() ? argv[++i] : std::string(); };
    if (k == "--help" || k == "-h") return std::fputs(kUsage, stdout), 0;
    long long number = 0;
    if (k == "--amount") {
      if (!ParseInteger(value(), number)) return Fail("--amount must be a whole number of cents", 1);
      a.amount = number;
    } else if (k == "--installments" || k == "--timeout") {
      if (!ParseInteger(value(), number) || number < 1 || number > 86400)
        return Fail(k + " must be a whole number from 1", 1);
      (k == "--installments" ? a.installments : a.timeout_s) = static_cast<int>(number);
    } else if (k == "--method")
      a.method = value();
    else if (k == "--card-file")
      a.card_file = value();
    else if (k == "--customer-name")
      a.customer_name = value();
    else if (k == "--customer-tax-id")
      a.customer_tax_id = value();
    else if (k == "--journal")
      a.journal = value();
    else if (k == "--autopay")
      a.autopay = true;
    else if (k == "--json")
      a.json = true;
    else
      return Fail("unknown option '" + k + "'\n" + kUsage, 1);
  }
  if (a.amount <= 0) return Fail("--amount must be positive cents", 1);
  checkout::Method method;
  if (!checkout::ParseName(a.method, method)) return Fail("--method must be pix, card or invoice", 1);
  return std::nullopt;
}

// The bank of the command when none is configured: a sandbox in memory, in this process.
StatusOr<std::unique_ptr<sandbox::Sandbox>> StartEmbeddedSandbox() {
  sandbox::SandboxOptions options;
  options.db = ":memory:";
  options.https = false;
  options.tick_millis = 100;
  return sandbox::Sandbox::Start(options);
}

// Without --journal the journal is a temporary file, removed on exit with its -wal, -shm and
// -owner files (declared before the store, so removed after it is closed).
struct TemporaryFile {
  std::string path;
  ~TemporaryFile() {
    if (path.empty()) return;
    std::error_code ignored;
    for (const char* suffix : {"", "-wal", "-shm", "-owner"}) std::filesystem::remove(path + suffix, ignored);
  }
};

// Prints what the cashier's screen would show, on stderr.
void ShowEffect(const checkout::Effect& e) {
  if (const auto* show = std::get_if<checkout::Show>(&e)) {
    std::fprintf(stderr, "[%s] %s\n", checkout::Name(show->screen), show->message.c_str());
    if (!show->qr.empty()) DrawQr(show->qr, stderr);
    if (!show->link.empty()) std::fprintf(stderr, "%s\n", show->link.c_str());
  } else if (const auto* flag = std::get_if<checkout::FlagOperator>(&e)) {
    std::fprintf(stderr, "[operator] %s %s\n", flag->entity_id.c_str(), flag->reason.c_str());
  }
}

// The card of --card-file, or the sandbox's test card; an exit code when there is none.
std::optional<int> ReadCard(const Args& a, bool sandboxed, checkout::CardData& card) {
  card = {"4242424242424242", "123", "2035-01", "CLIENTE BALCAO"};
  if (a.card_file.empty()) {
    if (sandboxed) return std::nullopt;
    return Fail("--card-file is required against a real bank", 1);
  }
  std::ifstream in(a.card_file);
  auto j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Fail("--card-file: not a JSON object", 1);
  card = {j.value("number", ""),     j.value("securityCode", ""), j.value("expiration", ""),
          j.value("holderName", ""), j.value("holderEmail", ""),  j.value("holderPhone", "")};
  return std::nullopt;
}

// Opens the sale and chooses its method (and, for a card, submits it); an exit code on failure.
std::optional<int> StartSale(checkout::Driver& driver, const std::string& id, const Args& a, bool sandboxed,
                             StatusOr<checkout::Sale>& sale) {
  checkout::Method method;
  checkout::ParseName(a.method, method);
  checkout::Settings settings;
  settings.installments.max_count = 12;
  settings.poll_interval_s = 1;
  settings.lookup_retry_s = 1;
  // 3-D Secure needs the customer's device data (user agent, IP, language...): a command line
  // has none to send, and no stand-in is ever sent in its place.
  settings.challenge_enabled = false;
  const Clock& clock = SystemClock::Instance();
  sale = driver.Open(id, a.amount, settings);
  if (!sale.ok()) return Fail(sale.status().message());
  sale = driver.Feed(id, checkout::ChooseMethod{method, {a.customer_name, a.customer_tax_id}, clock.Now()});
  if (!sale.ok()) return Fail(sale.status().message(), sale.status().code() == StatusCode::kFailedPrecondition ? 1 : 2);
  if (method != checkout::Method::kCard || !std::holds_alternative<checkout::AwaitingCard>(sale->state))
    return std::nullopt;
  checkout::CardData card;
  if (auto exit = ReadCard(a, sandboxed, card)) return exit;
  sale = driver.SubmitCard(id, std::move(card), checkout::FundingType::kCredit, a.installments);
  if (!sale.ok() && sale.status().code() != StatusCode::kFailedPrecondition) return Fail(sale.status().ToString());
  sale = driver.Get(id);
  return std::nullopt;
}

// The outcome on stdout (one JSON object with --json); the exit code: 0 paid, else 3.
int Report(const Args& a, const std::string& id, const checkout::Sale& sale) {
  std::string reason;
  const std::string outcome = Outcome(sale, reason);
  if (a.json) {
    nlohmann::json out = {{"id", id},
                          {"method", a.method},
                          {"status", outcome},
                          {"reason", reason},
                          {"state", checkout::StateName(static_cast<int>(sale.state.index()))},
                          {"amount", sale.amount},
                          {"collected", sale.collected()}};
    nlohmann::json ids = nlohmann::json::array();
    for (const checkout::EntityRef& ref : sale.created)
      ids.push_back(std::string(checkout::Name(ref.kind)) + "/" + ref.id);
    out["bank_ids"] = ids;
    std::printf("%s\n", out.dump().c_str());
  } else {
    std::printf("sale %s: %s%s%s\n", id.c_str(), outcome.c_str(), reason.empty() ? "" : ": ", reason.c_str());
  }
  return std::holds_alternative<checkout::Paid>(sale.state) ? 0 : 3;
}

int RunCheckout(const std::vector<std::string>& argv) {
  logging::PreferQuietStderr();  // screens go to stderr; the trail to --log-file or on --log-level
  Args a;
  if (auto exit = ParseArgs(argv, a)) return *exit;
  // The bank: configured, or an embedded sandbox.
  std::unique_ptr<sandbox::Sandbox> embedded;
  auto client = api::Client::FromEnvironment();
  if (!client.ok()) {
    auto started = StartEmbeddedSandbox();
    if (!started.ok())
      return Fail("no bank configured and the embedded sandbox failed: " + started.status().ToString());
    embedded = std::move(*started);
    client = api::Client::FromEnvironment(embedded->credentials().credentials_path);
    if (!client.ok()) return Fail(client.status().ToString());
  }
  if (a.autopay && !embedded) return Fail("--autopay needs the embedded sandbox (no bank configured)", 1);

  const Clock& clock = SystemClock::Instance();
  const std::string id = checkout::MintSaleId('l', clock.Now());
  const std::string journal_path =
      a.journal.empty() ? (std::filesystem::temp_directory_path() / ("balcao-checkout-" + id + ".db")).string()
                        : a.journal;
  TemporaryFile temporary{a.journal.empty() ? journal_path : std::string()};
  auto store = offline::Store::Open(journal_path);
  if (!store.ok()) return Fail(store.status().ToString());
  offline::Journal journal(**store);
  checkout::Driver driver(api::Bank(*client), journal, clock,
                          [](const std::string&, const checkout::Effect& e) { ShowEffect(e); });

  StatusOr<checkout::Sale> sale = NotFoundError("not opened");
  if (auto exit = StartSale(driver, id, a, embedded != nullptr, sale)) return *exit;
  if (a.autopay && sale.ok())
    if (auto step = PayerStepFor(*sale, PayerNames{})) RunPayerStep(embedded->port(), *step);
  sale = driver.RunUntilSettled(id, clock.Now() + a.timeout_s * kMicrosPerSecond);
  if (!sale.ok()) return Fail(sale.status().ToString());
  return Report(a, id, *sale);
}

}  // namespace

BALCAO_COMMAND("checkout", "run one sale (card, Pix or invoice) and wait for the outcome", RunCheckout);

}  // namespace balcao::terminal
