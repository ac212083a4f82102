// The card paid on the customer's own phone (docs/terminal.md, "Paying by card on the customer's
// phone"; docs/adr/0009-card-on-the-customer-phone.md). The box created the merchant session;
// the touchscreen shows a QR of /pay/<session uuid> (GET /api/sales/{id}/phone-link). The phone
// opens that page (terminal/web/pay/: static files, no store data in them), reads the session's
// public facts from GET /pay/<uuid>/session and posts the purchase straight to the bank. The box
// never receives the card: it follows the purchase by webhook and by polling (checkout/).
//
// Who may call: /pay/* is anyone's (a phone has no cashier session). The uuid is the capability:
// 128 random bits the bank minted, shown only as the QR at the counter, and it answers only
// while its sale waits for the card; what it reveals is what the customer sees on the page
// anyway (store name, amount, installments, funding types, expiry, the bank's purchase URL, the
// phone's own address). Nothing is written. The one POST, /pay/<uuid>/answered, only makes the
// box ask the bank now rather than at its next poll (at most once a second per sale): what the
// sale becomes is still only what the bank says.
#include <nlohmann/json.hpp>

#include "common/log.h"
#include "terminal/service/routes.h"
#include "terminal/service/web_assets.h"

namespace balcao::terminal::service {
namespace {

using nlohmann::json;

bool ValidUuid(std::string_view uuid) {
  if (uuid.size() < 16 || uuid.size() > 64) return false;
  for (char c : uuid)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

HttpResponse Asset(const char* name, const char* type) {
  auto it = WebAssets().find(name);
  if (it == WebAssets().end()) return ErrorResponse(404, "path", "no such page");
  HttpResponse res{200, type, std::string(it->second), {}};
  res.headers.emplace_back("Cache-Control", "public, max-age=3600");
  return res;
}

// What the phone's page may know of the session `uuid` (nullopt: no sale waits for it).
std::optional<json> SessionFacts(Service::Impl& s, const std::string& uuid, const HttpRequest& request) {
  std::optional<checkout::Sale> sale = s.sales->book().AwaitingPhone(uuid);
  if (!sale) return std::nullopt;
  const auto& awaiting = std::get<checkout::AwaitingCard>(sale->state);
  const checkout::CreateSession terms = checkout::SessionTerms(*sale, awaiting.attempt);
  json installments = json::array(), funding = json::array();
  for (const checkout::AllowedInstallment& a : terms.installments)
    installments.push_back({{"count", a.count}, {"totalAmount", a.total_amount}});
  for (checkout::FundingType f : terms.funding_types) funding.push_back(checkout::Name(f));
  const std::string bank = s.bank_side->sandbox() ? s.bank_side->sandbox()->credentials().base_url
                                                  : s.bank_side->bank().client().base_url() + "/v2";
  return json{{"store", s.setup.config.store.merchant.name},
              {"amount", sale->amount},
              {"installments", installments},
              {"funding", funding},
              {"challenge", terms.challenge_enabled},
              {"expires_at_ms", awaiting.session.expires_at / 1000},
              {"now_ms", s.bank_side->clock().Now() / 1000},
              {"purchase_url", bank + "/merchant-session/" + uuid + "/purchase"},
              // 3-D Secure's userIp: the phone's address as this server saw it.
              {"user_ip", request.remote_address}};
}

// With a hub's public_url, the phone page's home is the hub: it gets the session's facts (and
// the session's id, to ask the bank whether it is still open) before the QR shows its URL.
std::string PhoneUrlAtHub(Service::Impl& s, const checkout::CardSession& session, const HttpRequest& request) {
  if (!s.events.hub_link || s.setup.config.hub.public_url.empty()) return "";
  std::optional<json> facts = SessionFacts(s, session.uuid, request);
  if (!facts) return "";
  facts->erase("user_ip");  // the hub's to fill in, from the proxy
  facts->erase("now_ms");
  (*facts)["uuid"] = session.uuid;
  (*facts)["session_id"] = session.id;
  if (Status told = s.events.hub_link->AnnouncePhoneSession(session.uuid, facts->dump()); !told.ok()) {
    logging::Warn("serve", "phone page not at the hub: the box's own link", {{"reason", told.message()}});
    return "";
  }
  std::string base = s.setup.config.hub.public_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/pay/" + session.uuid;
}

}  // namespace

// GET /pay/<uuid>, /pay/pay.js, /pay/pay.css, /pay/<uuid>/session.
void PhonePay(Service::Impl& s, RouteCall& c) {
  const std::string rest = c.action;  // what follows /pay/
  if (rest == "pay.js") return c.respond(Asset("pay/pay.js", "text/javascript; charset=utf-8"));
  if (rest == "pay.css") return c.respond(Asset("pay/pay.css", "text/css; charset=utf-8"));
  const std::size_t slash = rest.find('/');
  const std::string uuid = rest.substr(0, slash);
  const std::string tail = slash == std::string::npos ? "" : rest.substr(slash + 1);
  if (!ValidUuid(uuid)) return c.respond(ErrorResponse(404, "uuid", "a card session's uuid (hex)"));
  if (tail.empty()) {
    HttpResponse page = Asset("pay/index.html", "text/html; charset=utf-8");
    page.headers = {{"Cache-Control", "no-store"}, {"Referrer-Policy", "no-referrer"}};
    return c.respond(std::move(page));
  }
  if (tail != "session") return c.respond(ErrorResponse(404, "path", "no such page"));
  std::optional<json> facts = SessionFacts(s, uuid, c.request);
  if (!facts)
    return c.respond(
        ErrorResponse(404, "uuid", "no sale waits for a card on this session (paid, expired or replaced)"));
  HttpResponse res = JsonAnswer(200, *facts);
  res.headers.emplace_back("Cache-Control", "no-store");
  c.respond(std::move(res));
}

// POST /pay/<uuid>/answered: the phone's page heard the bank answer its purchase. Card purchases
// have no webhook: without this the touchscreen would learn of the payment at the next poll,
// seconds after the customer's phone already said "approved".
void PhonePayAnswered(Service::Impl& s, RouteCall& c) {
  const std::string rest = c.action;  // what follows /pay/
  const std::size_t slash = rest.find('/');
  const std::string uuid = rest.substr(0, slash);
  const std::string tail = slash == std::string::npos ? "" : rest.substr(slash + 1);
  if (!ValidUuid(uuid)) return c.respond(ErrorResponse(404, "uuid", "a card session's uuid (hex)"));
  if (tail != "answered") {
    HttpResponse refused = ErrorResponse(405, "method", "GET (only /pay/<uuid>/answered takes a POST)");
    refused.headers.emplace_back("Allow", "GET");
    return c.respond(std::move(refused));
  }
  const std::optional<checkout::Sale> sale = s.sales->book().AwaitingPhone(uuid);
  if (!sale)
    return c.respond(
        ErrorResponse(404, "uuid", "no sale waits for a card on this session (paid, expired or replaced)"));
  s.OnDriver(
      [&s, id = sale->id] {
        const bool asked = s.sales->PollSoon(id, s.bank_side->clock().Now());
        return JsonAnswer(202, {{"asked_bank", asked}});
      },
      std::move(c.respond));
}

// GET /api/sales/{sale}/phone-link: the URL of the phone page of the sale's open card session,
// as the phone reaches the box (its configured name on the store network), and its QR.
void PhoneLink(Service::Impl& s, RouteCall& c) {
  const std::optional<checkout::CardSession> session = s.sales->book().OpenCardSession(c.id);
  if (!session) return c.respond(ErrorResponse(409, "state", "the sale is not waiting for a card"));
  const std::string host = s.setup.config.host_names.empty()
                               ? std::string(c.request.Header("host"))
                               : s.setup.config.host_names.front() + ":" + std::to_string(s.setup.port);
  std::string url = PhoneUrlAtHub(s, *session, c.request);
  if (url.empty()) url = std::string(s.setup.tls ? "https://" : "http://") + host + "/pay/" + session->uuid;
  c.respond(JsonAnswer(200, {{"url", url},
                             {"qr_svg", QrSvg(url)},
                             {"deadline_ms", session->expires_at / 1000},
                             {"now_ms", s.bank_side->clock().Now() / 1000}}));
}

}  // namespace balcao::terminal::service
