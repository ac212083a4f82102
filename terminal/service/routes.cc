// The HTTP face of the service: the embedded web app, the JSON API under /api/ and the bank's
// webhook endpoint (webhook.cc). Handlers decode and validate on the io thread (bad input: 400
// {"error":{"field","rule"}}), then post the driver work to the driver's thread.
// Card data: the body of POST /api/sales/{id}/card is read into checkout::CardData, then the
// body and the parsed JSON are overwritten; neither is logged.
#include <openssl/crypto.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "api/formats/tax_id.h"
#include "common/card_digits.h"
#include "common/log.h"
#include "terminal/internal/console.h"
#include "terminal/service/card_customer.h"
#include "terminal/service/json_body.h"
#include "terminal/service/service_impl.h"
#include "terminal/service/web_assets.h"

namespace balcao::terminal::service {
namespace {

using nlohmann::json;

HttpResponse Json(int status, const json& body) {
  return HttpResponse{
      status, "application/json; charset=utf-8", body.dump(-1, ' ', false, json::error_handler_t::replace), {}};
}
HttpResponse JsonText(int status, std::string body) {
  return HttpResponse{status, "application/json; charset=utf-8", std::move(body), {}};
}
HttpResponse Error(int status, const std::string& field, const std::string& rule) {
  return ErrorResponse(status, field, rule);
}

// What a driver call that did not go through answers: a refusal of the sale's state machine
// (or of the offline rule) is 409 with its reason; anything else 503.
HttpResponse DriverError(const Status& status) {
  if (status.code() == StatusCode::kPermissionDenied) return Error(403, "approval", status.message());
  if (status.code() == StatusCode::kFailedPrecondition || status.code() == StatusCode::kInvalidArgument)
    return Error(409, "state", status.message());
  if (status.code() == StatusCode::kNotFound) return Error(404, "sale", status.message());
  // The store, not the bank: a full disk or an I/O error (507 Insufficient Storage).
  if (offline::IsDiskFailure(status)) return Error(507, "store", status.message());
  // The store-and-forward's caps (offline card sales, kOutOfRange): the limit, for the cashier.
  if (status.code() == StatusCode::kOutOfRange) return Error(409, "offline_cards", status.message());
  return Error(503, "bank", status.message());
}

void Wipe(std::string& text) {
  if (!text.empty()) OPENSSL_cleanse(text.data(), text.size());
  text.clear();
}
void Wipe(json& value) {
  if (value.is_string()) {
    Wipe(value.get_ref<std::string&>());
  } else if (value.is_structured()) {
    for (auto& item : value) Wipe(item);
  }
}

const char* ContentType(std::string_view name) {
  auto ends = [&](std::string_view ext) {
    return name.size() >= ext.size() && name.substr(name.size() - ext.size()) == ext;
  };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".svg")) return "image/svg+xml";
  if (ends(".png")) return "image/png";
  return "application/octet-stream";
}

// Field readers over a JSON object body: each returns "" when fine, else the rule broken.
struct Body {
  json value;
  bool ok = false;
  std::string rule;  // the rule broken when not ok (json_body.h)
  static Body Parse(const std::string& text) {
    Body body;
    auto parsed = ParseJsonObject(text.empty() ? std::string_view("{}") : std::string_view(text));
    body.ok = parsed.ok();
    if (parsed.ok()) {
      body.value = *std::move(parsed);
    } else {
      body.rule = parsed.status().message();
    }
    return body;
  }
  std::string Text(const char* key) const { return TextOf(value, key); }
  // `object[key]` when it is a string, else "" (a number where text belongs is simply invalid).
  static std::string TextOf(const json& object, const char* key) {
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : "";
  }
  bool Has(const char* key) const { return value.contains(key); }
};

std::string Digits(const std::string& text) {
  std::string out;
  for (char c : text)
    if (std::isdigit(static_cast<unsigned char>(c))) out += c;
  return out;
}

