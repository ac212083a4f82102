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
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "api/bank.h"
#include "checkout/driver.h"
#include "common/log.h"
#include "offline/journal.h"
#include "offline/store.h"
#include "sandbox/sandbox.h"
#include "terminal/command.h"
#include "terminal/internal/console.h"

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

std::string MintSaleId() {
  std::random_device rd;
  std::ostringstream id;
  id << "cli-" << std::hex << std::chrono::system_clock::now().time_since_epoch().count() << "-" << (rd() & 0xffff);
  return id.str();
}

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

int RunCheckout(const std::vector<std::string>& argv) {
  logging::PreferQuietStderr();  // screens go to stderr; the trail to --log-file or on --log-level
  Args a;
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
  checkout::Method method;
  if (a.amount <= 0) return Fail("--amount must be positive cents", 1);
  if (!checkout::ParseName(a.method, method)) return Fail("--method must be pix, card or invoice", 1);

  // The bank: configured, or an embedded sandbox.
  std::unique_ptr<sandbox::Sandbox> embedded;
  auto client = api::Client::FromEnvironment();
  if (!client.ok()) {
    sandbox::SandboxOptions options;
    options.db = ":memory:";
    options.https = false;
    options.tick_millis = 100;
    auto started = sandbox::Sandbox::Start(options);
    if (!started.ok())
      return Fail("no bank configured and the embedded sandbox failed: " + started.status().ToString());
    embedded = std::move(*started);
    client = api::Client::FromEnvironment(embedded->credentials().credentials_path);
    if (!client.ok()) return Fail(client.status().ToString());
  }
  if (a.autopay && !embedded) return Fail("--autopay needs the embedded sandbox (no bank configured)", 1);

  const std::string journal_path =
      a.journal.empty()
          ? (std::filesystem::temp_directory_path() / ("balcao-checkout-" + MintSaleId() + ".db")).string()
          : a.journal;
  // Without --journal the journal is a temporary file, removed on exit with its -wal, -shm and -owner files
  // (declared before the store, so removed after it is closed).
  struct TemporaryFile {
    std::string path;
    ~TemporaryFile() {
      if (path.empty()) return;
      std::error_code ignored;
      for (const char* suffix : {"", "-wal", "-shm", "-owner"}) std::filesystem::remove(path + suffix, ignored);
    }
  } temporary{a.journal.empty() ? journal_path : std::string()};
  auto store = offline::Store::Open(journal_path);
  if (!store.ok()) return Fail(store.status().ToString());
  offline::Journal journal(**store);
  const Clock& clock = SystemClock::Instance();
  checkout::Driver driver(api::Bank(*client), journal, clock, [&](const std::string&, const checkout::Effect& e) {
    if (const auto* show = std::get_if<checkout::Show>(&e)) {
      std::fprintf(stderr, "[%s] %s\n", checkout::Name(show->screen), show->message.c_str());
      if (!show->qr.empty()) DrawQr(show->qr, stderr);
      if (!show->link.empty()) std::fprintf(stderr, "%s\n", show->link.c_str());
    } else if (const auto* flag = std::get_if<checkout::FlagOperator>(&e)) {
      std::fprintf(stderr, "[operator] %s %s\n", flag->entity_id.c_str(), flag->reason.c_str());
    }
  });

  const std::string id = MintSaleId();
  checkout::Settings settings;
  settings.installments.max_count = 12;
  settings.poll_interval_s = 1;
  settings.lookup_retry_s = 1;
  // 3-D Secure needs the customer's device data (user agent, IP, language...): a command line
  // has none to send, and no stand-in is ever sent in its place.
  settings.challenge_enabled = false;
  auto sale = driver.Open(id, a.amount, settings);
  if (!sale.ok()) return Fail(sale.status().message());
  sale = driver.Feed(id, checkout::ChooseMethod{method, {a.customer_name, a.customer_tax_id}, clock.Now()});
  if (!sale.ok()) return Fail(sale.status().message(), sale.status().code() == StatusCode::kFailedPrecondition ? 1 : 2);

  if (method == checkout::Method::kCard && std::holds_alternative<checkout::AwaitingCard>(sale->state)) {
    checkout::CardData card{"4242424242424242", "123", "2035-01", "CLIENTE BALCAO"};
    if (!a.card_file.empty()) {
      std::ifstream in(a.card_file);
      auto j = nlohmann::json::parse(in, nullptr, false);
      if (j.is_discarded() || !j.is_object()) return Fail("--card-file: not a JSON object", 1);
      card = {j.value("number", ""),     j.value("securityCode", ""), j.value("expiration", ""),
              j.value("holderName", ""), j.value("holderEmail", ""),  j.value("holderPhone", "")};
    } else if (!embedded) {
      return Fail("--card-file is required against a real bank", 1);
    }
    sale = driver.SubmitCard(id, std::move(card), checkout::FundingType::kCredit, a.installments);
    if (!sale.ok() && sale.status().code() != StatusCode::kFailedPrecondition) return Fail(sale.status().ToString());
    sale = driver.Get(id);
  }
  if (a.autopay && sale.ok()) {
    if (const auto* pix = std::get_if<checkout::ShowingPix>(&sale->state)) {
      Simulate(embedded->port(), "dynamic-brcode/pay", nlohmann::json{{"uuid", pix->brcode.uuid}}.dump());
    } else if (const auto* inv = std::get_if<checkout::ShowingInvoice>(&sale->state)) {
      Simulate(embedded->port(), "invoice/pay", nlohmann::json{{"id", inv->invoice.id}}.dump());
    } else if (const auto* ch = std::get_if<checkout::Challenge>(&sale->state)) {
      Simulate(embedded->port(), "challenge/pass", nlohmann::json{{"id", ch->purchase_id}}.dump());
    }
  }
  sale = driver.RunUntilSettled(id, clock.Now() + a.timeout_s * kMicrosPerSecond);
  if (!sale.ok()) return Fail(sale.status().ToString());

  const bool paid = std::holds_alternative<checkout::Paid>(sale->state);
  std::string reason;
  const std::string outcome = Outcome(*sale, reason);
  if (a.json) {
    nlohmann::json out = {{"id", id},
                          {"method", a.method},
                          {"status", outcome},
                          {"reason", reason},
                          {"state", checkout::StateName(static_cast<int>(sale->state.index()))},
                          {"amount", sale->amount},
                          {"collected", sale->collected()}};
    nlohmann::json ids = nlohmann::json::array();
    for (const checkout::EntityRef& ref : sale->created)
      ids.push_back(std::string(checkout::Name(ref.kind)) + "/" + ref.id);
    out["bank_ids"] = ids;
    std::printf("%s\n", out.dump().c_str());
  } else {
    std::printf("sale %s: %s%s%s\n", id.c_str(), outcome.c_str(), reason.empty() ? "" : ": ", reason.c_str());
  }
  return paid ? 0 : 3;
}

}  // namespace

BALCAO_COMMAND("checkout", "run one sale (card, Pix or invoice) and wait for the outcome", RunCheckout);

}  // namespace balcao::terminal
