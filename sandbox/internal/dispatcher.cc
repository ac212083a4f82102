#include "sandbox/internal/dispatcher.h"

#include <chrono>
#include <cstdlib>

#include "sandbox/internal/authenticate.h"
#include "sandbox/internal/browser_purchase.h"
#include "sandbox/internal/operation.h"
#include "sandbox/internal/route.h"
#include "sandbox/internal/url.h"

namespace balcao::sandbox::internal {

HttpResponse Dispatch(Services& s, HttpRequest& req) {
  const std::size_t q = req.target.find('?');
  const std::string path = NormalizePath(std::string_view(req.target).substr(0, q));
  const Query query = q == std::string::npos ? Query{} : ParseQuery(std::string_view(req.target).substr(q + 1));
  const Lang lang = LangOf(req);
  const auto segments = PathSegments(path);
  if (!segments.empty() && segments[0] == "sandbox") return HandleSimulation(s, segments, query, req);
  const bool purchase_route = IsSessionPurchase(segments);  // the one route a browser calls
  if (purchase_route && req.method == "OPTIONS") return PurchasePreflight(req);

  auto route = MatchRoute(req.method, segments);
  const std::string template_key = req.method + " " + (route ? route->template_path : path);
  const auto fault = s.faults->Take(req.method + " " + path, template_key);
  if (fault == "http-500") return InternalErrorResponse(InternalError("injected fault http-500 on " + template_key));
  if (fault == "reset-before-processing") {
    HttpResponse res;
    res.disposition = Disposition::kReset;
    return res;
  }
  if (!route) {
    return ErrorResponse(404,
                         {MakeProblem("invalidRoute", req.method + " " + path + " is not a route of this API.",
                                      req.method + " " + path + " não é uma rota desta API.")},
                         lang);
  }
  HttpResponse res;
  Problems problems;
  if (route->spec->name == "boleto" && route->op == api::kPdf && !route->is_log) {
    // Public route: no authentication; the boleto's own workspace serves it.
    const StatusOr<std::optional<std::string>> scope = s.engine->ScopeOf("boleto", route->id);
    if (!scope.ok()) return InternalErrorResponse(scope.status());
    Caller owner{Caller::Kind::kSimulation, "public", "", scope->value_or("")};
    res = Serve(*s.engine, *route, owner, query, req, lang);
  } else if (purchase_route && !SignedRequest(req)) {
    // The customer's own device, unsigned: only a live session's uuid opens the route.
    int status = 400;
    if (auto caller = UnsignedPurchaseCaller(s, req, route->id, problems, status))
      res = Serve(*s.engine, *route, *caller, query, req, lang);
    else if (status == 500)
      res = InternalErrorResponse(InternalError(problems.front().en)), problems.clear();
  } else if (auto caller = Authenticate(*s.engine, req, problems)) {
    const bool workspace_route = route->spec->name == "workspace";
    if (caller->workspace_id.empty() && !workspace_route) {
      problems.push_back(MakeProblem("invalidAccessId",
                                     "Organization credentials must name a workspace "
                                     "(organization/<id>/workspace/<id>) for this route.",
                                     "Credenciais de organização devem indicar um workspace "
                                     "(organization/<id>/workspace/<id>) para esta rota."));
    } else if (workspace_route && route->op == api::kCreateSingle && caller->kind != Caller::Kind::kOrganization) {
      problems.push_back(MakeProblem("invalidCredentials", "Only organization credentials may create workspaces.",
                                     "Apenas credenciais de organização podem criar workspaces."));
    }
    if (problems.empty()) res = Serve(*s.engine, *route, *caller, query, req, lang);
  }
  if (!problems.empty()) res = ErrorResponse(400, problems, lang);
  if (fault && fault->rfind("delay-", 0) == 0) res.delay = std::chrono::milliseconds(std::atoi(fault->c_str() + 6));
  res.delay += s.latency.Draw();
  if (fault == "commit-then-drop-response") res.disposition = Disposition::kDrop;
  if (purchase_route) {
    AddPurchaseCors(res);
    if (s.purchase_requests)
      s.purchase_requests->Add(PurchaseRecord(req, segments[2], SignedRequest(req), s.engine->Now(), res));
  }
  return res;
}

}  // namespace balcao::sandbox::internal
