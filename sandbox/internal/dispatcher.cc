#include "sandbox/internal/dispatcher.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>

#include "sandbox/internal/browser_purchase.h"
#include "sandbox/internal/family.h"
#include "sandbox/internal/url.h"

namespace balcao::sandbox::internal {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// A request matched against the resource table.
struct Route {
  const api::ResourceSpec* spec = nullptr;
  api::Op op = api::kList;
  bool is_log = false;
  std::string id;
  std::string template_path;  // "/v2/invoice/{id}/pdf"
};

std::optional<Route> Match(const std::string& method, const std::vector<std::string>& seg) {
  if (seg.size() < 2 || seg[0] != "v2") return std::nullopt;
  const api::ResourceSpec* spec = nullptr;
  std::size_t rest = 0;
  if (seg.size() >= 3) spec = api::FindResource(seg[1] + "/" + seg[2]), rest = 3;
  if (!spec) spec = api::FindResource(seg[1]), rest = 2;
  if (!spec) return std::nullopt;
  Route r;
  r.spec = spec;
  const std::string base = "/v2/" + std::string(spec->name);
  const std::size_t n = seg.size() - rest;
  auto at = [&](std::size_t i) -> const std::string& { return seg[rest + i]; };
  auto accept = [&](api::Op op, std::string tmpl, bool is_log = false) -> std::optional<Route> {
    if (!spec->Has(is_log && op != api::kPdf ? api::kLogs : op)) return std::nullopt;
    r.op = op;
    r.is_log = is_log;
    r.template_path = base + tmpl;
    return r;
  };
  if (n == 0) {
    if (method == "GET") return accept(api::kList, "");
    if (method == "PUT") return accept(api::kPutBatch, "");
    if (method == "POST")
      return spec->Has(api::kCreateBatch) ? accept(api::kCreateBatch, "") : accept(api::kCreateSingle, "");
    return std::nullopt;
  }
  if (at(0) == "log" && spec->Has(api::kLogs)) {
    if (n == 1 && method == "GET") return accept(api::kList, "/log", true);
    if (n >= 2) r.id = at(1);
    if (n == 2 && method == "GET") return accept(api::kGet, "/log/{id}", true);
    if (n == 3 && method == "GET" && at(2) == "pdf" && spec->Has(api::kLogPdf)) {
      r.op = api::kPdf;
      r.is_log = true;
      r.template_path = base + "/log/{id}/pdf";
      return r;
    }
    return std::nullopt;
  }
  r.id = at(0);
  if (n == 1) {
    if (method == "GET") return accept(api::kGet, "/{id}");
    if (method == "PATCH") return accept(api::kPatch, "/{id}");
    if (method == "DELETE") return accept(api::kDelete, "/{id}");
    return std::nullopt;
  }
  if (n == 2) {
    if (method == "GET" && at(1) == "pdf") return accept(api::kPdf, "/{id}/pdf");
    if (method == "GET" && at(1) == "qrcode") return accept(api::kQrcode, "/{id}/qrcode");
    if (method == "GET" && at(1) == "payment") return accept(api::kPaymentSub, "/{id}/payment");
    if (method == "POST" && at(1) == "purchase") return accept(api::kPurchaseSub, "/{uuid}/purchase");
  }
  return std::nullopt;
}

Problem Unsupported(const Route& r) {
  return MakeProblem("unsupportedOperation",
                     "This sandbox does not emulate " + r.template_path + " for this method yet.",
                     "Este sandbox ainda não emula " + r.template_path + " para este método.");
}

// Appends a problem per missing signing header; true when all three are there.
bool HasSigningHeaders(std::string_view id, std::string_view time, std::string_view signature, Problems& problems) {
  auto missing = [&](std::string_view value, const char* code, const char* name) {
    if (!value.empty()) return false;
    problems.push_back(MakeProblem(code, std::string("Header ") + name + " is missing.",
                                   std::string("O cabeçalho ") + name + " está ausente."));
    return true;
  };
  bool any = missing(id, "missingAccessId", "Access-Id");
  any = missing(time, "missingAccessTime", "Access-Time") || any;
  any = missing(signature, "missingAccessSignature", "Access-Signature") || any;
  return !any;
}

// What an Access-Id names: the caller (kind, workspace) and the registered principal that
// signs for it ("project/<id>", "organization/<id>"); `number` is the principal's id.
struct AccessId {
  Caller caller;
  std::string principal;
  std::string number;
};

std::optional<AccessId> ParseAccessId(std::string_view id, Problems& problems) {
  AccessId out;
  out.caller.access_id = std::string(id);
  std::vector<std::string> seg;
  for (std::size_t i = 0, j; i <= id.size(); i = j + 1) {
    j = id.find('/', i);
    if (j == std::string_view::npos) j = id.size();
    seg.emplace_back(id.substr(i, j - i));
  }
  if (seg.size() == 2 && seg[0] == "project" && !seg[1].empty()) {
    out.principal = "project/" + seg[1];
  } else if ((seg.size() == 2 || (seg.size() == 4 && seg[2] == "workspace" && !seg[3].empty())) &&
             seg[0] == "organization" && !seg[1].empty()) {
    out.principal = "organization/" + seg[1];
    out.caller.kind = Caller::Kind::kOrganization;
    if (seg.size() == 4) out.caller.workspace_id = seg[3];
  } else {
    problems.push_back(MakeProblem(
        "invalidAccessId", "Access-Id must be project/<id>, organization/<id> or organization/<id>/workspace/<id>.",
        "Access-Id deve ser project/<id>, organization/<id> ou organization/<id>/workspace/<id>."));
    return std::nullopt;
  }
  out.number = seg[1];
  return out;
}

// Access-Time: Unix seconds, integer or fractional, within the window of sandbox time.
// Appends the problem when it is not.
bool AccessTimeAccepted(Services& s, const std::string& time_text, Problems& problems) {
  char* end = nullptr;
  const double seconds = std::strtod(time_text.c_str(), &end);
  const bool numeric = end && *end == '\0' && !time_text.empty() &&
                       std::all_of(time_text.begin(), time_text.end(),
                                   [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; });
  // The window is centred on sandbox time; after the simulation API moved the clock, callers
  // that sign with the real clock (every SDK) stay accepted too (docs/sandbox.md).
  const UnixMicros now = s.engine->Now(), window = s.engine->options().access_time_window;
  auto within = [&](UnixMicros reference) {
    const double skew = seconds * 1e6 - static_cast<double>(reference);
    return skew <= static_cast<double>(window) && -skew <= static_cast<double>(window);
  };
  if (numeric && (within(now) || within(SystemClock::Instance().Now()))) return true;
  const std::string w = std::to_string(window / kMicrosPerSecond);
  problems.push_back(MakeProblem("invalidAccessTime",
                                 "Access-Time must be Unix seconds within " + w + " s of the sandbox clock (now " +
                                     std::to_string(now / kMicrosPerSecond) + ").",
                                 "Access-Time deve estar em segundos Unix a no máximo " + w +
                                     " s do relógio do sandbox (agora " + std::to_string(now / kMicrosPerSecond) +
                                     ")."));
  return false;
}

// An organization's Access-Id that names a workspace must name one of its own.
bool WorkspaceOfOrganization(Services& s, const Caller& caller, Problems& problems) {
  if (caller.kind != Caller::Kind::kOrganization || caller.workspace_id.empty()) return true;
  bool known = false;
  Problems ignored;
  Caller org = caller;
  // A store failure leaves `known` false: the request is refused rather than served unchecked.
  s.engine
      ->Run(org, Lang::kEnUs, ignored,
            [&](Context& ctx) { known = ctx.Find("workspace", caller.workspace_id).has_value(); })
      .IgnoreError();
  if (known) return true;
  problems.push_back(MakeProblem("invalidWorkspace",
                                 "Workspace '" + caller.workspace_id + "' does not belong to this organization.",
                                 "O workspace '" + caller.workspace_id + "' não pertence a esta organização."));
  return false;
}

// Access-Id / Access-Time / Access-Signature (docs/wire.md, "Signing"). Appends problems on
// failure.
std::optional<Caller> Authenticate(Services& s, const HttpRequest& req, Problems& problems) {
  const std::string_view id = req.Header("access-id"), time = req.Header("access-time"),
                         signature = req.Header("access-signature");
  if (!HasSigningHeaders(id, time, signature, problems)) return std::nullopt;
  std::optional<AccessId> access = ParseAccessId(id, problems);
  if (!access) return std::nullopt;
  Caller& caller = access->caller;
  auto registered = s.engine->FindPrincipal(access->principal);
  if (!registered) {
    const bool project = caller.kind == Caller::Kind::kProject;
    problems.push_back(MakeProblem(project ? "invalidProject" : "invalidOrganization",
                                   std::string(project ? "Project" : "Organization") + " '" + access->number +
                                       "' is not registered in this sandbox.",
                                   std::string(project ? "Projeto" : "Organização") + " '" + access->number +
                                       "' não está cadastrado(a) neste sandbox."));
    return std::nullopt;
  }
  caller.organization_id = registered->principal.organization_id;
  if (caller.kind == Caller::Kind::kProject) caller.workspace_id = registered->principal.workspace_id;
  const std::string time_text(time);
  if (!AccessTimeAccepted(s, time_text, problems)) return std::nullopt;
  const std::string message = std::string(id) + ":" + time_text + ":" + req.body;
  if (!registered->key.Verify(message, signature)) {
    problems.push_back(MakeProblem("invalidCredentials",
                                   "Provided digital signature in the header Access-Signature does not check out.",
                                   "A assinatura digital no cabeçalho Access-Signature não confere."));
    return std::nullopt;
  }
  if (!WorkspaceOfOrganization(s, caller, problems)) return std::nullopt;
  return caller;
}

std::string PluralMessage(const api::ResourceSpec& spec, std::string_view verb) {
  return std::string(spec.name) + "(s) successfully " + std::string(verb);
}

// One generic operation on a resource, run inside one engine transaction: one method per
// kind of route (list, get, create, patch or delete, file, sub-resource).
class Operation {
 public:
  Operation(const Route& r, const Query& query, const std::optional<Json>& body, Problems& problems)
      : r_(r),
        family_(Registry::Instance().Find(r.spec->name)),
        resource_(std::string(r.spec->name) + (r.is_log ? "/log" : "")),
        query_(query),
        body_(body),
        problems_(problems) {}

