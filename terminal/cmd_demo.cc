// `balcao demo`: the first thing a new user runs. Starts the embedded bank sandbox, then
// rings up a few sales through the real checkout driver, exactly as the counter would:
// a Pix sale the simulated payer pays, a debit card sale, a credit card sale in 3
// installments, a card sale through a 3-D Secure challenge the customer passes on their
// phone, a declined card, and an invoice. Every card is paid on the customer's simulated
// phone, which posts the purchase straight to the bank (PayOnPhone): the box never holds it.
// Every screen the cashier would see is printed, each receipt is rendered as text (and
// saved as ESC/POS bytes), and the bank's ledger is shown at the end.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/bank.h"
#include "checkout/driver/driver.h"
#include "common/log.h"
#include "offline/journal.h"
#include "offline/store.h"
#include "printer/profile.h"
#include "printer/render.h"
#include "sandbox/sandbox.h"
#include "terminal/command.h"
#include "terminal/internal/console.h"
#include "terminal/internal/payer.h"
#include "terminal/internal/receipts.h"
#include "terminal/internal/sale_events.h"

namespace balcao::terminal {
namespace {

constexpr const char* kUsage =
    "usage: balcao demo [--out DIR] [--keep] [--quiet-qr]\n"
    "Runs sample sales against an embedded bank sandbox and prints their receipts.\n"
    "  --out DIR    where the journal, the sandbox state and receipts (.bin ESC/POS, .txt) go\n"
    "               (default: ./balcao-demo; run again, the same sandbox state is reused)\n"
    "  --keep       leave the sandbox running after the sales (Ctrl-C to stop) so that\n"
    "               `balcao api ...` can be tried against it\n"
    "  --quiet-qr   do not draw QR codes in the terminal\n";

// The demo's simulated phone, as the bank's purchase record shows it.
constexpr const char* kDemoPhoneAgent =
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";

// What the customer does in a scripted sale.
enum class Customer { kPaysPix, kPaysInvoice, kPresentsCard, kPassesChallenge };

struct ScriptedSale {
  const char* title;
  checkout::Cents amount;
  checkout::Method method;
  Customer customer;
  const char* card_number = "";
  int installments = 1;
  checkout::FundingType funding = checkout::FundingType::kCredit;
};

struct Demo {
  std::unique_ptr<sandbox::Sandbox> bank_sandbox;
  std::unique_ptr<checkout::Driver> driver;
  offline::Journal* journal = nullptr;
  std::filesystem::path out;
  StoreIdentity store;
  bool draw_qr = true;
  int receipts = 0;
};

void Render(Demo& demo, const std::string& sale_id, const checkout::Print& print) {
  auto sale = demo.driver->Get(sale_id);
  if (!sale.ok()) return;
  auto doc = ReceiptFor(*sale, print, demo.store, SystemClock::Instance().Now(), ReadCardTerms(*demo.journal, sale_id));
  if (!doc) return;
  const printer::PrinterProfile* profile = printer::FindProfile("80mm");
  const std::string text = printer::RenderText(*doc, *profile);
  std::printf("\n%s\n", text.c_str());
  auto bytes = printer::RenderEscPos(*doc, *profile);
  const std::string base = (demo.out / ("receipt-" + std::to_string(++demo.receipts))).string();
  if (bytes.ok()) std::ofstream(base + ".bin", std::ios::binary) << *bytes;
  std::ofstream(base + ".txt") << text;
}

void OnEffect(Demo& demo, const std::string& sale_id, const checkout::Effect& effect) {
  if (const auto* show = std::get_if<checkout::Show>(&effect)) {
    std::printf("  [screen %s] %s\n", checkout::Name(show->screen), show->message.c_str());
    if (!show->qr.empty() && demo.draw_qr) DrawQr(show->qr, stdout);
    if (!show->link.empty()) std::printf("  link: %s\n", show->link.c_str());
  } else if (const auto* flag = std::get_if<checkout::FlagOperator>(&effect)) {
    std::printf("  [operator] %s: %s\n", flag->entity_id.c_str(), flag->reason.c_str());
  } else if (const auto* print = std::get_if<checkout::Print>(&effect)) {
    Render(demo, sale_id, *print);
  }
}

// The customer's side, played through the sandbox's simulation API (terminal/internal/payer.h).
void ActAsCustomer(Demo& demo, const checkout::Sale& sale) {
  // The invoice's customer, Joao Lima, pays his own invoice.
  const std::optional<PayerStep> step = PayerStepFor(sale, {.pix = "Maria Souza", .invoice = "Joao Lima"});
  if (!step) return;
  if (step->route == "dynamic-brcode/pay")
    std::printf("  (the customer scans the QR and pays in their bank app)\n");
  else if (step->route == "invoice/pay")
    std::printf("  (the customer pays the invoice)\n");
  else
    std::printf("  (the customer opens the challenge on their phone and confirms)\n");
  RunPayerStep(demo.bank_sandbox->port(), *step);
}

// The customer's phone (docs/adr/0009-card-on-the-customer-phone.md): it scans the QR of the
// session's payment page, the customer types the card there (contact and billing address too:
// 3-D Secure needs them) and the phone posts the purchase straight to the bank with its own user
// agent, language and timezone; a challenge is passed on the phone. The box never holds the card:
// its driver finds the purchase by the attempt's tag.
void PayOnPhone(Demo& demo, const checkout::Sale& sale, const ScriptedSale& script) {
  const auto* awaiting = std::get_if<checkout::AwaitingCard>(&sale.state);
  if (!awaiting) return;
  const std::string& uuid = awaiting->session.uuid;
  std::printf("  (the customer scans the QR, opens /pay/%s on their phone and types the card there)\n", uuid.c_str());
  const nlohmann::json body = {{"amount", sale.amount},
                               {"installmentCount", script.installments},
                               {"fundingType", checkout::Name(script.funding)},
                               {"cardNumber", script.card_number},
                               {"cardExpiration", "2035-01"},
                               {"cardSecurityCode", "123"},
                               {"holderName", "MARIA SOUZA"},
                               {"holderEmail", "maria.souza@example.com"},
                               {"holderPhone", "11987654321"},
                               {"billingStreetLine1", "Rua Augusta, 1500"},
                               {"billingStreetLine2", "apto 12"},
                               {"billingCity", "Sao Paulo"},
                               {"billingStateCode", "SP"},
                               {"billingZipCode", "01304-001"},
                               {"billingCountryCode", "BRA"},
                               {"metadata",
                                {{"userAgent", kDemoPhoneAgent},
                                 {"userIp", "127.0.0.1"},
                                 {"language", "pt-BR"},
                                 {"timezoneOffset", 180},
                                 {"screen", "412x915"}}}};
  const std::string url = demo.bank_sandbox->credentials().base_url + "/merchant-session/" + uuid + "/purchase";
  const SimulationAnswer answer = PostJson(url, body.dump(), kDemoPhoneAgent);
  const nlohmann::json reply = nlohmann::json::parse(answer.body, nullptr, false);
  const nlohmann::json purchase =
      reply.is_object() ? reply.value("purchase", nlohmann::json::object()) : nlohmann::json();
  if (answer.status != 200 || !purchase.is_object())
    return (void)std::printf("  (the bank refused the phone's purchase: HTTP %ld)\n", answer.status);
  if (purchase.value("status", "") != "pending") return;
  std::printf("  (the phone opens the bank's 3-D Secure page and the customer confirms)\n");
  RunPayerStep(demo.bank_sandbox->port(), {"challenge/pass", nlohmann::json{{"id", purchase.value("id", "")}}.dump()});
}

int RunSale(Demo& demo, const ScriptedSale& script, int number) {
  const Clock& clock = SystemClock::Instance();
  // Letters between the digits: a long digit run could pass Luhn and be masked as a card.
  char id[40];
  std::snprintf(id, sizeof id, "demo-%llx-s%d", static_cast<unsigned long long>(clock.Now() / 1000), number);
  std::printf("\n== %s: R$ %lld,%02lld (sale %s)\n", script.title, static_cast<long long>(script.amount / 100),
              static_cast<long long>(script.amount % 100), id);
  checkout::Settings settings;
  settings.installments.max_count = 12;
  settings.poll_interval_s = 1;
  settings.lookup_retry_s = 1;
  auto sale = demo.driver->Open(id, script.amount, settings);
  if (!sale.ok()) return std::printf("  could not open the sale: %s\n", sale.status().ToString().c_str()), 1;
  checkout::Customer customer{"Joao Lima", "012.345.678-90"};
  sale = demo.driver->Feed(id, checkout::ChooseMethod{script.method, customer, clock.Now()});
  if (sale.ok() && (script.customer == Customer::kPresentsCard || script.customer == Customer::kPassesChallenge))
    PayOnPhone(demo, *sale, script);
  else if (sale.ok())
    ActAsCustomer(demo, *sale);
  sale = demo.driver->RunUntilSettled(id, clock.Now() + 60 * kMicrosPerSecond);
  if (!sale.ok()) return std::printf("  the sale did not settle: %s\n", sale.status().ToString().c_str()), 1;
  std::printf("  => %s, collected R$ %lld,%02lld\n", checkout::StateName(static_cast<int>(sale->state.index())),
              static_cast<long long>(sale->collected() / 100), static_cast<long long>(sale->collected() % 100));
  return 0;
}

void ShowLedger(const api::Bank& bank) {
  auto balance = bank.GetBalance();
  std::printf("\n== The bank's ledger (sandbox)\n");
  if (balance.ok() && balance->amount)
    std::printf("  balance: R$ %lld,%02lld\n", static_cast<long long>(*balance->amount / 100),
                static_cast<long long>(*balance->amount % 100));
  auto page = bank.transaction().ListPage(api::ListParams().Limit(20));
  if (!page.ok()) return;
  for (const auto& t : page->items)
    std::printf("  %-30s %10lld  fee %5lld  %s\n", t.source.value_or("").c_str(),
                static_cast<long long>(t.amount.value_or(0)), static_cast<long long>(t.fee.value_or(0)),
                t.description.value_or("").c_str());
}

int RunDemo(const std::vector<std::string>& args) {
  logging::PreferQuietStderr();  // the demo's own output is the show; the trail goes to --log-file
  Demo demo;
  bool keep = false;
  std::string out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") return std::fputs(kUsage, stdout), 0;
    if (args[i] == "--keep")
      keep = true;
    else if (args[i] == "--quiet-qr")
      demo.draw_qr = false;
    else if (args[i] == "--out" && i + 1 < args.size())
      out = args[++i];
    else
      return std::fprintf(stderr, "balcao demo: unknown option '%s'\n%s", args[i].c_str(), kUsage), 1;
  }
  demo.out = out.empty() ? std::filesystem::path("balcao-demo") : std::filesystem::path(out);
  std::error_code ec;
  std::filesystem::create_directories(demo.out, ec);
  if (ec) return std::fprintf(stderr, "balcao demo: cannot create %s: %s\n", demo.out.c_str(), ec.message().c_str()), 2;

