// The service's HTTP routes as one table (routes.cc, Routes()): one row per route with its
// method, path pattern, who may call it (access.h) and handler. Service::Impl::Handle finds the
// row, lets the gate apply who may call it, and answers 404 when no row's pattern matches the
// path, 405 with an Allow header when rows match the path but none takes the method.
// Handlers: routes.cc (status, the day's sales, the web app), sale_routes.cc (one sale),
// queue_routes.cc (the supervisor's queue), login.cc, health.cc, webhook.cc, device_page.cc.
// Private to terminal/service/. Thread-safety: the table is immutable; handlers run on io threads.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "terminal/service/service_impl.h"

namespace balcao::terminal::service {

// One request on its way through its row.
struct RouteCall {
  HttpRequest request;
  Respond respond;
  std::optional<Session> session;  // the caller's, when logged in
  std::string id;                  // what the pattern's {sale} or {item} matched
  std::string action;              // what its {action} or final * matched
};

using RouteHandler = void (*)(Service::Impl& service, RouteCall& call);

struct Route {
  const char* method;  // "GET" (which takes HEAD too), "POST", or "*": every method (the handler answers 405)
  // Literal segments; {sale} (a sale id: else 400 "id"), {item} or {action}: one non-empty
  // segment; a final * the rest of the path, if any.
  const char* pattern;
  Audience who;
  RouteHandler handler;
};

// The table, in the order rows are tried (routes.cc).
std::span<const Route> Routes();

struct RouteMatch {
  const Route* route = nullptr;    // the first row matching the path and taking the method
  const Route* of_path = nullptr;  // the first row matching the path: none is a 404
  std::string allow;               // the methods the path's rows take ("GET, POST"), for a 405
  std::string id, action;          // the route's (or else the path's first row's) captures
};

// Pure: finds `method path` among `routes`.
RouteMatch FindRoute(std::span<const Route> routes, std::string_view method, std::string_view path);

// --- helpers of the handlers (routes.cc) ---
// The touchscreen's languages: "pt-BR" and "en-US".
inline bool IsScreenLanguage(std::string_view language) { return language == "pt-BR" || language == "en-US"; }
// The cookie that keeps this browser's screen in `language` ("pt-BR", "en-US").
std::string LanguageCookie(const std::string& language, bool tls);
HttpResponse JsonAnswer(int status, const nlohmann::json& body);
HttpResponse JsonTextAnswer(int status, std::string body);
// What a driver call that did not go through answers: a refusal of the sale's state machine
// (or of the offline rule) is 409 with its reason; anything else 503.
HttpResponse DriverError(const Status& status);
// The sale's view in the book, as the API answers it.
HttpResponse SaleAnswer(Service::Impl& service, int status, const std::string& sale_id);

// --- one sale (sale_routes.cc): /api/sales/{sale}... ---
void GetSale(Service::Impl& service, RouteCall& call);
void GetSaleQr(Service::Impl& service, RouteCall& call);
void ChooseMethod(Service::Impl& service, RouteCall& call);
void SubmitCard(Service::Impl& service, RouteCall& call);
void CancelSale(Service::Impl& service, RouteCall& call);
void RefundSale(Service::Impl& service, RouteCall& call);
void ApproveReversal(Service::Impl& service, RouteCall& call);
void RetrySale(Service::Impl& service, RouteCall& call);
void KeepSaleOpen(Service::Impl& service, RouteCall& call);
void MakeDeviceLink(Service::Impl& service, RouteCall& call);
// The customer's phone pays the card (phone_pay.cc).
void PhonePay(Service::Impl& service, RouteCall& call);
void PhonePayAnswered(Service::Impl& service, RouteCall& call);
void PhoneLink(Service::Impl& service, RouteCall& call);
void ReprintSale(Service::Impl& service, RouteCall& call);
void PrintCode(Service::Impl& service, RouteCall& call);
void FallBackToInvoice(Service::Impl& service, RouteCall& call);
void SimulatePayer(Service::Impl& service, RouteCall& call);
void NoSuchSaleAction(Service::Impl& service, RouteCall& call);  // 404 "action" (after the body's 400)

// --- the supervisor's queue (queue_routes.cc) ---
void ListQueue(Service::Impl& service, RouteCall& call);
void ActOnQueuedRequest(Service::Impl& service, RouteCall& call);
void ActOnQueuedCard(Service::Impl& service, RouteCall& call);

}  // namespace balcao::terminal::service