  void Run(Context& ctx) {
    switch (r_.op) {
      case api::kList:
        return List(ctx);
      case api::kGet:
        return Get(ctx);
      case api::kCreateBatch:
      case api::kPutBatch:
        return CreateBatch(ctx);
      case api::kCreateSingle:
        return CreateSingle(ctx);
      case api::kPatch:
      case api::kDelete:
        return PatchOrDelete(ctx);
      case api::kPdf:
      case api::kQrcode:
        return FileOf(ctx);
      case api::kPaymentSub:
        return PaymentSub(ctx);
      case api::kPurchaseSub:
        return PurchaseSub(ctx);
      default:
        problems_.push_back(Unsupported(r_));
    }
  }

  Json answer;
  File file;
  bool is_file = false;

 private:
  std::optional<Entity> Lookup(Context& ctx) {
    const std::string key = family_ && !r_.is_log ? family_->lookup_key : "id";
    auto e = ctx.FindBy(resource_, key, r_.id);
    if (!e) problems_.push_back(NotFound(resource_, r_.id));
    return e;
  }

  void List(Context& ctx) {
    if (family_ && family_->list && !r_.is_log)
      answer = family_->list(ctx, query_, problems_);
    else
      answer = ListEnvelope(ctx, *r_.spec, r_.is_log, query_, problems_);
  }

