// One sale's routes (/api/sales/{sale}..., rows of the route table in routes.cc): its view, its
// QR, and the actions the touchscreen posts (each with a JSON object body, else 400 "body").
// Card data: the body of POST /api/sales/{sale}/card is read into checkout::CardData, then the
// body and the parsed JSON are overwritten; neither is logged.
#include <cctype>
#include <charconv>
#include <nlohmann/json.hpp>
#include <regex>

#include "api/formats/tax_id.h"
#include "common/card_digits.h"
#include "common/log.h"
#include "terminal/internal/payer.h"
#include "terminal/service/card_customer.h"
#include "terminal/service/json_body.h"
#include "terminal/service/routes.h"

namespace balcao::terminal::service {
namespace {

using nlohmann::json;

// Field readers over a JSON object body: each returns "" when fine, else the rule broken.
struct Body {
  json value;
  bool ok = false;
  std::string rule;  // the rule broken when not ok (json_body.h)
  static Body Parse(const std::string& text) {
    Body body;
    auto parsed = ParseJsonObject(text.empty() ? std::string_view("{}") : std::string_view(text));
    body.ok = parsed.ok();
    if (parsed.ok()) {
      body.value = *std::move(parsed);
    } else {
      body.rule = parsed.status().message();
    }
    return body;
  }
  std::string Text(const char* key) const { return TextOf(value, key); }
  // `object[key]` when it is a string, else "" (a number where text belongs is simply invalid).
  static std::string TextOf(const json& object, const char* key) {
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : "";
  }
  bool Has(const char* key) const { return value.contains(key); }
};

std::string Digits(const std::string& text) {
  std::string out;
  for (char c : text)
    if (std::isdigit(static_cast<unsigned char>(c))) out += c;
  return out;
}

// "customer": {"name", "tax_id"} of an invoice; "" when valid, else sets the error.
std::optional<HttpResponse> ReadCustomer(const Body& body, checkout::Customer& customer) {
  auto it = body.value.find("customer");
  if (it == body.value.end() || !it->is_object())
    return ErrorResponse(400, "customer", "required for an invoice: name and tax_id");
  customer.name = Body::TextOf(*it, "name");
  customer.tax_id = Body::TextOf(*it, "tax_id");
  if (customer.name.size() < 3 || customer.name.size() > 80)
    return ErrorResponse(400, "customer.name", "3 to 80 characters");
  if (!formats::IsValidCpf(customer.tax_id) && !formats::IsValidCnpj(customer.tax_id))
    return ErrorResponse(400, "customer.tax_id", "a valid CPF or CNPJ");
  return std::nullopt;
}

// The card form: number, expiry (MM/AA), security code, holder. nullopt when valid.
std::optional<HttpResponse> ReadCard(const Body& body, const checkout::Settings& settings, checkout::CardData& card,
                                     checkout::FundingType& funding, int& installments) {
  card.number = Digits(body.Text("number"));
  if (card.number.size() < 13 || card.number.size() > 19 || !PassesLuhn(card.number))
    return ErrorResponse(400, "number", "13 to 19 digits passing the Luhn check");
  const std::string expiry = body.Text("expiry");
  static const std::regex kExpiry(R"(^(0[1-9]|1[0-2])/?([0-9]{2}|20[0-9]{2})$)");
  std::smatch m;
  if (expiry.size() > 7 || !std::regex_match(expiry, m, kExpiry)) return ErrorResponse(400, "expiry", "MM/AA");
  const std::string year = m[2].length() == 2 ? "20" + m[2].str() : m[2].str();
  card.expiration = year + "-" + m[1].str();
  if (card.expiration < FormatDate(SystemClock::Instance().Now()).substr(0, 7))
    return ErrorResponse(400, "expiry", "MM/AA, not in the past");
  card.security_code = body.Text("security_code");
  if (card.security_code.size() < 3 || card.security_code.size() > 4 ||
      Digits(card.security_code) != card.security_code)
    return ErrorResponse(400, "security_code", "3 or 4 digits");
  card.holder_name = body.Text("holder_name");
  if (card.holder_name.size() < 2 || card.holder_name.size() > 26)
    return ErrorResponse(400, "holder_name", "2 to 26 characters");
  installments = 1;
  if (body.Has("installments")) {
    const json& n = body.value["installments"];
    if (!n.is_number_integer() || n.get<long long>() < 1 || n.get<long long>() > settings.installments.max_count)
      return ErrorResponse(400, "installments", "1 to " + std::to_string(settings.installments.max_count));
    installments = n.get<int>();
  }
  const std::string kind = body.Has("funding") ? body.Text("funding") : "credit";
  if (!checkout::ParseName(kind, funding)) return ErrorResponse(400, "funding", "credit or debit");
  if (funding == checkout::FundingType::kDebit && installments != 1)
    return ErrorResponse(400, "installments", "1 for a debit card");
  return std::nullopt;
}

// The action's body (the request's text wiped), or nullopt once 400 "body" is answered.
std::optional<Body> ReadBody(RouteCall& c) {
  Body body = Body::Parse(c.request.body);
  Wipe(c.request.body);
  if (!body.ok) {
    c.respond(ErrorResponse(400, "body", body.rule));
    return std::nullopt;
  }
  return body;
}

HttpResponse NoSaleHere(const std::string& sale_id) {
  return ErrorResponse(404, "sale", "no sale " + sale_id + " on this box");
}

// Runs one checkout event (built on the driver thread) and answers with the sale's view.
void Feed(Service::Impl& s, RouteCall& c, std::function<StatusOr<checkout::Sale>()> run) {
  s.OnDriver(
      [&s, id = c.id, run = std::move(run)] {
        if (Status open = s.sales->EnsureOpen(id); !open.ok()) return DriverError(open);
        s.sales->Touch(id);
        auto sale = run();
        s.sales->Publish();
        if (!sale.ok()) return DriverError(sale.status());
        return SaleAnswer(s, 200, id);
      },
      std::move(c.respond));
}

// Feeds `event` when the sale's machine accepts it (SaleDesk::Acceptable).
template <typename Event>
void FeedEvent(Service::Impl& s, RouteCall& c, Event event) {
  Feed(s, c, [&s, id = c.id, event = std::move(event)] { return s.sales->FeedIfAccepted(id, event); });
}

// The supervisor who approves `body`'s money going back, logged; nullopt once 403 is answered.
std::optional<std::string> ApproveMoneyBack(Service::Impl& s, RouteCall& c, Body& body) {
  auto approver = s.Approve(body.value["approval"]);
  if (!approver.ok()) {
    c.respond(ErrorResponse(403, "approval", approver.status().message()));
    return std::nullopt;
  }
  logging::Info("serve", "money back approved",
                {{"sale", c.id},
                 {"action", c.request.path.substr(c.request.path.rfind('/') + 1)},
                 {"operator", c.session ? c.session->operator_name : ""},
                 {"supervisor", *approver}});
  return *approver;
}

// Cancel and refund: the reason, 3 to 200 characters; nullopt once 400 is answered.
std::optional<std::string> ReadReason(RouteCall& c, const Body& body) {
  std::string reason = body.Text("reason");
  if (reason.size() >= 3 && reason.size() <= 200) return reason;
  c.respond(ErrorResponse(400, "reason", "3 to 200 characters"));
  return std::nullopt;
}

// The card's submission on the driver thread: sealed offline, refused, or sent to the bank.
StatusOr<checkout::Sale> SubmitHeldCard(Service::Impl& s, const std::string& id, checkout::CardData& card,
                                        checkout::BrowserData& browser, checkout::FundingType funding,
                                        int installments) {
  checkout::CardData held = std::move(card);
  if (s.offline_cards && s.offline_cards->TakesCardsOffline(id)) {
    auto sale = s.offline_cards->HoldCardOffline(id, held, browser, funding, installments);
    Wipe(held.number);
    Wipe(held.security_code);
    return sale;
  }
  if (Status refused =
          s.sales->Acceptable(id, checkout::SubmitCard{"probe", "", funding, installments, s.bank_side->clock().Now()});
      !refused.ok()) {
    Wipe(held.number);
    Wipe(held.security_code);
    return refused;
  }
  s.sales->book().SetInstallments(id, installments);
  Wipe(card.number);
  Wipe(card.security_code);
  return s.sales->driver().SubmitCard(id, std::move(held), funding, installments, std::move(browser));
}

// `?wait=<version>`: the version the screen has (the view's "version"), for a long poll.
std::optional<std::uint64_t> WaitedVersion(std::string_view query, bool& malformed) {
  malformed = false;
  if (query.rfind("wait=", 0) != 0) return std::nullopt;
  const std::string_view digits = query.substr(5);
  std::uint64_t version = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), version);
  malformed = digits.empty() || error != std::errc{} || end != digits.data() + digits.size();
  return malformed ? std::nullopt : std::optional(version);
}

}  // namespace

