// The customer's device links (device_links.h).
#include <openssl/rand.h>

#include <nlohmann/json.hpp>

#include "terminal/service/device_links.h"
#include "terminal/service/json_body.h"
#include "terminal/service/routes.h"
#include "terminal/service/web_assets.h"

namespace balcao::terminal::service {
namespace {

std::string NewToken() {
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof bytes) != 1) return "";
  static const char kHex[] = "0123456789abcdef";
  std::string token;
  for (unsigned char b : bytes) token += {kHex[b >> 4], kHex[b & 15]};
  return token;
}

}  // namespace

HttpResponse DeviceLinks::Link(const HttpRequest& request, const std::string& sale_id) {
  const std::string token = NewToken();
  if (token.empty()) return ErrorResponse(503, "device", "no randomness for the link");
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = tokens_.begin(); it != tokens_.end();)
      it = it->second == sale_id ? tokens_.erase(it) : std::next(it);
    tokens_[token] = sale_id;
  }
  // The phone reaches the box by its name on the store's network when one is configured.
  const std::string host =
      host_names_.empty() ? std::string(request.Header("host")) : host_names_.front() + ":" + std::to_string(port_);
  const std::string url = std::string(tls_ ? "https://" : "http://") + host + "/device/" + token;
  const nlohmann::json body = {{"url", url}, {"qr_svg", QrSvg(url)}};
  return HttpResponse{200, "application/json; charset=utf-8", body.dump(), {}};
}

HttpResponse DeviceLinks::Page(const HttpRequest& request) {
  const std::string token = request.path.substr(std::string("/device/").size());
  std::string sale_id;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = tokens_.find(token);
    if (it != tokens_.end()) sale_id = it->second;
  }
  if (sale_id.empty()) return ErrorResponse(404, "device", "this link is unknown or was replaced");
  if (request.method == "GET") {
    auto page = WebAssets().find("device.html");
    return HttpResponse{200, "text/html; charset=utf-8", std::string(page->second), {}};
  }
  if (request.method != "POST") return ErrorResponse(405, "method", "GET or POST");
  auto body = ParseJsonObject(request.body);
  if (!body.ok()) return ErrorResponse(400, "body", body.status().message());
  const auto text = [&](const char* key) {
    return body->contains(key) && (*body)[key].is_string() ? (*body)[key].get<std::string>() : std::string();
  };
  checkout::BrowserData device;
  device.user_agent = std::string(request.Header("user-agent"));
  device.user_ip = request.remote_address;
  device.language = text("language");
  device.screen = text("screen");
  const nlohmann::json offset = body->contains("timezone_offset") ? (*body)["timezone_offset"] : nlohmann::json();
  if (device.user_agent.empty() || device.user_agent.size() > 400)
    return ErrorResponse(400, "user-agent", "the browser's User-Agent header (up to 400 characters)");
  if (device.language.size() < 2 || device.language.size() > 35)
    return ErrorResponse(400, "language", "the browser's language (navigator.language, e.g. pt-BR)");
  if (device.screen.size() > 20) return ErrorResponse(400, "screen", "WIDTHxHEIGHT");
  if (!offset.is_number_integer() || offset.get<long long>() < -840 || offset.get<long long>() > 720)
    return ErrorResponse(400, "timezone_offset", "minutes from -840 to 720 (Date.getTimezoneOffset())");
  device.timezone_offset_minutes = offset.get<int>();
  {
    std::lock_guard<std::mutex> lock(mu_);
    devices_[sale_id] = device;
  }
  return HttpResponse{200, "application/json; charset=utf-8", R"({"received":true})", {}};
}

std::optional<checkout::BrowserData> DeviceLinks::Of(const std::string& sale_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = devices_.find(sale_id);
  if (it == devices_.end()) return std::nullopt;
  return it->second;
}

}  // namespace balcao::terminal::service
