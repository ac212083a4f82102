// Who is at the counter (docs/security.md): the gate every request passes first (access.h),
// the operator's login, logout and session, and the supervisor's one-shot approval of money
// going back. PINs are read from the request body, checked, and wiped; never logged.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <system_error>

#include "common/log.h"
#include "terminal/service/json_body.h"
#include "terminal/service/routes.h"
#include "terminal/service/service_impl.h"

namespace balcao::terminal::service {
namespace {

using nlohmann::json;

HttpResponse JsonOk(const json& body, std::vector<std::pair<std::string, std::string>> headers = {}) {
  return HttpResponse{200, "application/json; charset=utf-8", body.dump(), std::move(headers)};
}

// The PIN attempt's refusal as an HTTP answer: 401 wrong, 423 locked, 403 disabled.
HttpResponse Refusal(const Status& status, const std::string& pin_field) {
  switch (status.code()) {
    case StatusCode::kPermissionDenied:
      return ErrorResponse(401, pin_field, status.message());
    case StatusCode::kResourceExhausted:
      return ErrorResponse(423, "operator", status.message());
    case StatusCode::kFailedPrecondition:
      return ErrorResponse(403, "operator", status.message());
    default:
      return ErrorResponse(503, "store", status.message());
  }
}

}  // namespace

std::optional<HttpResponse> Service::Impl::Gate(const HttpRequest& request, std::optional<Audience> audience,
                                                std::optional<Session>& session) {
  const std::string token = Sessions::TokenIn(request.Header("cookie"));
  // The touchscreen marks its own polls: they keep the screen current, not the session alive.
  session = doors.sessions->Touch(token, request.Header("x-balcao-background") != "1");
  // `balcao operator disable` runs in another process: a disabled operator's session ends at
  // their next request.
  if (session) {
    auto op = storage->operators().Get(session->operator_name);
    if (!op.ok() || op->disabled) {
      doors.sessions->CloseAllOf(session->operator_name);
      session.reset();
    }
  }
  RequestFacts facts;
  facts.method = request.method;
  facts.path = request.path;
  facts.host = request.Header("host");
  facts.origin = request.Header("origin");
  facts.content_type = request.Header("content-type");
  facts.has_session = session.has_value();
  facts.audience = audience;
  auto denial = doors.access->Check(facts);
  if (!denial) return std::nullopt;
  if (denial->status != 401)
    logging::Warn("serve", "request refused",
                  {{"status", denial->status}, {"field", denial->field}, {"path", std::string(request.path)}});
  return ErrorResponse(denial->status, denial->field, denial->rule);
}

HttpResponse Service::Impl::Login(HttpRequest& request) {
  auto parsed = ParseJsonObject(request.body);
  Wipe(request.body);
  if (!parsed.ok() && parsed.status().message() != "a JSON object")
    return ErrorResponse(400, "body", parsed.status().message());
  json body = parsed.ok() ? *std::move(parsed) : json();
  if (!body.is_object() || !body["operator"].is_string() || !body["pin"].is_string())
    return ErrorResponse(400, "body", R"(a JSON object {"operator": NAME, "pin": DIGITS})");
  // The screen's language chosen on this login screen, if the switch was used: it becomes the
  // operator's (docs/terminal.md, "Language").
  const bool chose_language = body.contains("language");
  const std::string language =
      chose_language && body["language"].is_string() ? body["language"].get<std::string>() : "";
  if (chose_language && !IsScreenLanguage(language))
    return ErrorResponse(400, "language", "pt-BR or en-US, or left out");
  std::string pin = body["pin"].get<std::string>();
  Wipe(body["pin"].get_ref<std::string&>());
  auto op = storage->operators().Authenticate(body["operator"].get<std::string>(), pin);
  Wipe(pin);
  if (!op.ok()) return Refusal(op.status(), "pin");
  if (chose_language && language != op->language) {
    if (Status kept = storage->operators().SetLanguage(op->name, language); !kept.ok())
      logging::Warn("operators", "language not kept", {{"operator", op->name}, {"reason", kept.message()}});
    op->language = language;
  }
  const std::string token = doors.sessions->Open(*op);
  std::vector<std::pair<std::string, std::string>> headers = {
      {"Set-Cookie", doors.sessions->Cookie(token, request.tls)}, {"Cache-Control", "no-store"}};
  // The operator's language turns this screen to it (the page reloads when it differs).
  if (!op->language.empty()) headers.emplace_back("Set-Cookie", LanguageCookie(op->language, request.tls));
  return JsonOk({{"operator", op->name},
                 {"role", offline::OperatorRoleName(op->role)},
                 {"language", op->language},
                 {"idle_timeout_s", setup.config.session_idle_s}},
                std::move(headers));
}

HttpResponse Service::Impl::Logout(const HttpRequest& request) {
  doors.sessions->Close(Sessions::TokenIn(request.Header("cookie")));
  return JsonOk({{"logged_out", true}}, {{"Set-Cookie", doors.sessions->Cookie("", request.tls)}});
}

HttpResponse Service::Impl::SessionInfo(const std::optional<Session>& session) const {
  if (!session) {
    HttpResponse refusal = ErrorResponse(401, "session", "log in first (POST /api/login)");
    // A box nobody can log in to yet: the login screen shows what to type on the box.
    if (auto hint = FirstRunHint()) {
      json body = json::parse(refusal.body);
      body["first_run"] = {{"command", hint->command}, {"directory", hint->directory}};
      refusal.body = body.dump();
    }
    return refusal;
  }
  return JsonOk({{"operator", session->operator_name},
                 {"role", offline::OperatorRoleName(session->role)},
                 {"idle_timeout_s", setup.config.session_idle_s}});
}

StatusOr<std::string> Service::Impl::Approve(nlohmann::json& approval) {
  if (!approval.is_object() || !approval["supervisor"].is_string() || !approval["pin"].is_string())
    return PermissionDeniedError(
        R"(a supervisor's PIN is needed to give money back: {"supervisor": NAME, "pin": DIGITS})");
  std::string pin = approval["pin"].get<std::string>();
  Wipe(approval["pin"].get_ref<std::string&>());
  auto supervisor = storage->operators().Authenticate(approval["supervisor"].get<std::string>(), pin);
  Wipe(pin);
  if (!supervisor.ok()) return PermissionDeniedError("approval: " + supervisor.status().message());
  if (supervisor->role != offline::OperatorRole::kSupervisor)
    return PermissionDeniedError("approval: " + supervisor->name + " is not a supervisor");
  return supervisor->name;
}

std::optional<AddOperatorHint> Service::Impl::FirstRunHint() const {
  auto list = storage->operators().List();
  if (!list.ok() || !list->empty()) return std::nullopt;
  std::error_code ec;
  const auto cwd = std::filesystem::current_path(ec);
  return AddFirstOperatorHint(ProgramAsTyped(), setup.options.data_dir, ec ? "/" : cwd.string(),
                              !setup.options.config_path.empty());
}

}  // namespace balcao::terminal::service
