// The simulation API under /sandbox/ (docs/sandbox.md): the sandbox clock, fault scripts,
// webhook deliveries, reset, project registration, and the payer-side actions families
// register (Registry::AddSimulation). Loopback only, no signatures.
#include <algorithm>
#include <cctype>

#include "sandbox/internal/browser_purchase.h"
#include "sandbox/internal/dispatcher.h"
#include "sandbox/internal/family.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {
namespace {

HttpResponse Bad(const std::string& code, const std::string& en, const std::string& pt, Lang lang) {
  return ErrorResponse(400, {MakeProblem(code, en, pt)}, lang);
}

Json ClockJson(Engine& engine) { return {{"now", FormatTimestamp(engine.Now())}}; }

HttpResponse Clock(Services& s, const HttpRequest& req, Lang lang) {
  if (req.method == "GET") return JsonResponse(200, ClockJson(*s.engine));
  Problems problems;
  auto body = ParseBody(req.body, problems);
  if (!body) return ErrorResponse(400, problems, lang);
  Reader in(*body, problems);
  auto advance = in.Int("advance", Need::kOptional, 0, 100LL * 365 * 86400, "invalidClock");
  auto set = in.Time("set", Need::kOptional, "invalidClock");
  in.RejectUnknown();
  if (problems.empty() && !advance == !set)
    problems.push_back(MakeProblem("invalidClock", "Send exactly one of 'advance' (seconds) or 'set' (timestamp).",
                                   "Envie exatamente um de 'advance' (segundos) ou 'set' (horário)."));
  if (!problems.empty()) return ErrorResponse(400, problems, lang);
  Status st = advance ? s.engine->Advance(*advance * kMicrosPerSecond) : s.engine->SetClock(*set);
  if (st.code() == StatusCode::kInvalidArgument)
    return Bad("invalidClock", st.message(), "o relógio do sandbox só anda para frente", lang);
  if (!st.ok()) return InternalErrorResponse(st);  // the store, or a job that ran at the new time
  s.flush_deliveries();
  return JsonResponse(200, ClockJson(*s.engine));
}

HttpResponse Faults(Services& s, const HttpRequest& req, Lang lang) {
  if (req.method == "DELETE") {
    s.faults->Clear();
    return JsonResponse(200, {{"faults", Json::object()}});
  }
  if (req.method == "POST") {
    Problems problems;
    auto body = ParseBody(req.body, problems);
    if (!body) return ErrorResponse(400, problems, lang);
    if (!body->is_object())
      return Bad("invalidJson", "Body must map routes to fault lists.",
                 "O corpo deve mapear rotas para listas de falhas.", lang);
    for (auto it = body->begin(); it != body->end(); ++it) {
      std::vector<std::string> list;
      if (!it.value().is_array() ||
          !std::all_of(it.value().begin(), it.value().end(), [](const Json& j) { return j.is_string(); }))
        return Bad("invalidJson", "Route '" + it.key() + "' must map to a list of fault names.",
                   "A rota '" + it.key() + "' deve apontar para uma lista de falhas.", lang);
      for (const auto& f : it.value()) list.push_back(f.get<std::string>());
      Status st = s.faults->Add(it.key(), list);
      if (!st.ok()) return Bad("invalidFault", st.message(), st.message(), lang);
    }
  }
  Json pending = Json::object();
  for (const auto& [route, list] : s.faults->Pending()) pending[route] = list;
  return JsonResponse(200, {{"faults", pending}});
}

HttpResponse Deliveries(Services& s) {
  const StatusOr<std::vector<WebhookDelivery>> deliveries = s.engine->Deliveries(1000);
  if (!deliveries.ok()) return InternalErrorResponse(deliveries.status());
  Json out = Json::array();
  for (const auto& d : *deliveries) {
    out.push_back({{"id", std::to_string(d.id)},
                   {"eventId", d.event_id},
                   {"webhookId", d.webhook_id},
                   {"url", d.url},
                   {"body", d.body},
                   {"signature", s.engine->signing_key().Sign(d.body)},
                   {"attempts", d.attempt},
                   {"state", d.state},
                   {"lastStatus", d.last_status},
                   {"lastError", d.last_error},
                   {"due", FormatTimestamp(d.due)},
                   {"workspaceId", d.scope}});
  }
  return JsonResponse(200, {{"deliveries", out}});
}

HttpResponse RegisterProject(Services& s, const HttpRequest& req, Lang lang) {
  Problems problems;
  auto body = ParseBody(req.body, problems);
  if (!body) return ErrorResponse(400, problems, lang);
  Reader in(*body, problems);
  auto pem = in.String("publicKey", Need::kRequired, "invalidPublicKey", 1, 4096);
  auto id = in.String("projectId", Need::kOptional, "invalidProject", 1, 64);
  auto ws = in.String("workspaceId", Need::kOptional, "invalidWorkspace", 1, 64);
  in.RejectUnknown();
  if (!problems.empty()) return ErrorResponse(400, problems, lang);
  if (!api::PublicKey::FromPem(*pem).ok())
    return Bad("invalidPublicKey", "publicKey must be a secp256k1 SubjectPublicKeyInfo PEM.",
               "publicKey deve ser um PEM SubjectPublicKeyInfo secp256k1.", lang);
  const std::string project_id = id.value_or(s.engine->NewId());
  Principal p{"project/" + project_id, s.demo_organization_id, ws.value_or(s.demo_workspace_id), *pem};
  Status st = s.engine->RegisterPrincipal(p);
  if (!st.ok()) return InternalErrorResponse(st);
  return JsonResponse(
      200, {{"project", {{"id", project_id}, {"workspaceId", p.workspace_id}, {"organizationId", p.organization_id}}}});
}

HttpResponse RunSimulation(Services& s, const SimulationFn& fn, const HttpRequest& req, Lang lang) {
  Problems problems;
  auto body = ParseBody(req.body.empty() ? std::string_view("{}") : std::string_view(req.body), problems);
  if (!body) return ErrorResponse(400, problems, lang);
  std::string workspace = s.demo_workspace_id;
  if (body->is_object() && body->contains("workspaceId") && (*body)["workspaceId"].is_string()) {
    workspace = (*body)["workspaceId"].get<std::string>();
    body->erase("workspaceId");
  }
  Caller caller{Caller::Kind::kSimulation, "sandbox", s.demo_organization_id, workspace};
  Json answer;
  Status st = s.engine->Run(caller, lang, problems, [&](Context& ctx) { answer = fn(ctx, *body, problems); });
  if (!st.ok()) return InternalErrorResponse(st);
  if (!problems.empty()) return ErrorResponse(400, problems, lang);
  s.flush_deliveries();
  return JsonResponse(200, answer);
}

// The page a purchase's challengeUrl points at: what the customer's phone opens after
// scanning the QR on the terminal. GET shows the purchase and two buttons; the buttons POST
// to /sandbox/challenge/<id>/pass|fail, which run the challenge/pass|fail simulations.
HttpResponse ChallengePage(Services& s, const std::string& purchase_id, const std::string& action, HttpRequest& req,
                           Lang lang) {
  for (char c : purchase_id)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      return ErrorResponse(404, {MakeProblem("invalidRoute", "Unknown challenge.", "Desafio desconhecido.")}, lang);
  auto html = [](const std::string& body) {
    HttpResponse r;
    r.content_type = "text/html; charset=utf-8";
    r.body =
        "<!doctype html><html><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
        "content=\"width=device-width\"><title>3-D Secure</title></head><body style=\"font-family:sans-serif;"
        "max-width:28em;margin:2em auto\">" +
        body + "</body></html>";
    return r;
  };
  if (action.empty() && req.method == "GET") {
    return html("<h1>Confirm your purchase</h1><p>Sandbox issuer: purchase " + purchase_id +
                "</p><form method=\"post\" action=\"/sandbox/challenge/" + purchase_id +
                "/pass\"><button style=\"font-size:1.4em\">Confirm</button></form><form method=\"post\" "
                "action=\"/sandbox/challenge/" +
                purchase_id + "/fail\"><button style=\"font-size:1.4em\">Decline</button></form>");
  }
  const SimulationFn* fn = (action == "pass" || action == "fail") && req.method == "POST"
                               ? Registry::Instance().FindSimulation("challenge/" + action)
                               : nullptr;
  if (!fn)
    return ErrorResponse(
        404, {MakeProblem("invalidRoute", "Unknown challenge action.", "Ação de desafio desconhecida.")}, lang);
  req.body = Json{{"id", purchase_id}}.dump();
  HttpResponse done = RunSimulation(s, *fn, req, lang);
  if (done.status != 200) return done;
  return html(std::string("<h1>") + (action == "pass" ? "Purchase confirmed" : "Purchase declined") +
              "</h1><p>You can return to the store's terminal.</p>");
}
}  // namespace

