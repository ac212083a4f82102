// The hub's fleet page (docs/hub.md, "The fleet page"): /fleet/ (the page, its script and its
// stylesheet) and its JSON API, behind a login. Who may call what:
//
// | route | who | checked by |
// |---|---|---|
// | GET /fleet/, /fleet/fleet.js, /fleet/fleet.css, /fleet/i18n.js | anyone (no data in them) | - |
// | POST /fleet/api/language | anyone (how this browser's page reads; a signed-in user's kept) | - |
// | POST /fleet/api/login | anyone; 5 failures a name and address in 15 min, then 429 | bcrypt of the user's password |
// | POST /fleet/api/logout | a signed-in user | the session cookie |
// | GET /fleet/api/fleet | a signed-in user | the session cookie |
//
// Users are added with `balcao hub user add NAME` (the password on stdin); sessions live 12 h in
// PostgreSQL (two hubs share them), the cookie is HttpOnly, Secure, SameSite=Strict, and the
// API takes JSON only (a cross-site form cannot post it). The page is written in pt-BR and shown
// in en-US (hub/web/i18n.js) by the user's choice (a cookie, and PostgreSQL for a signed-in
// user) or the browser's Accept-Language.
// Ownership: borrows the store. Thread-safety: Handle from any server thread.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "http/server.h"
#include "hub/fleet.h"
#include "hub/hub_store.h"

namespace balcao::hub {

inline constexpr const char* kFleetCookie = "balcao_hub_session";
// The page's language this browser chose (hub/fleet.h FleetLanguage): pt-BR or en-US.
inline constexpr const char* kFleetLanguageCookie = "balcao_hub_language";

class FleetPage {
 public:
  explicit FleetPage(HubStore& store) : store_(store) {}
  // The answer to a /fleet/ request; nullopt for any other path.
  std::optional<http::HttpResponse> Handle(const http::HttpRequest& request, const std::string& client);
  // The signed-in user of the request's session cookie; "" when none.
  std::string SignedIn(const http::HttpRequest& request);
  // The fleet now (lanes, heartbeats, alarms, events routed), for the page and /metrics.
  StatusOr<std::vector<FleetLane>> Lanes();

 private:
  http::HttpResponse Login(const http::HttpRequest& request, const std::string& client);
  http::HttpResponse Logout(const http::HttpRequest& request);
  http::HttpResponse ChooseLanguage(const http::HttpRequest& request);
  // Failed logins per (name, client): their times within the window.
  bool Throttled(const std::string& key, UnixMicros now);
  void Failed(const std::string& key, UnixMicros now);

  HubStore& store_;
  std::mutex mu_;
  std::map<std::string, std::vector<UnixMicros>> failures_;  // guarded by mu_
};

}  // namespace balcao::hub
