#include "terminal/service/sessions.h"

#include <openssl/rand.h>

#include <cstdlib>

namespace balcao::terminal::service {

Sessions::Sessions(const Clock& clock, std::chrono::seconds idle) : clock_(clock), idle_(idle) {}

std::string Sessions::Open(const offline::Operator& op) {
  unsigned char bytes[32];
  // OpenSSL's CSPRNG; a box that cannot draw random bytes must not hand out guessable sessions.
  if (RAND_bytes(bytes, sizeof bytes) != 1) std::abort();
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  for (unsigned char b : bytes) {
    token += kHex[b >> 4];
    token += kHex[b & 15];
  }
  std::lock_guard lock(mu_);
  sessions_[token] = Session{op.name, op.role, clock_.Now()};
  return token;
}

std::optional<Session> Sessions::Touch(std::string_view token, bool activity) {
  if (token.empty()) return std::nullopt;
  std::lock_guard lock(mu_);
  auto it = sessions_.find(token);
  if (it == sessions_.end()) return std::nullopt;
  const UnixMicros now = clock_.Now();
  if (now - it->second.last_seen > static_cast<UnixMicros>(idle_.count()) * kMicrosPerSecond) {
    sessions_.erase(it);
    return std::nullopt;
  }
  if (activity) it->second.last_seen = now;
  return it->second;
}

void Sessions::Close(std::string_view token) {
  std::lock_guard lock(mu_);
  if (auto it = sessions_.find(token); it != sessions_.end()) sessions_.erase(it);
}

void Sessions::CloseAllOf(std::string_view operator_name) {
  std::lock_guard lock(mu_);
  std::erase_if(sessions_, [&](const auto& entry) { return entry.second.operator_name == operator_name; });
}

std::string Sessions::Cookie(std::string_view token, bool tls) const {
  std::string cookie = std::string(kSessionCookie) + "=" + std::string(token) + "; Path=/; HttpOnly; SameSite=Strict";
  if (token.empty()) cookie += "; Max-Age=0";
  if (tls) cookie += "; Secure";
  return cookie;
}

std::string Sessions::TokenIn(std::string_view header) { return CookieIn(header, kSessionCookie); }

std::string Sessions::CookieIn(std::string_view header, std::string_view name) {
  while (!header.empty()) {
    const auto end = header.find(';');
    std::string_view pair = header.substr(0, end);
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    if (pair.size() > name.size() && pair.substr(0, name.size()) == name && pair[name.size()] == '=')
      return std::string(pair.substr(name.size() + 1));
    if (end == std::string_view::npos) break;
    header.remove_prefix(end + 1);
  }
  return "";
}

}  // namespace balcao::terminal::service