void GetSale(Service::Impl& s, RouteCall& c) {
  bool malformed = false;
  const std::optional<std::uint64_t> seen = WaitedVersion(c.request.query, malformed);
  if (malformed) return c.respond(ErrorResponse(400, "wait", "a version the sale's view gave, digits only"));
  if (seen && s.sales->book().HasView(c.id)) {
    // Answered when the sale changes (from the thread that changed it) or after kHold.
    auto wake = [&s, id = c.id, respond = c.respond] {
      auto view = s.sales->book().ViewJson(id);
      respond(view ? JsonTextAnswer(200, *view) : NoSaleHere(id));
    };
    if (s.sales->watch().Hold(c.id, *seen, SaleWatch::Clock::now(), wake)) return;
  }
  if (auto view = s.sales->book().ViewJson(c.id)) return c.respond(JsonTextAnswer(200, *view));
  s.OnDriver(
      [&s, id = c.id] {
        s.sales->EnsureCopy(id);
        if (auto view = s.sales->book().ViewJson(id)) return JsonTextAnswer(200, *view);
        return NoSaleHere(id);
      },
      std::move(c.respond));
}

void GetSaleQr(Service::Impl& s, RouteCall& c) {
  const std::string svg = QrSvg(s.sales->book().QrText(c.id));
  if (svg.empty()) return c.respond(ErrorResponse(404, "qr", "the sale shows no QR code now"));
  c.respond(HttpResponse{200, "image/svg+xml", svg, {}});
}