  void Get(Context& ctx) {
    auto e = Lookup(ctx);
    if (!e) return;
    ApplyFields(e->doc, query_);
    answer = {{r_.is_log ? std::string("log") : std::string(r_.spec->single_key), std::move(e->doc)}};
  }

  void CreateBatch(Context& ctx) {
    if (!family_ || !family_->create) return problems_.push_back(Unsupported(r_));
    const std::string plural(r_.spec->plural_key);
    const Json& body = *body_;
    auto items = body.is_object() ? body.find(plural) : body.end();
    if (!body.is_object() || items == body.end() || !items->is_array() || items->empty() || items->size() > 100 ||
        body.size() != 1) {
      return problems_.push_back(MakeProblem(std::string(kInvalidJson),
                                             "Body must be {\"" + plural + "\": [...]} with 1 to 100 items.",
                                             "O corpo deve ser {\"" + plural + "\": [...]} com 1 a 100 itens."));
    }
    Json out = Json::array();
    for (std::size_t i = 0; i < items->size(); ++i) {
      const std::size_t before = problems_.size();
      Json doc = family_->create(ctx, (*items)[i], problems_);
      const std::string where = plural + "[" + std::to_string(i) + "]: ";
      for (std::size_t k = before; k < problems_.size(); ++k) {
        problems_[k].en = where + problems_[k].en;
        problems_[k].pt = where + problems_[k].pt;
      }
      if (problems_.size() == before) out.push_back(std::move(doc));
    }
    answer = {{plural, std::move(out)},
              {"message", PluralMessage(*r_.spec, r_.op == api::kPutBatch ? "updated" : "created")}};
  }

  void CreateSingle(Context& ctx) {
    if (!family_ || !family_->create) return problems_.push_back(Unsupported(r_));
    Json doc = family_->create(ctx, *body_, problems_);
    answer = {{std::string(r_.spec->single_key), std::move(doc)}};
  }

