// `balcao checkout`: runs one sale from the command line (docs/checkout.md). Against the
// bank configured in the environment / credentials.json, or, when none is configured, an
// embedded sandbox started in-process, where --autopay makes the simulated payer pay.
// Exit: 0 paid, 3 declined/expired/canceled, 2 errors (1 for bad arguments).
#include <curl/curl.h>
#include <qrencode.h>

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
#include "offline/journal.h"
#include "offline/store.h"
#include "sandbox/sandbox.h"
#include "terminal/command.h"

namespace balcao::terminal {
namespace {

constexpr const char* kUsage =
    "usage: balcao checkout --amount CENTS --method pix|card|invoice [--installments N]\n"
    "                       [--card-file FILE] [--customer-name NAME --customer-tax-id CPF|CNPJ]\n"
    "                       [--autopay] [--journal FILE] [--timeout SECONDS] [--json]\n"
    "--card-file: JSON {\"number\",\"securityCode\",\"expiration\":\"YYYY-MM\",\"holderName\"};\n"
    "read into memory only. Without a configured bank an embedded sandbox is used (test card\n"
    "4242424242424242 when no card file is given).\n";

struct Args {
  checkout::Cents amount = 0;
  std::string method;
  int installments = 1;
  std::string card_file, customer_name, customer_tax_id, journal;
  bool autopay = false, json = false;
  int timeout_s = 120;
};

// Draws `text` as a QR with Unicode half blocks (two modules per character row).
void DrawQr(const std::string& text) {
  std::unique_ptr<QRcode, decltype(&QRcode_free)> qr(QRcode_encodeString(text.c_str(), 0, QR_ECLEVEL_M, QR_MODE_8, 1),
                                                     &QRcode_free);
  if (!qr) return;
  const int w = qr->width, quiet = 2;
  auto dark = [&](int x, int y) { return x >= 0 && y >= 0 && x < w && y < w && (qr->data[y * w + x] & 1); };
  for (int y = -quiet; y < w + quiet; y += 2) {
    std::string line;
    for (int x = -quiet; x < w + quiet; ++x) {
      const bool top = dark(x, y), bottom = dark(x, y + 1);
      line += top && bottom ? " " : top ? "\u2584" : bottom ? "\u2580" : "\u2588";
    }
    std::fprintf(stderr, "%s\n", line.c_str());
  }
}

// POST to the embedded sandbox's simulation API (unsigned, loopback only).
bool Simulate(const std::string& base, const std::string& route, const nlohmann::json& body) {
  CURL* curl = curl_easy_init();
  if (!curl) return false;
  const std::string url = base + "/sandbox/" + route, text = body.dump();
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, text.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(
      curl, CURLOPT_WRITEFUNCTION, +[](char*, size_t s, size_t n, void*) { return s * n; });
  long status = 0;
  const bool ok = curl_easy_perform(curl) == CURLE_OK &&
                  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK && status == 200;
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return ok;
}

std::string MintSaleId() {
  std::random_device rd;
  std::ostringstream id;
  id << "cli-" << std::hex << std::chrono::system_clock::now().time_since_epoch().count() << "-" << (rd() & 0xffff);
  return id.str();
}

int Fail(const std::string& message, int code = 2) {
  std::fprintf(stderr, "balcao checkout: %s\n", message.c_str());
  return code;
}

int RunCheckout(const std::vector<std::string>& argv) {
  Args a;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& k = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argv.size() ? argv[++i] : std::string(); };
    if (k == "--help" || k == "-h") return std::fputs(kUsage, stdout), 0;
    if (k == "--amount")
      a.amount = std::atoll(value().c_str());
    else if (k == "--method")
      a.method = value();
    else if (k == "--installments")
      a.installments = std::atoi(value().c_str());
    else if (k == "--card-file")
      a.card_file = value();
    else if (k == "--customer-name")
      a.customer_name = value();
    else if (k == "--customer-tax-id")
      a.customer_tax_id = value();
    else if (k == "--journal")
      a.journal = value();
    else if (k == "--timeout")
      a.timeout_s = std::atoi(value().c_str());
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
  const std::string sim_base = embedded ? "http://127.0.0.1:" + std::to_string(embedded->port()) : "";
  if (a.autopay && !embedded) return Fail("--autopay needs the embedded sandbox (no bank configured)", 1);

  const std::string journal_path =
      a.journal.empty()
          ? (std::filesystem::temp_directory_path() / ("balcao-checkout-" + MintSaleId() + ".db")).string()
          : a.journal;
  auto store = offline::Store::Open(journal_path);
  if (!store.ok()) return Fail(store.status().ToString());
  offline::Journal journal(**store);
  const Clock& clock = SystemClock::Instance();
  checkout::Driver driver(api::Bank(*client), journal, clock, [&](const std::string&, const checkout::Effect& e) {
    if (const auto* show = std::get_if<checkout::Show>(&e)) {
      std::fprintf(stderr, "[%s] %s\n", checkout::Name(show->screen), show->message.c_str());
      if (!show->qr.empty()) DrawQr(show->qr);
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
      card = {j.value("number", ""), j.value("securityCode", ""), j.value("expiration", ""), j.value("holderName", "")};
    } else if (!embedded) {
      return Fail("--card-file is required against a real bank", 1);
    }
    sale = driver.SubmitCard(id, std::move(card), checkout::FundingType::kCredit, a.installments);
    if (!sale.ok() && sale.status().code() != StatusCode::kFailedPrecondition) return Fail(sale.status().ToString());
    sale = driver.Get(id);
  }
  if (a.autopay && sale.ok()) {
    if (const auto* pix = std::get_if<checkout::ShowingPix>(&sale->state)) {
      Simulate(sim_base, "dynamic-brcode/pay", {{"uuid", pix->brcode.uuid}});
    } else if (const auto* inv = std::get_if<checkout::ShowingInvoice>(&sale->state)) {
      Simulate(sim_base, "invoice/pay", {{"id", inv->invoice.id}});
    } else if (const auto* ch = std::get_if<checkout::Challenge>(&sale->state)) {
      Simulate(sim_base, "challenge/pass", {{"id", ch->purchase_id}});
    }
  }
  sale = driver.RunUntilSettled(id, clock.Now() + a.timeout_s * kMicrosPerSecond);
  if (!sale.ok()) return Fail(sale.status().ToString());

  const bool paid = std::holds_alternative<checkout::Paid>(sale->state);
  if (a.json) {
    nlohmann::json out = {{"id", id},
                          {"method", a.method},
                          {"status", paid ? "paid" : "not-paid"},
                          {"state", checkout::StateName(static_cast<int>(sale->state.index()))},
                          {"amount", sale->amount},
                          {"collected", sale->collected()}};
    nlohmann::json ids = nlohmann::json::array();
    for (const checkout::EntityRef& ref : sale->created)
      ids.push_back(std::string(checkout::Name(ref.kind)) + "/" + ref.id);
    out["bank_ids"] = ids;
    std::printf("%s\n", out.dump().c_str());
  } else {
    std::printf("sale %s: %s\n", id.c_str(),
                paid ? "paid" : checkout::StateName(static_cast<int>(sale->state.index())));
  }
  return paid ? 0 : 3;
}

}  // namespace

BALCAO_COMMAND("checkout", "run one sale (card, Pix or invoice) and wait for the outcome", RunCheckout);

}  // namespace balcao::terminal