  sandbox::SandboxOptions options;
  options.data_dir = (demo.out / "sandbox").string();
  options.tick_millis = 100;
  auto started = sandbox::Sandbox::Start(options);
  if (!started.ok()) return std::fprintf(stderr, "balcao demo: sandbox: %s\n", started.status().ToString().c_str()), 2;
  demo.bank_sandbox = std::move(*started);
  const auto& creds = demo.bank_sandbox->credentials();
  std::printf("Bank sandbox: %s (HTTPS %s)\ncredentials:  %s\n", creds.base_url.c_str(), creds.https_url.c_str(),
              creds.credentials_path.c_str());

  auto client = api::Client::FromEnvironment(creds.credentials_path);
  if (!client.ok()) return std::fprintf(stderr, "balcao demo: client: %s\n", client.status().ToString().c_str()), 2;
  auto store = offline::Store::Open((demo.out / "balcao.db").string());
  if (!store.ok()) return std::fprintf(stderr, "balcao demo: store: %s\n", store.status().ToString().c_str()), 2;
  offline::Journal journal(**store);
  demo.journal = &journal;
  demo.store.merchant = {"PADARIA BALCAO",    "Padaria Balcao Ltda", "11222333000181",
                         "Rua Augusta, 1500", "Sao Paulo - SP",      "BALCAO-01"};
  demo.driver = std::make_unique<checkout::Driver>(
      api::Bank(*client), journal, SystemClock::Instance(),
      [&demo](const std::string& sale_id, const checkout::Effect& effect) { OnEffect(demo, sale_id, effect); });