  void PatchOrDelete(Context& ctx) {
    const bool patch = r_.op == api::kPatch;
    if (!family_ || !(patch ? static_cast<bool>(family_->patch) : static_cast<bool>(family_->remove)))
      return problems_.push_back(Unsupported(r_));
    if (patch && (!body_->is_object() || body_->empty()))
      return problems_.push_back(MakeProblem(std::string(kInvalidJson), "Body must be a non-empty JSON object.",
                                             "O corpo deve ser um objeto JSON não vazio."));
    auto e = Lookup(ctx);
    if (!e) return;
    if (patch)
      family_->patch(ctx, *e, *body_, problems_);
    else
      family_->remove(ctx, *e, problems_);
    answer = {{std::string(r_.spec->single_key), e->doc}};
  }

  void FileOf(Context& ctx) {
    if (!family_ || !family_->file) return problems_.push_back(Unsupported(r_));
    auto e = Lookup(ctx);
    if (!e) return;
    file = family_->file(ctx, *e, r_.is_log ? "log-pdf" : (r_.op == api::kPdf ? "pdf" : "qrcode"), query_, problems_);
    is_file = true;
  }

  void PaymentSub(Context& ctx) {
    if (!family_ || !family_->sub_get) return problems_.push_back(Unsupported(r_));
    auto e = Lookup(ctx);
    if (!e) return;
    answer = {{"payment", family_->sub_get(ctx, *e, problems_)}};
  }

  void PurchaseSub(Context& ctx) {
    if (!family_ || !family_->sub_post) return problems_.push_back(Unsupported(r_));
    auto parent = ctx.FindBy(resource_, "uuid", r_.id);
    if (!parent) return problems_.push_back(NotFound(resource_, r_.id));
    answer = {{"purchase", family_->sub_post(ctx, *parent, *body_, problems_)}};
  }

  const Route& r_;
  const Family* family_;
  const std::string resource_;
  const Query& query_;
  const std::optional<Json>& body_;  // set for POST, PUT and PATCH
  Problems& problems_;
};

// The generic operations. Runs inside one engine transaction.
HttpResponse Serve(Services& s, const Route& r, const Caller& caller, const Query& query, const HttpRequest& req,
                   Lang lang) {
  std::optional<Json> body;
  Problems problems;
  if (req.method == "POST" || req.method == "PUT" || req.method == "PATCH") {
    body = ParseBody(req.body, problems);
    if (!body) return ErrorResponse(400, problems, lang);
  }
  Operation operation(r, query, body, problems);
  Status st = s.engine->Run(caller, lang, problems, [&](Context& ctx) { operation.Run(ctx); });
  if (!st.ok()) return InternalErrorResponse(st);
  if (!problems.empty()) return ErrorResponse(400, problems, lang);
  if (operation.is_file) {
    HttpResponse res;
    res.content_type = operation.file.content_type;
    res.body = std::move(operation.file.bytes);
    return res;
  }
  return JsonResponse(200, operation.answer);
}

}  // namespace

Status FaultScript::Add(const std::string& route, const std::vector<std::string>& faults) {
  for (const auto& f : faults) {
    const bool delay = f.rfind("delay-", 0) == 0 && f.size() > 6 && std::all_of(f.begin() + 6, f.end(), [](char c) {
                         return std::isdigit(static_cast<unsigned char>(c));
                       });
    if (!delay && f != "http-500" && f != "reset-before-processing" && f != "commit-then-drop-response")
      return InvalidArgumentError("unknown fault '" + f +
                                  "' (http-500, delay-<ms>, reset-before-processing, commit-then-drop-response)");
  }
  std::lock_guard lock(mu_);
  auto& q = faults_[route];
  q.insert(q.end(), faults.begin(), faults.end());
  return OkStatus();
}

void FaultScript::Clear() {
  std::lock_guard lock(mu_);
  faults_.clear();
}

std::optional<std::string> FaultScript::Take(const std::string& exact_key, const std::string& template_key) {
  std::lock_guard lock(mu_);
  for (const auto* key : {&exact_key, &template_key}) {
    auto it = faults_.find(*key);
    if (it == faults_.end() || it->second.empty()) continue;
    std::string f = it->second.front();
    it->second.pop_front();
    if (it->second.empty()) faults_.erase(it);
    return f;
  }
  return std::nullopt;
}

std::map<std::string, std::vector<std::string>> FaultScript::Pending() const {
  std::lock_guard lock(mu_);
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& [k, q] : faults_) out[k] = std::vector<std::string>(q.begin(), q.end());
  return out;
}

