#include "hub/fleet_page.h"

#include <crypt.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/log.h"
#include "hub/enrolment.h"
#include "hub/fleet_assets.h"
#include "hub/routing.h"

namespace balcao::hub {
namespace {

using http::HttpRequest;
using http::HttpResponse;

constexpr UnixMicros kSessionLife = 12 * 3600 * kMicrosPerSecond;
constexpr UnixMicros kFailureWindow = 15 * 60 * kMicrosPerSecond;
constexpr std::size_t kFailuresAllowed = 5;

HttpResponse Json(int status, const std::string& body) {
  return HttpResponse{status, "application/json; charset=utf-8", body, {{"Cache-Control", "no-store"}}};
}
HttpResponse Error(int status, const std::string& field, const std::string& rule) {
  return Json(status, nlohmann::json{{"error", {{"field", field}, {"rule", rule}}}}.dump());
}

// The value of cookie `name` in a Cookie header; "" when absent.
std::string CookieValue(std::string_view header, std::string_view name) {
  for (std::size_t at = 0; at < header.size();) {
    std::size_t end = header.find(';', at);
    if (end == std::string_view::npos) end = header.size();
    std::string_view pair = header.substr(at, end - at);
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    if (pair.size() > name.size() && pair.substr(0, name.size()) == name && pair[name.size()] == '=')
      return std::string(pair.substr(name.size() + 1));
    at = end + 1;
  }
  return "";
}

bool PasswordMatches(const std::string& password, const std::string& hash) {
  crypt_data data{};
  const char* computed = crypt_rn(password.c_str(), hash.c_str(), &data, sizeof data);
  return computed != nullptr && computed[0] != '*' && hash == computed;
}

// The Set-Cookie of the page's language: only how this browser's page reads, for a year.
std::string LanguageCookie(const std::string& language) {
  return std::string(kFleetLanguageCookie) + "=" + language +
         "; Path=/fleet; HttpOnly; Secure; SameSite=Strict; Max-Age=31536000";
}

// A file of the page; index.html in the request's language (i18n.js reads <html lang>).
HttpResponse Asset(const std::string& name, const HttpRequest& request) {
  const auto it = FleetAssets().find(name);
  if (it == FleetAssets().end()) return Error(404, "path", "no such page");
  std::string body(it->second);
  if (name == "index.html") {
    const std::string language =
        FleetLanguage(CookieValue(request.Header("cookie"), kFleetLanguageCookie), request.Header("accept-language"));
    const std::string written = "<html lang=\"pt-BR\">";
    if (const auto at = body.find(written); at != std::string::npos && language != "pt-BR")
      body.replace(at, written.size(), "<html lang=\"" + language + "\">");
  }
  const std::string type = name.ends_with(".js")    ? "text/javascript; charset=utf-8"
                           : name.ends_with(".css") ? "text/css; charset=utf-8"
                                                    : "text/html; charset=utf-8";
  return HttpResponse{200,
                      type,
                      std::move(body),
                      {{"Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'"},
                       {"X-Content-Type-Options", "nosniff"},
                       {"Cache-Control", "no-cache"},
                       {"Vary", "Cookie, Accept-Language"}}};
}

}  // namespace

std::string FleetPage::SignedIn(const HttpRequest& request) {
  const std::string token = CookieValue(request.Header("cookie"), kFleetCookie);
  if (token.empty()) return "";
  auto user = store_.FleetSessionUser(Sha256Hex(token), SystemClock::Instance().Now());
  return user.ok() && *user ? **user : "";
}

bool FleetPage::Throttled(const std::string& key, UnixMicros now) {
  std::lock_guard lock(mu_);
  auto& times = failures_[key];
  times.erase(std::remove_if(times.begin(), times.end(), [now](UnixMicros t) { return now - t > kFailureWindow; }),
              times.end());
  return times.size() >= kFailuresAllowed;
}

void FleetPage::Failed(const std::string& key, UnixMicros now) {
  std::lock_guard lock(mu_);
  failures_[key].push_back(now);
}

HttpResponse FleetPage::Login(const HttpRequest& request, const std::string& client) {
  if (request.method != "POST") return Error(405, "method", "POST {\"name\", \"password\"}");
  if (request.Header("content-type").find("application/json") == std::string_view::npos)
    return Error(415, "Content-Type", "application/json");
  const auto body = nlohmann::json::parse(request.body, nullptr, false);
  if (!body.is_object() || !body.contains("name") || !body["name"].is_string() || !body.contains("password") ||
      !body["password"].is_string())
    return Error(400, "name", "name and password required, text");
  const std::string name = body["name"].get<std::string>();
  const UnixMicros now = SystemClock::Instance().Now();
  const std::string key = name + "\n" + client;
  if (Throttled(key, now)) return Error(429, "password", "too many failed logins: try again in 15 minutes");
  auto hash = store_.FleetUserHash(name);
  if (!hash.ok()) return Error(503, "store", hash.status().message());
  if (!*hash || !PasswordMatches(body["password"].get<std::string>(), **hash)) {
    Failed(key, now);
    logging::Warn("hub", "fleet login refused", {{"name", name}, {"from", client}});
    return Error(401, "password", "wrong name or password");
  }
  const std::string token = NewSecret() + NewSecret();
  if (Status kept = store_.AddFleetSession(Sha256Hex(token), name, now + kSessionLife); !kept.ok())
    return Error(503, "store", kept.message());
  // The language the user chose last follows them to this browser.
  const auto language = store_.FleetUserLanguage(name);
  const bool has_language = language.ok() && IsFleetLanguage(*language);
  HttpResponse answer = Json(200, nlohmann::json{{"name", name}, {"language", has_language ? *language : ""}}.dump());
  answer.headers.push_back({"Set-Cookie", std::string(kFleetCookie) + "=" + token +
                                              "; Path=/fleet; HttpOnly; Secure; SameSite=Strict; Max-Age=" +
                                              std::to_string(kSessionLife / kMicrosPerSecond)});
  if (has_language) answer.headers.push_back({"Set-Cookie", LanguageCookie(*language)});
  return answer;
}

HttpResponse FleetPage::ChooseLanguage(const HttpRequest& request) {
  if (request.method != "POST") return Error(405, "method", "POST {\"language\"}");
  if (request.Header("content-type").find("application/json") == std::string_view::npos)
    return Error(415, "Content-Type", "application/json");
  const auto body = nlohmann::json::parse(request.body, nullptr, false);
  const std::string language = body.is_object() && body.contains("language") && body["language"].is_string()
                                   ? body["language"].get<std::string>()
                                   : "";
  if (!IsFleetLanguage(language)) return Error(400, "language", "pt-BR or en-US");
  // Chosen signed in: the user's too (their next sign-in, in any browser, turns the page to it).
  if (const std::string user = SignedIn(request); !user.empty())
    if (Status kept = store_.SetFleetUserLanguage(user, language); !kept.ok())
      return Error(503, "store", kept.message());
  HttpResponse answer = Json(200, nlohmann::json{{"language", language}}.dump());
  answer.headers.push_back({"Set-Cookie", LanguageCookie(language)});
  return answer;
}

HttpResponse FleetPage::Logout(const HttpRequest& request) {
  const std::string token = CookieValue(request.Header("cookie"), kFleetCookie);
  if (!token.empty()) (void)store_.EndFleetSession(Sha256Hex(token)).ok();
  HttpResponse answer = Json(200, R"({"signed_out":true})");
  answer.headers.push_back(
      {"Set-Cookie", std::string(kFleetCookie) + "=; Path=/fleet; HttpOnly; Secure; SameSite=Strict; Max-Age=0"});
  return answer;
}

StatusOr<std::vector<FleetLane>> FleetPage::Lanes() {
  BALCAO_ASSIGN_OR_RETURN(std::vector<EnrolledLane> lanes, store_.ActiveLanes());
  BALCAO_ASSIGN_OR_RETURN(std::vector<HubStore::LaneHealth> health, store_.Health());
  std::vector<FleetLane> fleet;
  for (const EnrolledLane& lane : lanes) {
    FleetLane row{lane.store, lane.terminal};
    for (const HubStore::LaneHealth& h : health)
      if (h.store == lane.store && h.terminal == lane.terminal)
        row.heartbeat_json = h.heartbeat_json, row.last_seen = h.last_seen;
    BALCAO_ASSIGN_OR_RETURN(row.chain_alarm, store_.LastChainAlarm(lane.store, lane.terminal));
    BALCAO_ASSIGN_OR_RETURN(row.events_routed, store_.CountRouted(LaneSubject(lane.store, lane.terminal)));
    fleet.push_back(std::move(row));
  }
  return fleet;
}

std::optional<HttpResponse> FleetPage::Handle(const HttpRequest& request, const std::string& client) {
  const std::string& path = request.path;
  if (path != "/fleet" && !path.starts_with("/fleet/")) return std::nullopt;
  if (path == "/fleet/api/login") return Login(request, client);
  if (path == "/fleet/api/language") return ChooseLanguage(request);
  if (path.starts_with("/fleet/api/")) {
    const std::string user = SignedIn(request);
    if (user.empty()) return Error(401, "session", "sign in first (POST /fleet/api/login)");
    if (path == "/fleet/api/logout") return request.method == "POST" ? Logout(request) : Error(405, "method", "POST");
    if (path != "/fleet/api/fleet") return Error(404, "path", "the fleet API serves /fleet/api/fleet");
    if (request.method != "GET") return Error(405, "method", "GET");
    auto lanes = Lanes();
    if (!lanes.ok()) return Error(503, "store", lanes.status().message());
    const UnixMicros now = SystemClock::Instance().Now();
    nlohmann::json doc = nlohmann::json::parse(FleetJson(*lanes, now, BusinessDayOf(now)));
    doc["user"] = user;
    return Json(200, doc.dump());
  }
  if (request.method != "GET") return Error(405, "method", "GET");
  if (path == "/fleet") return HttpResponse{308, "text/plain", "", {{"Location", "/fleet/"}}};
  return Asset(path == "/fleet/" ? "index.html" : path.substr(std::string("/fleet/").size()), request);
}

}  // namespace balcao::hub
