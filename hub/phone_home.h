// The phone-card page's public home at the hub (docs/hub.md, "The phone page's public home"):
// the customer's phone cannot reach the box behind the store's router, so with `hub.public_url`
// the box's QR points at the hub, which serves the same page (terminal/web/pay/, handed in by
// the executable) and its facts. Before showing the QR the box announces the session's public
// facts on balcao.box.<store>.<terminal>.phone (a request, answered once PostgreSQL holds them);
// the hub answers GET /pay/<uuid>/session from them while the bank says the session is still
// active and the box has not said the sale ended (balcao.box.<store>.<terminal>.phone-ended:
// cancelled, paid, replaced; the bank's session outlives the sale), with the phone's address
// from X-Forwarded-For only through a trusted proxy (client_address.h). The card goes from the phone to the bank: the
// hub never sees it.
//
// Who may call: /pay/* is anyone's (a phone has no session); the uuid is the capability (128
// random bits the bank minted, shown only as the QR at the counter); GET only; nothing written.
// Ownership: borrows the store, the bank and the assets. Thread-safety: from any thread.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "api/bank.h"
#include "http/server.h"
#include "hub/hub_store.h"

namespace balcao::hub {

// File name ("pay/index.html") -> bytes: the box's web assets (terminal/service/web_assets.h).
using PageAssets = std::map<std::string_view, std::string_view>;

class PhoneHome {
 public:
  PhoneHome(HubStore& store, const api::Bank& bank, const PageAssets& assets)
      : store_(store), bank_(bank), assets_(assets) {}
  // The NATS responder of balcao.box.*.*.phone: {"stored":true} or {"error"}.
  std::string OnAnnounce(const std::string& subject, const std::string& data);
  // The responder of balcao.box.*.*.phone-ended ({"uuid"}): {"ended":true} or {"error"}.
  std::string OnEnded(const std::string& subject, const std::string& data);
  // The answer to a /pay/ request; nullopt for any other path.
  std::optional<http::HttpResponse> Handle(const http::HttpRequest& request, const std::string& client);

 private:
  http::HttpResponse Session(const std::string& uuid, const std::string& client);
  http::HttpResponse Asset(const char* name, const char* type) const;

  HubStore& store_;
  const api::Bank& bank_;
  const PageAssets& assets_;
};

}  // namespace balcao::hub
