// Who may call what on `balcao serve` (docs/security.md): the checks every request passes
// before any handler runs. Pure: no I/O, tested without sockets.
//  1. Host: only the names the service answers to (default 127.0.0.1:PORT, localhost:PORT,
//     plus the configured ones): a DNS-rebinding page reaches the box under a foreign name
//     and gets 421 before anything else.
//  2. State-changing methods (anything but GET/HEAD): `Content-Type: application/json` (a
//     browser sends that cross-site only after a CORS preflight, which the service never
//     grants) and, when an `Origin` is sent, one of the service's own origins: else 403.
//  3. The route's audience, as the route table says (routes.cc, Routes()): anyone (the web
//     app's files, /healthz, /readyz, /metrics, the login, the customer's device link), the bank
//     (the signed webhook: its signature is checked by its handler), a logged-in operator or a
//     supervisor's session: else 401 (the supervisor's role is checked by the dispatcher: 403).
// Thread-safety: immutable after construction.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace balcao::terminal::service {

enum class Audience {
  kAnyone,      // no session
  kDeviceLink,  // no session: the handler checks the one-sale link token (device_page.cc)
  kBank,        // the handler checks the bank's signature (webhook.cc)
  kOperator,    // a logged-in operator's session
  kSupervisor,  // a supervisor's session (an operator's is refused with 403)
};

struct RequestFacts {
  std::string_view method, path, host, origin, content_type;
  bool has_session = false;
  // The matched route's audience; without one, AudienceOf(path).
  std::optional<Audience> audience;
};

struct Denial {
  int status;         // 421, 403, 415 or 401
  std::string field;  // what was wrong: "Host", "Origin", "Content-Type", "session"
  std::string rule;   // in words, for the JSON error
};

// The bank's webhook deliveries (POST, signed).
inline constexpr const char* kWebhookPath = "/bank/webhook";

class AccessPolicy {
 public:
  // `port`: the port the service listens on; `names`: extra host names (no port: the
  // service's port is implied; with a port: as given); `tls`: the scheme of its origins.
  AccessPolicy(unsigned short port, const std::vector<std::string>& names, bool tls);

  // The audience of a path no route matches: under /api/ an operator's (so that an unknown API
  // path answers 401 before 404), elsewhere anyone's.
  static Audience AudienceOf(std::string_view path);
  std::optional<Denial> Check(const RequestFacts& request) const;

  const std::vector<std::string>& hosts() const { return hosts_; }

 private:
  std::vector<std::string> hosts_;    // "127.0.0.1:8080"
  std::vector<std::string> origins_;  // "http://127.0.0.1:8080"
};

}  // namespace balcao::terminal::service