void ChooseMethod(Service::Impl& s, RouteCall& c) {
  auto body = ReadBody(c);
  if (!body) return;
  checkout::Method method;
  if (!checkout::ParseName(body->Text("method"), method))
    return c.respond(ErrorResponse(400, "method", "card, pix or invoice"));
  checkout::Customer customer;
  if (method == checkout::Method::kInvoice)
    if (auto bad = ReadCustomer(*body, customer)) return c.respond(*bad);
  FeedEvent(s, c, checkout::ChooseMethod{method, customer, s.bank_side->clock().Now()});
}

void SubmitCard(Service::Impl& s, RouteCall& c) {
  // The customer pays on their own phone (phone_pay.cc); a card typed here is the exception.
  if (!s.setup.config.card.keyed_entry) {
    Wipe(c.request.body);
    return c.respond(ErrorResponse(403, "card.keyed_entry",
                                   "keyed card entry is off in this store (card.keyed_entry in the config): the "
                                   "customer pays on their phone by the QR code"));
  }
  auto body = ReadBody(c);
  if (!body) return;
  // Each keyed sale needs a supervisor's approval ({"approval": {"supervisor", "pin"}}).
  auto approver = body->value.contains("approval")
                      ? s.Approve(body->value["approval"])
                      : StatusOr<std::string>(
                            PermissionDeniedError(R"(missing: {"approval": {"supervisor": NAME, "pin": DIGITS}})"));
  if (!approver.ok()) {
    Wipe(body->value);
    return c.respond(
        ErrorResponse(403, "approval", "a keyed card needs a supervisor's approval: " + approver.status().message()));
  }
  logging::Info("serve", "keyed card approved", {{"sale", c.id}, {"supervisor", *approver}});
  auto card = std::make_shared<checkout::CardData>();
  checkout::FundingType funding = checkout::FundingType::kCredit;
  int installments = 1;
  auto browser = std::make_shared<checkout::BrowserData>();
  auto bad = ReadCard(*body, s.setup.config.settings, *card, funding, installments);
  // Offline too: a sealed card is forwarded later in a session with the store's challenge mode,
  // carrying the customer's details captured now (docs/offline.md).
  if (!bad) {
    if (auto refused =
            ReadCardCustomer(body->value, c.request, s.setup.config.settings.challenge_enabled, *card, *browser))
      bad = ErrorResponse(400, refused->field, refused->rule);
  }
  Wipe(body->value);
  // The customer's phone reported its device for this sale: the purchase carries that one.
  if (auto device = s.doors.devices->Of(c.id)) *browser = *device;
  if (bad) {
    Wipe(card->number);
    Wipe(card->security_code);
    return c.respond(*bad);
  }
  Feed(s, c, [&s, id = c.id, card, browser, funding, installments] {
    return SubmitHeldCard(s, id, *card, *browser, funding, installments);
  });
}