HttpResponse HandleSimulation(Services& s, const std::vector<std::string>& segments, const Query&, HttpRequest& req) {
  const Lang lang = LangOf(req);
  std::string name;
  for (std::size_t i = 1; i < segments.size(); ++i) name += (i > 1 ? "/" : "") + segments[i];
  if (name.empty() && req.method == "GET") {
    Json routes = {"GET,POST /sandbox/clock",
                   "GET,POST,DELETE /sandbox/faults",
                   "GET /sandbox/webhook-deliveries",
                   "GET,DELETE /sandbox/purchase-requests",
                   "POST /sandbox/flush",
                   "POST /sandbox/reset",
                   "POST /sandbox/projects"};
    for (const auto& sim : Registry::Instance().SimulationNames()) routes.push_back("POST /sandbox/" + sim);
    return JsonResponse(
        200, {{"routes", routes}, {"now", FormatTimestamp(s.engine->Now())}, {"workspaceId", s.demo_workspace_id}});
  }
  if (name == "clock" && (req.method == "GET" || req.method == "POST")) return Clock(s, req, lang);
  if (name == "faults") return Faults(s, req, lang);
  if (name == "webhook-deliveries" && req.method == "GET") return Deliveries(s);
  // Who called POST /v2/merchant-session/{uuid}/purchase (browser_purchase.h).
  if (name == "purchase-requests" && (req.method == "GET" || req.method == "DELETE")) {
    if (req.method == "DELETE") s.purchase_requests->Clear();
    return JsonResponse(200, {{"requests", s.purchase_requests->All()}});
  }
  if (name == "flush" && req.method == "POST") {
    s.flush_and_deliver();
    return JsonResponse(200, ClockJson(*s.engine));
  }
  if (name == "reset" && req.method == "POST") {
    s.faults->Clear();
    Status st = s.engine->Reset();
    if (!st.ok()) return InternalErrorResponse(st);
    // Workspaces (and the registered keys) survive a reset: they are the credentials.
    return JsonResponse(200, {{"reset", true}});
  }
  if (name == "projects" && req.method == "POST") return RegisterProject(s, req, lang);
  // /sandbox/challenge/<purchaseId>[/pass|/fail]: the customer's side of 3-D Secure.
  if (segments.size() >= 3 && segments.size() <= 4 && segments[1] == "challenge" && segments[2] != "pass" &&
      segments[2] != "fail")
    return ChallengePage(s, segments[2], segments.size() == 4 ? segments[3] : "", req, lang);
  if (req.method == "POST")
    if (const SimulationFn* fn = Registry::Instance().FindSimulation(name)) return RunSimulation(s, *fn, req, lang);
  return ErrorResponse(404,
                       {MakeProblem("invalidRoute", req.method + " /sandbox/" + name + " is not a simulation route.",
                                    req.method + " /sandbox/" + name + " não é uma rota de simulação.")},
                       lang);
}

}  // namespace balcao::sandbox::internal