// "/api/sales/{id}" or "/api/sales/{id}/{action}": the id without '/', the action of
// [a-z.-]. Parsed by hand: libstdc++'s std::regex recurses once per character of the path, so
// its stack depth would be set by the client (at the 8 KiB header limit it still fits an io
// thread's stack; at 12-20 K characters under ASan it does not).
bool SplitSaleRoute(const std::string& path, std::string& id, std::string& action) {
  constexpr std::string_view kPrefix = "/api/sales/";
  if (path.size() <= kPrefix.size() || path.compare(0, kPrefix.size(), kPrefix) != 0) return false;
  const std::string_view rest = std::string_view(path).substr(kPrefix.size());
  const auto slash = rest.find('/');
  id = std::string(rest.substr(0, slash));
  action = slash == std::string_view::npos ? "" : std::string(rest.substr(slash + 1));
  if (id.empty() || (slash != std::string_view::npos && action.empty())) return false;
  return std::all_of(action.begin(), action.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || c == '.' || c == '-'; });
}

bool ValidSaleId(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'))
      return false;
  return true;
}

std::string MintSaleId(UnixMicros now) {
  static std::atomic<unsigned> counter{0};
  std::time_t seconds = static_cast<std::time_t>(now / kMicrosPerSecond);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char id[48];
  std::snprintf(id, sizeof id, "v%04d%02d%02dt%02d%02d%02d-%x", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, (static_cast<unsigned>(now % 1000000) << 4) + (counter++ & 0xf));
  std::string text = id;
  // Letters between the digit groups: a run of 13+ digits (dashes allowed) that passes Luhn
  // looks like a card number to the scanners, and the log would mask part of the id.
  for (char& c : text)
    if (c >= 'a' && c <= 'f') c = static_cast<char>('g' + (c - 'a'));
  return text;
}

// "customer": {"name", "tax_id"} of an invoice; "" when valid, else sets the error.
std::optional<HttpResponse> ReadCustomer(const Body& body, checkout::Customer& customer) {
  auto it = body.value.find("customer");
  if (it == body.value.end() || !it->is_object())
    return Error(400, "customer", "required for an invoice: name and tax_id");
  customer.name = Body::TextOf(*it, "name");
  customer.tax_id = Body::TextOf(*it, "tax_id");
  if (customer.name.size() < 3 || customer.name.size() > 80) return Error(400, "customer.name", "3 to 80 characters");
  if (!formats::IsValidCpf(customer.tax_id) && !formats::IsValidCnpj(customer.tax_id))
    return Error(400, "customer.tax_id", "a valid CPF or CNPJ");
  return std::nullopt;
}

// The card form: number, expiry (MM/AA), security code, holder. nullopt when valid.
std::optional<HttpResponse> ReadCard(const Body& body, const checkout::Settings& settings, checkout::CardData& card,
                                     checkout::FundingType& funding, int& installments) {
  card.number = Digits(body.Text("number"));
  if (card.number.size() < 13 || card.number.size() > 19 || !PassesLuhn(card.number))
    return Error(400, "number", "13 to 19 digits passing the Luhn check");
  const std::string expiry = body.Text("expiry");
  static const std::regex kExpiry(R"(^(0[1-9]|1[0-2])/?([0-9]{2}|20[0-9]{2})$)");
  std::smatch m;
  if (expiry.size() > 7 || !std::regex_match(expiry, m, kExpiry)) return Error(400, "expiry", "MM/AA");
  const std::string year = m[2].length() == 2 ? "20" + m[2].str() : m[2].str();
  card.expiration = year + "-" + m[1].str();
  if (card.expiration < FormatDate(SystemClock::Instance().Now()).substr(0, 7))
    return Error(400, "expiry", "MM/AA, not in the past");
  card.security_code = body.Text("security_code");
  if (card.security_code.size() < 3 || card.security_code.size() > 4 ||
      Digits(card.security_code) != card.security_code)
    return Error(400, "security_code", "3 or 4 digits");
  card.holder_name = body.Text("holder_name");
  if (card.holder_name.size() < 2 || card.holder_name.size() > 26)
    return Error(400, "holder_name", "2 to 26 characters");
  installments = 1;
  if (body.Has("installments")) {
    const json& n = body.value["installments"];
    if (!n.is_number_integer() || n.get<long long>() < 1 || n.get<long long>() > settings.installments.max_count)
      return Error(400, "installments", "1 to " + std::to_string(settings.installments.max_count));
    installments = n.get<int>();
  }
  const std::string kind = body.Has("funding") ? body.Text("funding") : "credit";
  if (!checkout::ParseName(kind, funding)) return Error(400, "funding", "credit or debit");
  if (funding == checkout::FundingType::kDebit && installments != 1)
    return Error(400, "installments", "1 for a debit card");
  return std::nullopt;
}

}  // namespace