Lang LangOf(const HttpRequest& request) {
  return Lower(request.Header("accept-language")).rfind("pt-br", 0) == 0 ? Lang::kPtBr : Lang::kEnUs;
}

HttpResponse JsonResponse(int status, const Json& body) {
  HttpResponse res;
  res.status = status;
  res.body = body.dump(-1, ' ', false, Json::error_handler_t::replace);
  return res;
}

HttpResponse ErrorResponse(int status, const Problems& problems, Lang lang) {
  Json errors = Json::array();
  for (const auto& p : problems) errors.push_back({{"code", p.code}, {"message", lang == Lang::kPtBr ? p.pt : p.en}});
  return JsonResponse(status, {{"errors", errors}});
}

HttpResponse InternalErrorResponse(const Status& status) {
  std::fprintf(stderr, "sandbox: %s\n", status.ToString().c_str());
  return JsonResponse(500,
                      {{"errors", {{{"code", "internalServerError"}, {"message", "Houston, we have a problem."}}}}});
}

HttpResponse RefusalResponse(const http::Refusal& refusal) {
  const std::string limit = http::DescribeBytes(refusal.limit);
  switch (refusal.status) {
    case 413:
      return ErrorResponse(413,
                           {MakeProblem("payloadTooLarge", "Request body exceeds " + limit + ".",
                                        "O corpo da requisição excede " + limit + ".")},
                           Lang::kEnUs);
    case 431:
      return ErrorResponse(431,
                           {MakeProblem("headersTooLarge", "Request headers exceed " + limit + ".",
                                        "Os cabeçalhos da requisição excedem " + limit + ".")},
                           Lang::kEnUs);
    case 500:
      return InternalErrorResponse(InternalError("request failed: " + refusal.rule));
    default:
      return ErrorResponse(refusal.status,
                           {MakeProblem("invalidRequest", "Malformed HTTP request.", "Requisição HTTP malformada.")},
                           Lang::kEnUs);
  }
}

std::optional<Json> ParseBody(std::string_view body, Problems& problems) {
  // nlohmann's parser is iterative, but deep documents are still no valid API input;
  // refuse them before parsing (1,000-deep nesting is a bad-input test case).
  int depth = 0, max_depth = 0;
  bool in_string = false, escape = false;
  for (char c : body) {
    if (in_string) {
      if (escape)
        escape = false;
      else if (c == '\\')
        escape = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '{' || c == '[')
      max_depth = std::max(max_depth, ++depth);
    else if (c == '}' || c == ']')
      --depth;
  }
  Json parsed = max_depth > 32 ? Json(Json::value_t::discarded) : Json::parse(body, nullptr, false);
  if (parsed.is_discarded() || !(parsed.is_object() || parsed.is_array())) {
    problems.push_back(MakeProblem(
        std::string(kInvalidJson),
        max_depth > 32 ? "Body nests deeper than 32 levels." : "Body is not a valid JSON object.",
        max_depth > 32 ? "O corpo tem mais de 32 níveis de aninhamento." : "O corpo não é um objeto JSON válido."));
    return std::nullopt;
  }
  return parsed;
}

HttpResponse Dispatch(Services& s, HttpRequest& req) {
  const std::size_t q = req.target.find('?');
  const std::string path = NormalizePath(std::string_view(req.target).substr(0, q));
  const Query query = q == std::string::npos ? Query{} : ParseQuery(std::string_view(req.target).substr(q + 1));
  const Lang lang = LangOf(req);
  const auto segments = PathSegments(path);
  if (!segments.empty() && segments[0] == "sandbox") return HandleSimulation(s, segments, query, req);
  const bool purchase_route = IsSessionPurchase(segments);  // the one route a browser calls
  if (purchase_route && req.method == "OPTIONS") return PurchasePreflight(req);

  auto route = Match(req.method, segments);
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
    res = Serve(s, *route, owner, query, req, lang);
  } else if (purchase_route && !SignedRequest(req)) {
    // The customer's own device, unsigned: only a live session's uuid opens the route.
    int status = 400;
    if (auto caller = UnsignedPurchaseCaller(s, req, route->id, problems, status))
      res = Serve(s, *route, *caller, query, req, lang);
    else if (status == 500)
      res = InternalErrorResponse(InternalError(problems.front().en)), problems.clear();
  } else if (auto caller = Authenticate(s, req, problems)) {
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
    if (problems.empty()) res = Serve(s, *route, *caller, query, req, lang);
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
