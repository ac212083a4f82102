// From an HTTP request to an answer: fault script, tolerant parsing, routing derived from
// api/resources.h, authentication, envelopes (docs/wire.md, "Envelopes and naming" and
// "Resources"), the generic operations, and the simulation API under /sandbox/. The HTTP
// server is balcao_http (http/server.h).
// Thread-safety: Dispatch is called concurrently; state lives in the Engine and FaultScript.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "http/server.h"
#include "sandbox/internal/engine_core.h"
#include "sandbox/latency.h"

namespace balcao::sandbox::internal {

using http::Disposition;
using http::HttpRequest;
using http::HttpResponse;

// Scripted faults per route (docs/style.md S11): "POST /v2/invoice" (or an exact path, or a
// route template such as "GET /v2/invoice/{id}") -> faults applied to the next requests in
// order: "http-500", "delay-<ms>", "reset-before-processing", "commit-then-drop-response".
class FaultScript {
 public:
  // Appends faults; kInvalidArgument names an unknown fault.
  Status Add(const std::string& route, const std::vector<std::string>& faults);
  void Clear();
  // The next fault for this request (consumed), trying the exact path then the template.
  std::optional<std::string> Take(const std::string& exact_key, const std::string& template_key);
  std::map<std::string, std::vector<std::string>> Pending() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::deque<std::string>> faults_;
};

class PurchaseRequestLog;

struct Services {
  Engine* engine = nullptr;
  FaultScript* faults = nullptr;
  PurchaseRequestLog* purchase_requests = nullptr;  // GET /sandbox/purchase-requests (browser_purchase.h)
  // Runs due jobs and wakes the webhook workers (deliveries go out off the request's thread).
  std::function<void()> flush_deliveries;
  // POST /sandbox/flush: runs due jobs and attempts every due delivery before answering.
  std::function<void()> flush_and_deliver;
  std::string demo_organization_id;
  std::string demo_workspace_id;
  Latency latency;  // every /v2 answer is held this long (sandbox/latency.h)
};

HttpResponse Dispatch(Services& services, HttpRequest& request);
// What the server answers by itself (malformed HTTP, a body or headers over the limit, a
// handler that threw), in the API's error envelope, naming the limit in force.
HttpResponse RefusalResponse(const http::Refusal& refusal);

// Shared by the dispatcher, listing and simulation code.
Lang LangOf(const HttpRequest& request);
HttpResponse JsonResponse(int status, const Json& body);
HttpResponse ErrorResponse(int status, const Problems& problems, Lang lang);
HttpResponse InternalErrorResponse(const Status& status);
// Parses a request body as JSON (depth-limited); nullopt + a problem when it is not.
std::optional<Json> ParseBody(std::string_view body, Problems& problems);
// Generic list of a stored collection: {"cursor": ..., "<plural>": [...]}.
Json ListEnvelope(Context& ctx, const api::ResourceSpec& spec, bool is_log, const Query& query, Problems& problems);
// Keeps only the keys named in the `fields` query parameter (no-op when absent).
void ApplyFields(Json& doc, const Query& query);
HttpResponse HandleSimulation(Services& services, const std::vector<std::string>& segments, const Query& query,
                              HttpRequest& request);

}  // namespace balcao::sandbox::internal