Status Service::Impl::Acceptable(const std::string& sale_id, const checkout::Event& event) const {
  BALCAO_ASSIGN_OR_RETURN(const checkout::Sale sale, driver->Get(sale_id));
  const checkout::Step step = checkout::Next(sale, event);
  return step.accepted() ? OkStatus() : step.rejection;
}

StatusOr<checkout::Sale> Service::Impl::FeedIfAccepted(const std::string& sale_id, const checkout::Event& event) {
  BALCAO_RETURN_IF_ERROR(Acceptable(sale_id, event));
  return driver->Feed(sale_id, event);
}

HttpResponse ErrorResponse(int status, const std::string& field, const std::string& rule) {
  return Json(status, {{"error", {{"field", field}, {"rule", rule}}}});
}

void Service::Impl::Handle(HttpRequest request, Respond respond) {
  const std::string& path = request.path;
  const bool get = request.method == "GET" || request.method == "HEAD";
  const bool post = request.method == "POST";

  // Who may call what, before anything else (access.h): Host, cross-site writes, a session.
  std::optional<Session> session;
  if (auto refused = Gate(request, session)) return respond(std::move(*refused));
  if (post && path == "/api/login") return respond(Login(request));
  if (post && path == "/api/logout") return respond(Logout(request));
  if (get && path == "/api/session") return respond(SessionInfo(session));

  // Probes and metrics (health.cc): answered at once, never behind the driver.
  if (get && path == "/healthz") return respond(Healthz());
  if (get && path == "/readyz") return respond(Readyz());
  if (get && path == "/metrics") return respond(MetricsPage());

  // The bank's webhook (webhook.cc): every method, so that only its own answers it.
  if (path == kWebhookPath) return OnWebhook(std::move(request), std::move(respond));

  // The customer's phone, for 3-D Secure (device_page.cc).
  if (path.rfind("/device/", 0) == 0) return respond(DevicePage(request));

  // The web app.
  if (get && path.rfind("/api/", 0) != 0) {
    const std::string name = path == "/" ? "index.html" : path.substr(1);
    auto it = WebAssets().find(name);
    if (it == WebAssets().end()) return respond(Error(404, "path", "no such page"));
    std::string body(it->second);
    // The page's language (i18n.js reads it): touchscreen.language.
    if (name == "index.html" && config.touchscreen_language != "pt-BR") {
      const std::string pt = "<html lang=\"pt-BR\">";
      if (auto at = body.find(pt); at != std::string::npos)
        body.replace(at, pt.size(), "<html lang=\"" + config.touchscreen_language + "\">");
    }
    return respond(HttpResponse{200, ContentType(name), std::move(body), {}});
  }

  if (path == "/api/status" && get) {
    json status = {{"online", online.load()},
                   {"health", HealthJson()},
                   {"bank", sandbox ? "sandbox" : "configured"},
                   {"sandbox_url", sandbox ? "http://127.0.0.1:" + std::to_string(sandbox->port()) : ""},
                   {"now_ms", bank_clock->Now() / 1000},
                   {"day", StoreDay(bank_clock->Now())},
                   {"printer", printer_target},
                   {"webhooks", {{"applied", webhooks_applied.load()}, {"refused", webhooks_refused.load()}}},
                   {"language", config.touchscreen_language},
                   {"challenge", config.settings.challenge_enabled},
                   {"offline_cards", sealed_cards != nullptr},
                   {"max_installments", config.settings.installments.max_count},
                   {"min_installment", config.settings.installments.min_installment},
                   {"merchant", config.store.merchant.name},
                   {"store_id", lane.store_id},
                   {"terminal_id", lane.terminal_id},
                   {"tls", tls},
                   {"tls_fingerprint", tls_fingerprint},
                   {"version", BALCAO_VERSION}};
    if (auto metrics = outbox->Metrics(); metrics.ok()) {
      status["queue"] = {{"depth", metrics->depth},
                         {"unknown", metrics->unknown},
                         {"failed", metrics->failed},
                         {"oldest_age_ms", metrics->oldest_age_ms},
                         {"amount_at_risk", metrics->amount_at_risk}};
    }
    if (auto failed = print_jobs->List(offline::PrintJobState::kFailed, 100); failed.ok())
      status["print_failed"] = failed->size();
    return respond(Json(200, status));
  }

  if (path == "/api/sales" && get) {
    std::string day = StoreDay(bank_clock->Now());
    if (request.query.rfind("day=", 0) == 0) day = request.query.substr(4);
    static const std::regex kDay(R"(^\d{4}-\d{2}-\d{2}$)");
    if (day.size() != 10 || !std::regex_match(day, kDay)) return respond(Error(400, "day", "YYYY-MM-DD"));
    const std::vector<std::string> ids = book->IdsOfDay(day);
    if (std::all_of(ids.begin(), ids.end(), [this](const std::string& id) { return book->HasCopy(id); }))
      return respond(JsonText(200, book->DayJson(day)));  // no need to wait for the driver thread
    return OnDriver(
        [this, day] {
          for (const std::string& id : book->IdsOfDay(day)) EnsureCopy(id);
          return JsonText(200, book->DayJson(day));
        },
        std::move(respond));
  }

  if (path == "/api/sales" && post) {
    Body body = Body::Parse(request.body);
    if (!body.ok) return respond(Error(400, "body", body.rule));
    const json amount = body.value.value("amount", json());
    if (!amount.is_number_integer() || amount.get<long long>() < 1 || amount.get<long long>() > 100'000'000)
      return respond(Error(400, "amount", "a whole number of cents from 1 to 100000000"));
    return OnDriver(
        [this, cents = amount.get<long long>()] {
          const UnixMicros now = bank_clock->Now();
          const std::string id = MintSaleId(now);
          // New sales wait for space (open ones keep finishing): a sale begun on a full disk
          // could not journal its payment.
          const long long free = free_bytes.load(), floor = static_cast<long long>(config.disk_free_floor_mb) << 20;
          if (free >= 0 && free < floor)
            return Error(507, "store",
                         "at least " + std::to_string(config.disk_free_floor_mb) +
                             " MB free in the data dir to open a "
                             "sale (" +
                             std::to_string(free >> 20) + " MB free)");
          if (Status added = book->Add(id, cents, now); !added.ok()) return Error(507, "store", added.message());
          auto sale = driver->Open(id, cents, config.settings);
          if (!sale.ok()) return DriverError(sale.status());
          touched.insert(id);
          Publish();
          return JsonText(201, book->ViewJson(id).value_or("{}"));
        },
        std::move(respond));
  }

  if (path == "/api/queue" || path.rfind("/api/queue/", 0) == 0)
    return QueueRoute(request, session, std::move(respond));

  // /api/sales/{id}[/action]
  std::string id, action;
  if (!SplitSaleRoute(path, id, action)) return respond(Error(404, "path", "no such route"));
  if (!ValidSaleId(id)) return respond(Error(400, "id", "lowercase letters, digits and '-'"));

  if (get && action.empty()) {
    if (auto view = book->ViewJson(id)) return respond(JsonText(200, *view));
    return OnDriver(
        [this, id] {
          EnsureCopy(id);
          if (auto view = book->ViewJson(id)) return JsonText(200, *view);
          return Error(404, "sale", "no sale " + id + " on this box");
        },
        std::move(respond));
  }
  if (get && action == "qr.svg") {
    const std::string svg = QrSvg(book->QrText(id));
    if (svg.empty()) return respond(Error(404, "qr", "the sale shows no QR code now"));
    return respond(HttpResponse{200, "image/svg+xml", svg, {}});
  }
  if (!post) return respond(Error(405, "method", "POST"));

  Body body = Body::Parse(request.body);
  Wipe(request.body);
  if (!body.ok) return respond(Error(400, "body", body.rule));
  const UnixMicros now = bank_clock->Now();
  // Runs one checkout event (built on the driver thread) and answers with the sale's view.
  auto feed = [this, id, &respond](std::function<StatusOr<checkout::Sale>()> run) {
    OnDriver(
        [this, id, run = std::move(run)] {
          if (!open_sales.count(id) && !driver->Get(id).ok()) {
            if (!book->Knows(id)) return Error(404, "sale", "no sale " + id + " on this box");
            if (auto resumed = driver->Resume(id); !resumed.ok()) return DriverError(resumed.status());
          }
          touched.insert(id);
          auto sale = run();
          Publish();
          if (!sale.ok()) return DriverError(sale.status());
          return JsonText(200, book->ViewJson(id).value_or("{}"));
        },
        std::move(respond));
  };

  if (action == "method") {
    checkout::Method method;
    if (!checkout::ParseName(body.Text("method"), method)) return respond(Error(400, "method", "card, pix or invoice"));
    checkout::Customer customer;
    if (method == checkout::Method::kInvoice)
      if (auto bad = ReadCustomer(body, customer)) return respond(*bad);
    return feed([this, id, method, customer, now] {
      return FeedIfAccepted(id, checkout::ChooseMethod{method, customer, now});
    });
  }
  if (action == "card") {
    auto card = std::make_shared<checkout::CardData>();
    checkout::FundingType funding = checkout::FundingType::kCredit;
    int installments = 1;
    auto browser = std::make_shared<checkout::BrowserData>();
    auto bad = ReadCard(body, config.settings, *card, funding, installments);
    // Offline, a sealed card is sent later in a session without the challenge: the customer
    // details are not required then.
    const bool may_go_offline = sealed_cards && !online.load();
    if (!bad) {
      if (auto refused = ReadCardCustomer(body.value, request, config.settings.challenge_enabled && !may_go_offline,
                                          *card, *browser))
        bad = Error(400, refused->field, refused->rule);
    }
    Wipe(body.value);
    // The customer's phone reported its device for this sale: the purchase carries that one.
    if (auto device = DeviceOf(id)) *browser = *device;
    if (bad) {
      Wipe(card->number);
      Wipe(card->security_code);
      return respond(*bad);
    }
    return feed([this, id, card, browser, funding, installments]() -> StatusOr<checkout::Sale> {
      checkout::CardData held = std::move(*card);
      if (TakesCardsOffline(id)) {
        auto sale = HoldCardOffline(id, held, funding, installments);
        Wipe(held.number);
        Wipe(held.security_code);
        return sale;
      }
      if (Status refused = Acceptable(id, checkout::SubmitCard{"probe", "", funding, installments, bank_clock->Now()});
          !refused.ok()) {
        Wipe(held.number);
        Wipe(held.security_code);
        return refused;
      }
      book->SetInstallments(id, installments);
      Wipe(card->number);
      Wipe(card->security_code);
      return driver->SubmitCard(id, std::move(held), funding, installments, std::move(*browser));
    });
  }
  if (action == "cancel" || action == "refund") {
    // The operator is the session's; money going back needs a supervisor's PIN now (login.cc).
    const std::string operator_id = session ? session->operator_name : "";
    const std::string reason = body.Text("reason");
    if (reason.size() < 3 || reason.size() > 200) return respond(Error(400, "reason", "3 to 200 characters"));
    std::string approved_by;
    if (body.Has("approval") || action == "refund") {
      auto approver = Approve(body.value["approval"]);
      if (!approver.ok()) return respond(Error(403, "approval", approver.status().message()));
      approved_by = *approver;
      logging::Info("serve", "money back approved",
                    {{"sale", id}, {"action", action}, {"operator", operator_id}, {"supervisor", approved_by}});
    }
    if (action == "cancel")
      return feed([this, id, operator_id, reason, approved_by, now]() -> StatusOr<checkout::Sale> {
        BALCAO_ASSIGN_OR_RETURN(checkout::Sale sale, driver->Get(id));
        if (sale.collected() > 0 && approved_by.empty())
          return PermissionDeniedError("a supervisor's PIN is needed to cancel a sale that collected money");
        return FeedIfAccepted(id, checkout::Cancel{operator_id, reason, now, approved_by});
      });
    long long amount = -1;  // default: what the sale collected
    if (body.Has("amount")) {
      const json& a = body.value["amount"];
      if (!a.is_number_integer() || a.get<long long>() < 1)
        return respond(Error(400, "amount", "a whole number of cents from 1"));
      amount = a.get<long long>();
    }
    return feed([this, id, operator_id, reason, approved_by, amount, now]() -> StatusOr<checkout::Sale> {
      BALCAO_ASSIGN_OR_RETURN(checkout::Sale sale, driver->Get(id));
      const checkout::Cents cents = amount < 0 ? sale.collected() : amount;
      if (cents > sale.collected())
        return FailedPreconditionError("amount: at most what the sale collected (" + std::to_string(sale.collected()) +
                                       " cents)");
      return FeedIfAccepted(id, checkout::Reverse{cents, operator_id, reason, now, approved_by});
    });
  }
  if (action == "approve-reversal") {
    // A cash register's reversal waiting for a supervisor (nexo.reversal_needs_supervisor).
    auto approver = Approve(body.value["approval"]);
    if (!approver.ok()) return respond(Error(403, "approval", approver.status().message()));
    logging::Info("serve", "money back approved",
                  {{"sale", id},
                   {"action", action},
                   {"operator", session ? session->operator_name : ""},
                   {"supervisor", *approver}});
    return feed([this, id, supervisor = *approver] { return ApproveRegisterReversal(id, supervisor); });
  }
  if (action == "retry") return feed([this, id, now] { return FeedIfAccepted(id, checkout::Retry{now}); });
  if (action == "keep-open") return feed([this, id, now] { return FeedIfAccepted(id, checkout::KeepOpen{now}); });
  if (action == "device-link") {
    if (!book->Knows(id)) return respond(Error(404, "sale", "no sale " + id + " on this box"));
    return respond(DeviceLink(request, id));
  }
  // Any sale of today again, marked "2ª VIA" (what it printed last: sale, refund or invoice).
  if (action == "reprint") return feed([this, id] { return Reprint(id); });
  if (action == "print") return feed([this, id, now] { return FeedIfAccepted(id, checkout::PrintCode{now}); });
  if (action == "fallback") {
    checkout::Customer customer;
    if (auto bad = ReadCustomer(body, customer)) return respond(*bad);
    return feed([this, id, customer, now] { return FeedIfAccepted(id, checkout::FallbackToInvoice{customer, now}); });
  }
  if (action == "simulate") {
    // The embedded sandbox's payer: pays the Pix QR or the invoice, or passes (or fails) the
    // 3-D Secure challenge, as the customer's phone would. Never against a real bank.
    if (!sandbox) return respond(Error(409, "bank", "only with the embedded sandbox"));
    const bool fail = body.Text("outcome") == "fail";
    const std::optional<checkout::Sale> sale = book->Copy(id);
    if (!sale) return respond(Error(404, "sale", "no sale " + id + " on this box"));
    std::string route, payload;
    if (const auto* pix = std::get_if<checkout::ShowingPix>(&sale->state)) {
      route = "dynamic-brcode/pay";
      payload = json{{"uuid", pix->brcode.uuid}, {"name", "Cliente Sandbox"}}.dump();
    } else if (const auto* inv = std::get_if<checkout::ShowingInvoice>(&sale->state)) {
      route = "invoice/pay";
      payload = json{{"id", inv->invoice.id}}.dump();
    } else if (const auto* later = std::get_if<checkout::PayLater>(&sale->state)) {
      route = "invoice/pay";
      payload = json{{"id", later->invoice.id}}.dump();
    } else if (const auto* ch = std::get_if<checkout::Challenge>(&sale->state)) {
      route = fail ? "challenge/fail" : "challenge/pass";
      payload = json{{"id", ch->purchase_id}}.dump();
    } else {
      return respond(Error(409, "state", "nothing for the customer to pay now"));
    }
    // Off the io and driver threads: a blocking HTTP call to the sandbox (which answers once
    // the payment is committed; its webhook to this service comes later, from its workers).
    simulations->Post([port = sandbox->port(), route, payload, respond = std::move(respond)] {
      const SimulationAnswer answer = Simulate(port, route, payload);
      respond(answer.status == 200 ? Json(200, {{"simulated", route}}) : Error(502, "sandbox", answer.body));
    });
    return;
  }
  respond(Error(404, "action", "no such action"));
}

}  // namespace balcao::terminal::service