  const std::vector<ScriptedSale> sales = {
      {"Pix", 2590, checkout::Method::kPix, Customer::kPaysPix},
      {"Debit card, approved", 3490, checkout::Method::kCard, Customer::kPresentsCard, "5555555555554444", 1,
       checkout::FundingType::kDebit},
      {"Credit card, approved, 3 installments", 12000, checkout::Method::kCard, Customer::kPresentsCard,
       "4242424242424242", 3},
      {"Card with a 3-D Secure challenge", 8000, checkout::Method::kCard, Customer::kPassesChallenge,
       "5500000000000004"},
      {"Card declined (insufficient funds)", 4500, checkout::Method::kCard, Customer::kPresentsCard,
       "4000000000009995"},
      {"Invoice", 30000, checkout::Method::kInvoice, Customer::kPaysInvoice},
  };
  int failures = 0;
  for (std::size_t i = 0; i < sales.size(); ++i) failures += RunSale(demo, sales[i], static_cast<int>(i + 1));
  // Card purchases are confirmed (and credited) a little later at the bank: let the
  // sandbox's clock run a minute ahead so the ledger shows them.
  Simulate(demo.bank_sandbox->port(), "clock", "{\"advance\":60}");
  demo.bank_sandbox->Flush();
  ShowLedger(api::Bank(*client));
  std::printf("\nReceipts (ESC/POS and text): %s\n", demo.out.c_str());

  if (keep) {
    std::printf("\nThe sandbox keeps running. Try:\n  BALCAO_CREDENTIALS=%s balcao api list invoice\nCtrl-C to stop.\n",
                creds.credentials_path.c_str());
    std::fflush(stdout);
    for (;;) ::pause();
  }
  demo.driver.reset();
  demo.bank_sandbox->Stop();
  return failures == 0 ? 0 : 2;
}

}  // namespace

BALCAO_COMMAND("demo", "ring up sample sales against the embedded bank sandbox and print receipts", RunDemo);

}  // namespace balcao::terminal
