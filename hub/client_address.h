// Whose request it is, behind the proxy (pure). The hub listens behind Caddy, so every request
// comes from the proxy's address; the client's is in X-Forwarded-For, which anyone can also
// write. It is believed only when the request came from a configured proxy, and then read from
// the right: the first address that is not itself a trusted proxy is the client (what the
// proxy saw), whatever the client put to its left. Used by the public pages the hub serves
// (the phone-card page: docs/hub.md, "The phone page's public home").
#pragma once

#include <string>
#include <vector>

#include "http/server.h"

namespace balcao::hub {

std::string ClientAddress(const http::HttpRequest& request, const std::vector<std::string>& trusted_proxies);

}  // namespace balcao::hub
