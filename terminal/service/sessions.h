// Operator sessions of the touchscreen (docs/security.md, "Sessions"): an opaque 256-bit
// random token per login, sent as an HttpOnly, SameSite=Strict cookie; a session ends after
// `idle` without a request, at logout, or when the process stops (they live in memory only:
// a restart asks everyone to log in again, which is what a box after a crash should do).
// Thread-safety: all members may be called from any thread.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "common/time.h"
#include "offline/operators.h"

namespace balcao::terminal::service {

inline constexpr const char* kSessionCookie = "balcao_session";

struct Session {
  std::string operator_name;
  offline::OperatorRole role = offline::OperatorRole::kCashier;
  UnixMicros last_seen = 0;
};

class Sessions {
 public:
  Sessions(const Clock& clock, std::chrono::seconds idle);

  // A new session for a logged-in operator; returns its token (64 hex digits).
  std::string Open(const offline::Operator& op);
  // The live session of `token`, its idle timer restarted when the request is the operator's
  // `activity` (not a screen's own background poll); nullopt when unknown or idle too long.
  std::optional<Session> Touch(std::string_view token, bool activity = true);
  void Close(std::string_view token);
  // Every session of one operator (disabled, or their PIN reset).
  void CloseAllOf(std::string_view operator_name);

  // The `Set-Cookie` value for `token` ("" ends the session in the browser).
  std::string Cookie(std::string_view token, bool tls) const;
  // The token in a `Cookie` request header, "" when absent.
  static std::string TokenIn(std::string_view cookie_header);
  // The value of the cookie `name` in a Cookie header, "" when absent.
  static std::string CookieIn(std::string_view cookie_header, std::string_view name);

 private:
  const Clock& clock_;
  const std::chrono::seconds idle_;
  std::mutex mu_;
  std::map<std::string, Session, std::less<>> sessions_;  // token -> session
};

}  // namespace balcao::terminal::service
