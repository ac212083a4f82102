// The customer's own device for 3-D Secure (docs/terminal.md, "3-D Secure"): the touchscreen
// shows a QR of a one-sale link (POST /api/sales/{id}/device-link); the customer's phone opens
// it (GET /device/<token>: terminal/web/device.html), and its page reports its language, screen
// and timezone (POST /device/<token>); the service adds the phone's User-Agent and address as
// it sees them. The card purchase of that sale then carries the phone's data instead of the
// touchscreen's. Links live in memory, one per sale (a new one replaces it), until the service
// stops. Thread-safety: device_mu guards the links and the reports (io threads and the driver's).
#include <openssl/rand.h>

#include <nlohmann/json.hpp>

#include "terminal/service/json_body.h"
#include "terminal/service/service_impl.h"
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

HttpResponse Service::Impl::DeviceLink(const HttpRequest& request, const std::string& sale_id) {
  const std::string token = NewToken();
  if (token.empty()) return ErrorResponse(503, "device", "no randomness for the link");
  {
    std::lock_guard<std::mutex> lock(device_mu);
    for (auto it = device_tokens.begin(); it != device_tokens.end();)
      it = it->second == sale_id ? device_tokens.erase(it) : std::next(it);
    device_tokens[token] = sale_id;
  }
  // The phone reaches the box by its name on the store's network when one is configured.
  const std::string host = config.host_names.empty() ? std::string(request.Header("host"))
                                                     : config.host_names.front() + ":" + std::to_string(port);
  const std::string url = std::string(tls ? "https://" : "http://") + host + "/device/" + token;
  const nlohmann::json body = {{"url", url}, {"qr_svg", QrSvg(url)}};
  return HttpResponse{200, "application/json; charset=utf-8", body.dump(), {}};
}

HttpResponse Service::Impl::DevicePage(const HttpRequest& request) {
  const std::string token = request.path.substr(std::string("/device/").size());
  std::string sale_id;
  {
    std::lock_guard<std::mutex> lock(device_mu);
    auto it = device_tokens.find(token);
    if (it != device_tokens.end()) sale_id = it->second;
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
    std::lock_guard<std::mutex> lock(device_mu);
    devices[sale_id] = device;
  }
  return HttpResponse{200, "application/json; charset=utf-8", R"({"received":true})", {}};
}

std::optional<checkout::BrowserData> Service::Impl::DeviceOf(const std::string& sale_id) {
  std::lock_guard<std::mutex> lock(device_mu);
  auto it = devices.find(sale_id);
  if (it == devices.end()) return std::nullopt;
  return it->second;
}

}  // namespace balcao::terminal::service
