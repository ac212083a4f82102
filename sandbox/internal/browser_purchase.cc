#include "sandbox/internal/browser_purchase.h"

#include <algorithm>

#include "sandbox/internal/dispatcher.h"
#include "sandbox/internal/family.h"

namespace balcao::sandbox::internal {
namespace {

constexpr std::size_t kKeptRecords = 1000;

// "::ffff:10.0.0.7" (an IPv4 peer on a dual-stack socket) is 10.0.0.7.
std::string PlainAddress(std::string address) {
  if (address.rfind("::ffff:", 0) == 0 && address.find('.') != std::string::npos) address.erase(0, 7);
  return address;
}

std::string Clip(std::string_view text, std::size_t max) { return std::string(text.substr(0, max)); }

}  // namespace

void PurchaseRequestLog::Add(Json record) {
  std::lock_guard lock(mu_);
  records_.push_back(std::move(record));
  while (records_.size() > kKeptRecords) records_.pop_front();
}

Json PurchaseRequestLog::All() const {
  std::lock_guard lock(mu_);
  Json out = Json::array();
  for (const Json& r : records_) out.push_back(r);
  return out;
}

void PurchaseRequestLog::Clear() {
  std::lock_guard lock(mu_);
  records_.clear();
}

bool IsSessionPurchase(const std::vector<std::string>& segments) {
  return segments.size() == 4 && segments[0] == "v2" && segments[1] == "merchant-session" && !segments[2].empty() &&
         segments[3] == "purchase";
}

http::HttpResponse PurchasePreflight(const http::HttpRequest& request) {
  http::HttpResponse res;
  res.status = 204;
  res.content_type = "text/plain; charset=utf-8";
  AddPurchaseCors(res);
  res.headers.emplace_back("Access-Control-Allow-Methods", "POST, OPTIONS");
  // What the page sends; the signing headers too, for a relay that runs in a browser context.
  res.headers.emplace_back("Access-Control-Allow-Headers",
                           "Content-Type, Accept-Language, Access-Id, Access-Time, Access-Signature");
  res.headers.emplace_back("Access-Control-Max-Age", "600");
  // A page that asks for more than it needs (a custom header) learns it from the answer.
  if (!request.Header("access-control-request-method").empty() &&
      request.Header("access-control-request-method") != "POST")
    res.status = 405;
  return res;
}

void AddPurchaseCors(http::HttpResponse& response) {
  // No cookies or credentials are involved: any page may post a purchase for a uuid it knows.
  response.headers.emplace_back("Access-Control-Allow-Origin", "*");
  response.headers.emplace_back("Vary", "Origin");
}

bool SignedRequest(const http::HttpRequest& request) {
  return !request.Header("access-id").empty() || !request.Header("access-time").empty() ||
         !request.Header("access-signature").empty();
}

std::optional<Caller> UnsignedPurchaseCaller(Services& s, const http::HttpRequest& request, const std::string& uuid,
                                             Problems& problems, int& status) {
  const StatusOr<std::optional<std::string>> scope = s.engine->ScopeOfKey("merchant-session", "uuid", uuid);
  if (!scope.ok() || !scope->has_value()) {
    status = scope.ok() ? 400 : 500;  // the API answers an unknown id with 400, as its other routes
    problems.push_back(NotFound("merchant-session", uuid));
    return std::nullopt;
  }
  Caller caller{Caller::Kind::kSimulation, "public", "", **scope};
  const std::string source = PlainAddress(request.remote_address);
  Status st = s.engine->Run(caller, LangOf(request), problems, [&](Context& ctx) {
    auto session = ctx.FindBy("merchant-session", "uuid", uuid);
    if (!session) return problems.push_back(NotFound("merchant-session", uuid));
    const UnixMicros expires = session->created + session->doc["expiration"].get<std::int64_t>() * kMicrosPerSecond;
    if (session->status() != "active" || ctx.Now() > expires) {
      const std::string now = session->status() == "active" ? "expired" : session->status();
      return problems.push_back(MakeProblem("invalidSession",
                                            "Session " + uuid + " is " + now + ": it accepts no more purchases.",
                                            "A sessão " + uuid + " não aceita mais compras."));
    }
    const Json& ips = session->doc["allowedIps"];
    if (!ips.empty() && std::find(ips.begin(), ips.end(), Json(source)) == ips.end())
      problems.push_back(MakeProblem(
          "invalidUserIp", "This purchase came from " + source + ", which is not in the session's allowedIps.",
          "Esta compra veio de " + source + ", que não está em allowedIps da sessão."));
  });
  if (!st.ok()) {
    status = 500;
    problems.push_back(MakeProblem("internalServerError", st.ToString(), st.ToString()));
    return std::nullopt;
  }
  if (!problems.empty()) {
    status = 400;
    return std::nullopt;
  }
  return caller;
}

Json PurchaseRecord(const http::HttpRequest& request, const std::string& uuid, bool is_signed, UnixMicros at,
                    const http::HttpResponse& answer) {
  Json record = {{"at", FormatTimestamp(at)},
                 {"sessionUuid", uuid},
                 {"signed", is_signed},
                 {"accessId", Clip(request.Header("access-id"), 200)},
                 {"userAgent", Clip(request.Header("user-agent"), 400)},
                 {"acceptLanguage", Clip(request.Header("accept-language"), 100)},
                 {"origin", Clip(request.Header("origin"), 200)},
                 {"sourceAddress", PlainAddress(request.remote_address)},
                 {"status", answer.status},
                 {"metadata", nullptr},
                 {"purchaseId", ""},
                 {"purchaseStatus", ""}};
  // The 3-D Secure metadata the page sent (the device's facts, never a card field).
  const Json body = Json::parse(request.body, nullptr, false);
  if (body.is_object() && body.contains("metadata") && body["metadata"].is_object()) {
    Json metadata = Json::object();
    for (const char* key : {"userAgent", "userIp", "language", "timezoneOffset", "screen"})
      if (body["metadata"].contains(key)) metadata[key] = body["metadata"][key];
    record["metadata"] = std::move(metadata);
  }
  const Json reply = Json::parse(answer.body, nullptr, false);
  if (reply.is_object() && reply.contains("purchase") && reply["purchase"].is_object()) {
    record["purchaseId"] = reply["purchase"].value("id", "");
    record["purchaseStatus"] = reply["purchase"].value("status", "");
  } else if (reply.is_object() && reply.contains("errors") && reply["errors"].is_array() && !reply["errors"].empty()) {
    record["error"] = reply["errors"][0].value("code", "");
  }
  return record;
}

}  // namespace balcao::sandbox::internal
