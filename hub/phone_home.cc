#include "hub/phone_home.h"

#include <nlohmann/json.hpp>

#include "common/log.h"
#include "hub/routing.h"

namespace balcao::hub {
namespace {

using http::HttpRequest;
using http::HttpResponse;
using nlohmann::json;

HttpResponse Error(int status, const std::string& field, const std::string& rule) {
  return HttpResponse{status,
                      "application/json; charset=utf-8",
                      json{{"error", {{"field", field}, {"rule", rule}}}}.dump(),
                      {{"Cache-Control", "no-store"}}};
}

// A merchant session's uuid as the bank mints it (hex), as the box checks it.
bool ValidUuid(std::string_view uuid) {
  if (uuid.size() < 16 || uuid.size() > 64) return false;
  return uuid.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

}  // namespace

std::string PhoneHome::OnAnnounce(const std::string& subject, const std::string& data) {
  BoxSubjectParts lane;
  if (!ParseBoxSubject(subject, lane) || lane.kind != kPhoneKind) return "";
  const json facts = json::parse(data, nullptr, false);
  std::string rule;
  if (!facts.is_object())
    rule = "a JSON object";
  else if (!ValidUuid(facts.value("uuid", "")))
    rule = "uuid: the session's, hex";
  else if (facts.value("session_id", "").empty())
    rule = "session_id: required";
  else if (!facts.contains("expires_at_ms") || !facts["expires_at_ms"].is_number_integer())
    rule = "expires_at_ms: required";
  if (!rule.empty()) return json{{"error", rule}}.dump();
  PhoneSession session{
      facts["uuid"].get<std::string>(),       lane.store, lane.terminal,
      facts["session_id"].get<std::string>(), data,       facts["expires_at_ms"].get<std::int64_t>() * 1000};
  if (Status kept = store_.PutPhoneSession(session); !kept.ok()) return json{{"error", kept.message()}}.dump();
  return R"({"stored":true})";
}

std::string PhoneHome::OnEnded(const std::string& subject, const std::string& data) {
  BoxSubjectParts lane;
  if (!ParseBoxSubject(subject, lane) || lane.kind != kPhoneEndedKind) return "";
  const json ended = json::parse(data, nullptr, false);
  if (!ended.is_object() || !ValidUuid(ended.value("uuid", "")))
    return json{{"error", "uuid: the session's, hex"}}.dump();
  const std::string uuid = ended["uuid"].get<std::string>();
  if (Status kept = store_.EndPhoneSession(uuid, lane.store, lane.terminal, SystemClock::Instance().Now()); !kept.ok())
    return json{{"error", kept.message()}}.dump();
  logging::Info("hub", "phone page ended with its sale", {{"store", lane.store}, {"terminal", lane.terminal}});
  return R"({"ended":true})";
}

HttpResponse PhoneHome::Asset(const char* name, const char* type) const {
  const auto it = assets_.find(name);
  if (it == assets_.end()) return Error(404, "path", "no such page");
  return HttpResponse{200, type, std::string(it->second), {{"Cache-Control", "public, max-age=3600"}}};
}

HttpResponse PhoneHome::Session(const std::string& uuid, const std::string& client) {
  const UnixMicros now = SystemClock::Instance().Now();
  auto session = store_.FindPhoneSession(uuid, now);
  if (!session.ok()) return Error(503, "store", session.status().message());
  const std::string spent = "no sale waits for a card on this session (paid, expired or replaced)";
  if (!*session) return Error(404, "uuid", spent);
  // The bank's word on whether it still takes a purchase (paid or expired: the link is spent).
  auto at_bank = bank_.merchant_session().Get((*session)->session_id);
  if (!at_bank.ok()) return Error(503, "bank", at_bank.status().message());
  if (at_bank->status != "active") return Error(404, "uuid", spent);
  json facts = json::parse((*session)->facts_json);
  for (const char* internal : {"uuid", "session_id"}) facts.erase(internal);
  facts["now_ms"] = now / 1000;
  facts["user_ip"] = client;  // 3-D Secure's userIp: the phone's, as the proxy saw it
  return HttpResponse{200, "application/json; charset=utf-8", facts.dump(), {{"Cache-Control", "no-store"}}};
}

std::optional<HttpResponse> PhoneHome::Handle(const HttpRequest& request, const std::string& client) {
  constexpr std::string_view kPrefix = "/pay/";
  if (!request.path.starts_with(kPrefix)) return std::nullopt;
  if (request.method != "GET") return Error(405, "method", "GET");
  const std::string rest = request.path.substr(kPrefix.size());
  if (rest == "pay.js") return Asset("pay/pay.js", "text/javascript; charset=utf-8");
  if (rest == "pay.css") return Asset("pay/pay.css", "text/css; charset=utf-8");
  const std::size_t slash = rest.find('/');
  const std::string uuid = rest.substr(0, slash);
  const std::string tail = slash == std::string::npos ? "" : rest.substr(slash + 1);
  if (!ValidUuid(uuid)) return Error(404, "uuid", "a card session's uuid (hex)");
  if (tail.empty()) {
    HttpResponse page = Asset("pay/index.html", "text/html; charset=utf-8");
    page.headers = {{"Cache-Control", "no-store"}, {"Referrer-Policy", "no-referrer"}};
    return page;
  }
  if (tail != "session") return Error(404, "path", "no such page");
  return Session(uuid, client);
}

}  // namespace balcao::hub
