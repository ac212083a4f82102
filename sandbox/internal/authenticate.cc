#include "sandbox/internal/authenticate.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <string_view>

namespace balcao::sandbox::internal {
namespace {

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
bool AccessTimeAccepted(Engine& engine, const std::string& time_text, Problems& problems) {
  char* end = nullptr;
  const double seconds = std::strtod(time_text.c_str(), &end);
  const bool numeric = end && *end == '\0' && !time_text.empty() &&
                       std::all_of(time_text.begin(), time_text.end(),
                                   [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; });
  // The window is centred on sandbox time; after the simulation API moved the clock, callers
  // that sign with the real clock (every SDK) stay accepted too (docs/sandbox.md).
  const UnixMicros now = engine.Now(), window = engine.options().access_time_window;
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
bool WorkspaceOfOrganization(Engine& engine, const Caller& caller, Problems& problems) {
  if (caller.kind != Caller::Kind::kOrganization || caller.workspace_id.empty()) return true;
  bool known = false;
  Problems ignored;
  Caller org = caller;
  // A store failure leaves `known` false: the request is refused rather than served unchecked.
  engine
      .Run(org, Lang::kEnUs, ignored,
           [&](Context& ctx) { known = ctx.Find("workspace", caller.workspace_id).has_value(); })
      .IgnoreError();
  if (known) return true;
  problems.push_back(MakeProblem("invalidWorkspace",
                                 "Workspace '" + caller.workspace_id + "' does not belong to this organization.",
                                 "O workspace '" + caller.workspace_id + "' não pertence a esta organização."));
  return false;
}

}  // namespace

// Access-Id / Access-Time / Access-Signature (docs/wire.md, "Signing"). Appends problems on
// failure.
std::optional<Caller> Authenticate(Engine& engine, const http::HttpRequest& req, Problems& problems) {
  const std::string_view id = req.Header("access-id"), time = req.Header("access-time"),
                         signature = req.Header("access-signature");
  if (!HasSigningHeaders(id, time, signature, problems)) return std::nullopt;
  std::optional<AccessId> access = ParseAccessId(id, problems);
  if (!access) return std::nullopt;
  Caller& caller = access->caller;
  auto registered = engine.FindPrincipal(access->principal);
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
  if (!AccessTimeAccepted(engine, time_text, problems)) return std::nullopt;
  const std::string message = std::string(id) + ":" + time_text + ":" + req.body;
  if (!registered->key.Verify(message, signature)) {
    problems.push_back(MakeProblem("invalidCredentials",
                                   "Provided digital signature in the header Access-Signature does not check out.",
                                   "A assinatura digital no cabeçalho Access-Signature não confere."));
    return std::nullopt;
  }
  if (!WorkspaceOfOrganization(engine, caller, problems)) return std::nullopt;
  return caller;
}

}  // namespace balcao::sandbox::internal
