#include "hub/client_address.h"

#include <algorithm>

namespace balcao::hub {
namespace {

std::string Trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return std::string(text);
}

}  // namespace

std::string ClientAddress(const http::HttpRequest& request, const std::vector<std::string>& trusted_proxies) {
  auto trusted = [&trusted_proxies](const std::string& address) {
    return std::find(trusted_proxies.begin(), trusted_proxies.end(), address) != trusted_proxies.end();
  };
  if (!trusted(request.remote_address)) return request.remote_address;
  // Every X-Forwarded-For line, in order, as one list (a proxy may add a line of its own).
  std::vector<std::string> hops;
  for (const auto& [name, value] : request.headers) {
    if (name != "x-forwarded-for") continue;
    std::string_view rest = value;
    while (!rest.empty()) {
      const std::size_t comma = rest.find(',');
      hops.push_back(Trimmed(rest.substr(0, comma)));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
  }
  for (auto hop = hops.rbegin(); hop != hops.rend(); ++hop)
    if (!hop->empty() && !trusted(*hop)) return *hop;
  return request.remote_address;  // no client named beyond the proxies: the proxy itself
}

}  // namespace balcao::hub
