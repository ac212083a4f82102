// The HTTP face of the service: the embedded web app, the JSON API under /api/ and the bank's
// webhook endpoint, as one route table (routes.h) read top to bottom: who may call what is its
// third column (docs/security.md). Handlers decode and validate on the io thread (bad input:
// 400 {"error":{"field","rule"}}), then post the driver work to the driver's thread.
#include "terminal/service/routes.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <nlohmann/json.hpp>
#include <regex>

#include "terminal/service/json_body.h"
#include "terminal/service/web_assets.h"

namespace balcao::terminal::service {
namespace {

using nlohmann::json;

bool ValidSaleId(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'))
      return false;
  return true;
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

// --- the handlers of this file ---

void LogIn(Service::Impl& s, RouteCall& c) { c.respond(s.Login(c.request)); }
void LogOut(Service::Impl& s, RouteCall& c) { c.respond(s.Logout(c.request)); }
void ShowSession(Service::Impl& s, RouteCall& c) { c.respond(s.SessionInfo(c.session)); }
void Healthz(Service::Impl& s, RouteCall& c) { c.respond(s.health->Healthz()); }
void Readyz(Service::Impl& s, RouteCall& c) { c.respond(s.health->Readyz()); }
void Metrics(Service::Impl& s, RouteCall& c) { c.respond(s.health->MetricsPage()); }
void Webhook(Service::Impl& s, RouteCall& c) { s.OnWebhook(std::move(c.request), std::move(c.respond)); }
void DevicePage(Service::Impl& s, RouteCall& c) { c.respond(s.doors.devices->Page(c.request)); }

}  // namespace

// The touchscreen's language: the one chosen on its login screen or by the operator who
// logged in last (a cookie of this browser), else the config's `touchscreen.language`.
constexpr const char* kLanguageCookie = "balcao_language";
std::string LanguageCookie(const std::string& language, bool tls) {
  return std::string(kLanguageCookie) + "=" + language + "; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000" +
         (tls ? "; Secure" : "");
}

namespace {

std::string ScreenLanguage(const Service::Impl& s, const HttpRequest& request) {
  const std::string chosen = Sessions::CookieIn(request.Header("cookie"), kLanguageCookie);
  return IsScreenLanguage(chosen) ? chosen : s.setup.config.touchscreen_language;
}

// A file of the web app; index.html in the screen's language (i18n.js reads it).
void WebApp(Service::Impl& s, RouteCall& c) {
  const std::string name = c.request.path == "/" ? "index.html" : c.request.path.substr(1);
  auto it = WebAssets().find(name);
  if (it == WebAssets().end()) return c.respond(ErrorResponse(404, "path", "no such page"));
  std::string body(it->second);
  if (const std::string language = ScreenLanguage(s, c.request); name == "index.html" && language != "pt-BR") {
    const std::string pt = "<html lang=\"pt-BR\">";
    if (auto at = body.find(pt); at != std::string::npos)
      body.replace(at, pt.size(), "<html lang=\"" + language + "\">");
  }
  c.respond(HttpResponse{200, ContentType(name), std::move(body), {{"Cache-Control", "no-store"}}});
}

// POST /api/language {"language": "pt-BR"|"en-US"}: the login screen's switch. Only how this
// browser's screen reads (a year-long cookie, like the session's HttpOnly and SameSite=Strict);
// nothing of the box changes, so anyone at the screen may choose.
void ChooseLanguage(Service::Impl& s, RouteCall& c) {
  auto body = ParseJsonObject(c.request.body);
  const std::string language =
      body.ok() && (*body)["language"].is_string() ? (*body)["language"].get<std::string>() : "";
  if (!IsScreenLanguage(language)) return c.respond(ErrorResponse(400, "language", "pt-BR or en-US"));
  // Chosen while logged in: the operator's too (their next login turns the screen to it).
  if (c.session) {
    if (Status kept = s.storage->operators().SetLanguage(c.session->operator_name, language); !kept.ok())
      return c.respond(ErrorResponse(503, "store", kept.message()));
  }
  c.respond(HttpResponse{200,
                         "application/json; charset=utf-8",
                         json{{"language", language}}.dump(),
                         {{"Set-Cookie", LanguageCookie(language, s.setup.tls)}}});
}

// What the config does not say about the store yet: "name" (still the default) and "cnpj".
json MissingMerchantFacts(const printer::Merchant& merchant) {
  json missing = json::array();
  if (merchant.name == kDefaultMerchantName) missing.push_back("name");
  if (merchant.cnpj.empty()) missing.push_back("cnpj");
  return missing;
}

// GET /api/status: what the touchscreen's status line and the back office read.
void ShowStatus(Service::Impl& s, RouteCall& c) {
  json status = {{"online", s.reach->online()},
                 {"health", s.health->HealthJson()},
                 {"bank", s.bank_side->sandbox() ? "sandbox" : "configured"},
                 {"sandbox_url",
                  s.bank_side->sandbox() ? "http://127.0.0.1:" + std::to_string(s.bank_side->sandbox()->port()) : ""},
                 {"now_ms", s.bank_side->clock().Now() / 1000},
                 {"day", StoreDay(s.bank_side->clock().Now())},
                 {"printer", s.setup.printer_target},
                 {"webhooks", {{"applied", s.events.applied.load()}, {"refused", s.events.refused.load()}}},
                 {"language", s.setup.config.touchscreen_language},
                 {"challenge", s.setup.config.settings.challenge_enabled},
                 {"offline_cards", s.offline_cards != nullptr},
                 {"keyed_entry", s.setup.config.card.keyed_entry},
                 {"max_installments", s.setup.config.settings.installments.max_count},
                 {"min_installment", s.setup.config.settings.installments.min_installment},
                 {"merchant", s.setup.config.store.merchant.name},
                 // The receipts name no real store yet (the config's merchant is the default).
                 {"merchant_default", !MissingMerchantFacts(s.setup.config.store.merchant).empty()},
                 {"merchant_missing", MissingMerchantFacts(s.setup.config.store.merchant)},
                 {"store_id", s.setup.lane.store_id},
                 {"terminal_id", s.setup.lane.terminal_id},
                 {"tls", s.setup.tls},
                 {"tls_fingerprint", s.setup.tls_fingerprint},
                 {"version", BALCAO_VERSION}};
  if (auto metrics = s.storage->outbox().Metrics(); metrics.ok()) {
    status["queue"] = {{"depth", metrics->depth},
                       {"unknown", metrics->unknown},
                       {"failed", metrics->failed},
                       {"oldest_age_ms", metrics->oldest_age_ms},
                       {"amount_at_risk", metrics->amount_at_risk}};
  }
  if (auto failed = s.storage->print_jobs().List(offline::PrintJobState::kFailed, 100); failed.ok())
    status["print_failed"] = failed->size();
  c.respond(JsonAnswer(200, status));
}

// GET /api/sales[?day=YYYY-MM-DD]: the day's sales, from the book when it has them all.
void ListSales(Service::Impl& s, RouteCall& c) {
  std::string day = StoreDay(s.bank_side->clock().Now());
  if (c.request.query.rfind("day=", 0) == 0) day = c.request.query.substr(4);
  static const std::regex kDay(R"(^\d{4}-\d{2}-\d{2}$)");
  if (day.size() != 10 || !std::regex_match(day, kDay)) return c.respond(ErrorResponse(400, "day", "YYYY-MM-DD"));
  const std::vector<std::string> ids = s.sales->book().IdsOfDay(day);
  if (std::all_of(ids.begin(), ids.end(), [&s](const std::string& id) { return s.sales->book().HasView(id); }))
    return c.respond(JsonTextAnswer(200, s.sales->book().DayJson(day)));  // no need to wait for the driver thread
  s.OnDriver(
      [&s, day] {
        for (const std::string& id : s.sales->book().IdsOfDay(day))
          if (!s.sales->book().HasView(id)) s.sales->EnsureCopy(id);
        return JsonTextAnswer(200, s.sales->book().DayJson(day));
      },
      std::move(c.respond));
}

// POST /api/sales {"amount"}: a new sale (201 with its view).
void OpenSale(Service::Impl& s, RouteCall& c) {
  auto body = ParseJsonObject(c.request.body.empty() ? std::string_view("{}") : std::string_view(c.request.body));
  if (!body.ok()) return c.respond(ErrorResponse(400, "body", body.status().message()));
  const json amount = body->value("amount", json());
  if (!amount.is_number_integer() || amount.get<long long>() < 1 || amount.get<long long>() > 100'000'000)
    return c.respond(ErrorResponse(400, "amount", "a whole number of cents from 1 to 100000000"));
  s.OnDriver(
      [&s, cents = amount.get<long long>()] {
        const UnixMicros now = s.bank_side->clock().Now();
        const std::string id = MintSaleId('v', now);
        // New sales wait for space (open ones keep finishing): a sale begun on a full disk
        // could not journal its payment.
        const long long free = s.health->free_bytes(), floor = static_cast<long long>(s.setup.config.disk_free_floor_mb)
                                                               << 20;
        if (free >= 0 && free < floor)
          return ErrorResponse(507, "store",
                               "at least " + std::to_string(s.setup.config.disk_free_floor_mb) +
                                   " MB free in the data dir to open a sale (" + std::to_string(free >> 20) +
                                   " MB free)");
        if (auto refused = s.sales->OpenNewSale(id, cents, s.setup.config.settings, now))
          return refused->in_book ? ErrorResponse(507, "store", refused->status.message())
                                  : DriverError(refused->status);
        s.sales->Publish();
        return SaleAnswer(s, 201, id);
      },
      std::move(c.respond));
}

// Who may call what, one row per route, tried top to bottom (routes.h). The audience is applied
// by the gate (access.h: anyone, the bank's signature, an operator's session, a supervisor's);
// money going back also needs a supervisor's PIN in the request, checked by its handler (the
// rows marked "+ PIN"; docs/security.md, "Money going back needs a supervisor").
constexpr Audience kAnyone = Audience::kAnyone, kDeviceLink = Audience::kDeviceLink, kBank = Audience::kBank,
                   kOperator = Audience::kOperator, kSupervisor = Audience::kSupervisor;
// clang-format off
constexpr std::array kRoutes = {
    //    method  path pattern                         who          handler
    Route{"POST", "/api/login",                         kAnyone,     LogIn},
    Route{"POST", "/api/logout",                        kOperator,   LogOut},
    Route{"GET",  "/api/session",                       kAnyone,     ShowSession},  // 401 without one
    Route{"POST", "/api/language",                      kAnyone,     ChooseLanguage},  // this screen's only
    Route{"GET",  "/healthz",                           kAnyone,     Healthz},
    Route{"GET",  "/readyz",                            kAnyone,     Readyz},
    Route{"GET",  "/metrics",                           kAnyone,     Metrics},
    Route{"*",    kWebhookPath,                         kBank,       Webhook},  // POST: 405 in it
    Route{"*",    "/device/*",                          kDeviceLink, DevicePage},  // GET, POST: 405 in it
    Route{"GET",  "/pay/*",                             kAnyone,     PhonePay},  // the uuid is the capability (phone_pay.cc)
    Route{"POST", "/pay/*",                             kAnyone,     PhonePayAnswered},  // /pay/<uuid>/answered: poll now
    Route{"GET",  "/api/status",                        kOperator,   ShowStatus},
    Route{"GET",  "/api/sales",                         kOperator,   ListSales},
    Route{"POST", "/api/sales",                         kOperator,   OpenSale},
    Route{"GET",  "/api/queue",                         kSupervisor, ListQueue},
    Route{"POST", "/api/queue/card/{item}/{action}",    kSupervisor, ActOnQueuedCard},  // retry|drop
    Route{"POST", "/api/queue/{item}/{action}",         kSupervisor, ActOnQueuedRequest},  // retry|drop
    Route{"GET",  "/api/sales/{sale}",                  kOperator,   GetSale},
    Route{"GET",  "/api/sales/{sale}/qr.svg",           kOperator,   GetSaleQr},
    Route{"POST", "/api/sales/{sale}/method",           kOperator,   ChooseMethod},
    Route{"POST", "/api/sales/{sale}/card",             kOperator,   SubmitCard},
    Route{"POST", "/api/sales/{sale}/cancel",           kOperator,   CancelSale},  // + PIN if it collected
    Route{"POST", "/api/sales/{sale}/refund",           kOperator,   RefundSale},  // + PIN
    Route{"POST", "/api/sales/{sale}/approve-reversal", kOperator,   ApproveReversal},  // + PIN
    Route{"POST", "/api/sales/{sale}/retry",            kOperator,   RetrySale},
    Route{"POST", "/api/sales/{sale}/keep-open",        kOperator,   KeepSaleOpen},
    Route{"POST", "/api/sales/{sale}/device-link",      kOperator,   MakeDeviceLink},
    Route{"GET",  "/api/sales/{sale}/phone-link",       kOperator,   PhoneLink},
    Route{"POST", "/api/sales/{sale}/reprint",          kOperator,   ReprintSale},
    Route{"POST", "/api/sales/{sale}/print",            kOperator,   PrintCode},
    Route{"POST", "/api/sales/{sale}/fallback",         kOperator,   FallBackToInvoice},
    Route{"POST", "/api/sales/{sale}/simulate",         kOperator,   SimulatePayer},  // embedded sandbox only
    Route{"POST", "/api/sales/{sale}",                  kOperator,   NoSuchSaleAction},
    Route{"POST", "/api/sales/{sale}/*",                kOperator,   NoSuchSaleAction},
    Route{"GET",  "/",                                  kAnyone,     WebApp},
    Route{"GET",  "/{item}",                            kAnyone,     WebApp},
};
// clang-format on

bool TakesMethod(const Route& route, std::string_view method) {
  const std::string_view wanted = route.method;
  return wanted == "*" || wanted == method || (wanted == "GET" && method == "HEAD");
}

// Whether `path` matches `pattern` (routes.h), setting the captures.
bool MatchPattern(std::string_view pattern, std::string_view path, std::string& id, std::string& action) {
  while (!pattern.empty()) {
    if (path.empty() || pattern.front() != '/' || path.front() != '/') return false;
    pattern.remove_prefix(1);
    path.remove_prefix(1);
    const std::string_view want = pattern.substr(0, pattern.find('/'));
    const std::string_view have = path.substr(0, path.find('/'));
    if (want.size() > 2 && want.front() == '{' && want.back() == '}') {
      if (have.empty()) return false;
      (want == "{action}" ? action : id) = std::string(have);
    } else if (want != "*" && want != have) {
      return false;
    }
    if (want == "*") {
      action = std::string(path);
      return true;
    }
    pattern.remove_prefix(want.size());
    path.remove_prefix(have.size());
  }
  return path.empty();
}

}  // namespace

std::span<const Route> Routes() { return kRoutes; }

RouteMatch FindRoute(std::span<const Route> routes, std::string_view method, std::string_view path) {
  RouteMatch found;
  for (const Route& route : routes) {
    std::string id, action;
    if (!MatchPattern(route.pattern, path, id, action)) continue;
    if (!found.of_path) {
      found.of_path = &route;
      found.id = id;
      found.action = action;
    }
    const std::string_view takes = route.method;
    if (found.allow.find(takes) == std::string::npos)
      found.allow += (found.allow.empty() ? "" : ", ") + std::string(takes);
    if (!found.route && TakesMethod(route, method)) {
      found.route = &route;
      found.id = std::move(id);
      found.action = std::move(action);
    }
  }
  return found;
}

HttpResponse JsonAnswer(int status, const json& body) {
  return HttpResponse{
      status, "application/json; charset=utf-8", body.dump(-1, ' ', false, json::error_handler_t::replace), {}};
}
HttpResponse JsonTextAnswer(int status, std::string body) {
  return HttpResponse{status, "application/json; charset=utf-8", std::move(body), {}};
}
HttpResponse ErrorResponse(int status, const std::string& field, const std::string& rule) {
  return JsonAnswer(status, {{"error", {{"field", field}, {"rule", rule}}}});
}
HttpResponse SaleAnswer(Service::Impl& service, int status, const std::string& sale_id) {
  return JsonTextAnswer(status, service.sales->book().ViewJson(sale_id).value_or("{}"));
}

HttpResponse DriverError(const Status& status) {
  if (status.code() == StatusCode::kPermissionDenied) return ErrorResponse(403, "approval", status.message());
  if (status.code() == StatusCode::kFailedPrecondition || status.code() == StatusCode::kInvalidArgument)
    return ErrorResponse(409, "state", status.message());
  if (status.code() == StatusCode::kNotFound) return ErrorResponse(404, "sale", status.message());
  // The store, not the bank: a full disk or an I/O error (507 Insufficient Storage).
  if (offline::IsDiskFailure(status)) return ErrorResponse(507, "store", status.message());
  // The store-and-forward's caps (offline card sales, kOutOfRange): the limit, for the cashier.
  if (status.code() == StatusCode::kOutOfRange) return ErrorResponse(409, "offline_cards", status.message());
  return ErrorResponse(503, "bank", status.message());
}

void Service::Impl::Handle(HttpRequest request, Respond respond) {
  RouteMatch found = FindRoute(Routes(), request.method, request.path);
  // Who may call what, before anything else (access.h): Host, cross-site writes, a session.
  std::optional<Session> session;
  const std::optional<Audience> audience =
      found.of_path ? std::optional<Audience>((found.route ? found.route : found.of_path)->who) : std::nullopt;
  if (auto refused = Gate(request, audience, session)) return respond(std::move(*refused));
  if (!found.of_path) return respond(ErrorResponse(404, "path", "no such route"));
  if (std::string_view(found.of_path->pattern).find("{sale}") != std::string_view::npos && !ValidSaleId(found.id))
    return respond(ErrorResponse(400, "id", "lowercase letters, digits and '-'"));
  if (audience == Audience::kSupervisor && (!session || session->role != offline::OperatorRole::kSupervisor))
    return respond(ErrorResponse(403, "session", "the queue is the supervisor's"));
  if (!found.route) {
    HttpResponse refused = ErrorResponse(405, "method", found.allow);
    refused.headers.emplace_back("Allow", found.allow);
    return respond(std::move(refused));
  }
  RouteCall call{std::move(request), std::move(respond), std::move(session), std::move(found.id),
                 std::move(found.action)};
  found.route->handler(*this, call);
}

}  // namespace balcao::terminal::service