// The operator is the session's; cancelling a sale that collected money needs a supervisor's
// PIN (login.cc), asked for when the request carries an approval.
void CancelSale(Service::Impl& s, RouteCall& c) {
  auto body = ReadBody(c);
  if (!body) return;
  const std::string operator_id = c.session ? c.session->operator_name : "";
  const auto reason = ReadReason(c, *body);
  if (!reason) return;
  std::string approved_by;
  if (body->Has("approval")) {
    auto approver = ApproveMoneyBack(s, c, *body);
    if (!approver) return;
    approved_by = *approver;
  }
  Feed(s, c,
       [&s, id = c.id, operator_id, reason = *reason, approved_by,
        now = s.bank_side->clock().Now()]() -> StatusOr<checkout::Sale> {
         BALCAO_ASSIGN_OR_RETURN(checkout::Sale sale, s.sales->driver().Get(id));
         if (sale.collected() > 0 && approved_by.empty())
           return PermissionDeniedError("a supervisor's PIN is needed to cancel a sale that collected money");
         return s.sales->FeedIfAccepted(id, checkout::Cancel{operator_id, reason, now, approved_by});
       });
}

// Money going back, all or `amount` of what the sale collected: a supervisor's PIN now.
void RefundSale(Service::Impl& s, RouteCall& c) {
  auto body = ReadBody(c);
  if (!body) return;
  const std::string operator_id = c.session ? c.session->operator_name : "";
  const auto reason = ReadReason(c, *body);
  if (!reason) return;
  const auto approved_by = ApproveMoneyBack(s, c, *body);
  if (!approved_by) return;
  long long amount = -1;  // default: what the sale collected
  if (body->Has("amount")) {
    const json& a = body->value["amount"];
    if (!a.is_number_integer() || a.get<long long>() < 1)
      return c.respond(ErrorResponse(400, "amount", "a whole number of cents from 1"));
    amount = a.get<long long>();
  }
  Feed(s, c,
       [&s, id = c.id, operator_id, reason = *reason, approved_by = *approved_by, amount,
        now = s.bank_side->clock().Now()]() -> StatusOr<checkout::Sale> {
         BALCAO_ASSIGN_OR_RETURN(checkout::Sale sale, s.sales->driver().Get(id));
         const checkout::Cents cents = amount < 0 ? sale.collected() : amount;
         if (cents > sale.collected())
           return FailedPreconditionError("amount: at most what the sale collected (" +
                                          std::to_string(sale.collected()) + " cents)");
         return s.sales->FeedIfAccepted(id, checkout::Reverse{cents, operator_id, reason, now, approved_by});
       });
}

