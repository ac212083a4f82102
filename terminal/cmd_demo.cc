// `balcao demo`: the first thing a new user runs. Starts the embedded bank sandbox, then
// rings up a few sales through the real checkout driver, exactly as the counter would:
// a Pix sale the simulated payer pays, a debit card sale, a credit card sale in 3
// installments, a card sale through a 3-D Secure challenge the customer passes on their
// phone, a declined card, and an invoice.
// Every screen the cashier would see is printed, each receipt is rendered as text (and
// saved as ESC/POS bytes), and the bank's ledger is shown at the end.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "api/bank.h"
#include "checkout/driver.h"
#include "common/log.h"
#include "offline/journal.h"
#include "offline/store.h"
#include "printer/profile.h"
#include "printer/render.h"
#include "sandbox/sandbox.h"
#include "terminal/command.h"
#include "terminal/internal/console.h"
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

// The customer's side, played through the sandbox's simulation API.
void ActAsCustomer(Demo& demo, const checkout::Sale& sale) {
  const unsigned short port = demo.bank_sandbox->port();
  if (const auto* pix = std::get_if<checkout::ShowingPix>(&sale.state)) {
    std::printf("  (the customer scans the QR and pays in their bank app)\n");
    Simulate(port, "dynamic-brcode/pay", "{\"uuid\":\"" + pix->brcode.uuid + "\",\"name\":\"Maria Souza\"}");
  } else if (const auto* invoice = std::get_if<checkout::ShowingInvoice>(&sale.state)) {
    std::printf("  (the customer pays the invoice)\n");
    Simulate(port, "invoice/pay", "{\"id\":\"" + invoice->invoice.id + "\",\"name\":\"Joao Lima\"}");
  } else if (const auto* challenge = std::get_if<checkout::Challenge>(&sale.state)) {
    std::printf("  (the customer opens the challenge on their phone and confirms)\n");
    Simulate(port, "challenge/pass", "{\"id\":\"" + challenge->purchase_id + "\"}");
  }
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
  if (sale.ok() && (script.customer == Customer::kPresentsCard || script.customer == Customer::kPassesChallenge)) {
    // The scripted customer, as the touchscreen's customer form and her phone's browser
    // would give her: contact, billing address, device (3-D Secure needs them all).
    checkout::CardData card{script.card_number,
                            "123",
                            "2035-01",
                            "MARIA SOUZA",
                            "maria.souza@example.com",
                            "+5511987654321",
                            {"Rua Augusta, 1500", "apto 12", "Sao Paulo", "SP", "01304-001", "BRA"}};
    checkout::BrowserData phone{"Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/124.0 Mobile", "127.0.0.1", "pt-BR",
                                180, "412x915"};
    sale = demo.driver->SubmitCard(id, std::move(card), script.funding, script.installments, std::move(phone));
    sale = demo.driver->Get(id);
  }
  if (sale.ok()) ActAsCustomer(demo, *sale);
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
