// The one bank route a customer's own browser calls (docs/sandbox.md, "The customer's phone";
// ADR 0009): POST /v2/merchant-session/{uuid}/purchase, sent by the payment page on the
// customer's phone straight to the bank. Like a browser-facing API, the sandbox answers its
// CORS preflight and adds CORS headers to that route only; it accepts the purchase unsigned
// when the uuid names a live session (a signed request keeps working as before), enforces the
// session's allowedIps against the address the request came from, and records who sent each
// request to the route (User-Agent, source address, signed or not, the 3-D Secure metadata:
// never the card) for GET /sandbox/purchase-requests.
// Thread-safety: PurchaseRequestLog is guarded by its mutex; the functions are stateless.
#pragma once

#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "http/server.h"
#include "sandbox/internal/engine.h"

namespace balcao::sandbox::internal {

struct Services;

// Who called the purchase route, newest last (the last 1,000 requests).
class PurchaseRequestLog {
 public:
  void Add(Json record);
  Json All() const;
  void Clear();

 private:
  mutable std::mutex mu_;
  std::deque<Json> records_;
};

// Whether `segments` ("v2", "merchant-session", uuid, "purchase") is the session purchase route.
bool IsSessionPurchase(const std::vector<std::string>& segments);
// The answer to OPTIONS on the purchase route: the methods and headers a browser may send.
http::HttpResponse PurchasePreflight(const http::HttpRequest& request);
// The CORS headers of the purchase route's answers (every status).
void AddPurchaseCors(http::HttpResponse& response);
// True when the request carries any of the signing headers (it is then authenticated as usual).
bool SignedRequest(const http::HttpRequest& request);
// The caller an unsigned purchase runs as: the workspace of the live session `uuid`, with the
// request's source address in its allowedIps when the session lists any. nullopt + a problem
// (invalidSession, invalidUserIp, the session's not-found code) and `status` (400, or 500 when the
// store failed).
std::optional<Caller> UnsignedPurchaseCaller(Services& s, const http::HttpRequest& request, const std::string& uuid,
                                             Problems& problems, int& status);
// What the log keeps of one request to the route and its answer (no card field).
Json PurchaseRecord(const http::HttpRequest& request, const std::string& uuid, bool is_signed, UnixMicros at,
                    const http::HttpResponse& answer);

}  // namespace balcao::sandbox::internal