// A cash register's reversal waiting for a supervisor (nexo.reversal_needs_supervisor).
void ApproveReversal(Service::Impl& s, RouteCall& c) {
  auto body = ReadBody(c);
  if (!body) return;
  const auto supervisor = ApproveMoneyBack(s, c, *body);
  if (!supervisor) return;
  Feed(s, c, [&s, id = c.id, supervisor = *supervisor] { return s.counter->ApproveReversal(id, supervisor); });
}

void RetrySale(Service::Impl& s, RouteCall& c) {
  if (ReadBody(c)) FeedEvent(s, c, checkout::Retry{s.bank_side->clock().Now()});
}

void KeepSaleOpen(Service::Impl& s, RouteCall& c) {
  if (ReadBody(c)) FeedEvent(s, c, checkout::KeepOpen{s.bank_side->clock().Now()});
}

void MakeDeviceLink(Service::Impl& s, RouteCall& c) {
  if (!ReadBody(c)) return;
  if (!s.sales->book().Knows(c.id)) return c.respond(NoSaleHere(c.id));
  c.respond(s.doors.devices->Link(c.request, c.id));
}

// Any sale of today again, marked "2ª VIA" (what it printed last: sale, refund or invoice).
void ReprintSale(Service::Impl& s, RouteCall& c) {
  if (ReadBody(c)) Feed(s, c, [&s, id = c.id] { return s.receipts->Reprint(id); });
}

void PrintCode(Service::Impl& s, RouteCall& c) {
  if (ReadBody(c)) FeedEvent(s, c, checkout::PrintCode{s.bank_side->clock().Now()});
}

void FallBackToInvoice(Service::Impl& s, RouteCall& c) {
  auto body = ReadBody(c);
  if (!body) return;
  checkout::Customer customer;
  if (auto bad = ReadCustomer(*body, customer)) return c.respond(*bad);
  FeedEvent(s, c, checkout::FallbackToInvoice{customer, s.bank_side->clock().Now()});
}

// The embedded sandbox's payer (terminal/internal/payer.h): pays the Pix QR or the invoice, or
// passes (or fails) the 3-D Secure challenge, as the customer's phone would. Never against a
// real bank.
void SimulatePayer(Service::Impl& s, RouteCall& c) {
  auto body = ReadBody(c);
  if (!body) return;
  if (!s.bank_side->payer()) return c.respond(ErrorResponse(409, "bank", "only with the embedded sandbox"));
  const ChallengeAnswer answer = body->Text("outcome") == "fail" ? ChallengeAnswer::kFail : ChallengeAnswer::kPass;
  const std::optional<checkout::Sale> sale = s.sales->book().Copy(c.id);
  if (!sale) return c.respond(NoSaleHere(c.id));
  std::optional<PayerStep> step = PayerStepFor(*sale, {.pix = kSandboxPayerName, .invoice = ""}, answer);
  if (!step) return c.respond(ErrorResponse(409, "state", "nothing for the customer to pay now"));
  // Off the io and driver threads: a blocking HTTP call to the sandbox (which answers once
  // the payment is committed; its webhook to this service comes later, from its workers).
  const std::string route = step->route;
  s.bank_side->payer()->Run(*std::move(step),
                            [route, respond = std::move(c.respond)](const SimulationAnswer& answered) {
                              respond(answered.status == 200 ? JsonAnswer(200, {{"simulated", route}})
                                                             : ErrorResponse(502, "sandbox", answered.body));
                            });
}

void NoSuchSaleAction(Service::Impl&, RouteCall& c) {
  if (ReadBody(c)) c.respond(ErrorResponse(404, "action", "no such action"));
}

}  // namespace balcao::terminal::service
