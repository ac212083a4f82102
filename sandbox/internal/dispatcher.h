// From an HTTP request to an answer: the fault script (fault_script.h), routing derived from
// api/resources.h (route.h), who may call (authenticate.h, browser_purchase.h), the generic
// operations (operation.h) in the API's envelopes (responses.h), and the simulation API under
// /sandbox/ (simulation.cc). The HTTP server is balcao_http (http/server.h).
// Thread-safety: Dispatch is called concurrently; state lives in the Engine and FaultScript.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "http/server.h"
#include "sandbox/internal/engine_core.h"
#include "sandbox/internal/fault_script.h"
#include "sandbox/internal/responses.h"
#include "sandbox/latency.h"

namespace balcao::sandbox::internal {

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
// The simulation API: /sandbox/clock, /sandbox/faults, /sandbox/<action>... (simulation.cc).
HttpResponse HandleSimulation(Services& services, const std::vector<std::string>& segments, const Query& query,
                              HttpRequest& request);

}  // namespace balcao::sandbox::internal
