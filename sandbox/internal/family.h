// How a resource family plugs its domain logic into the sandbox. Generic behaviour
// (routing, auth, envelopes, list/get/filters/cursor/fields, logs list/get, errors) comes
// from api/resources.h for every resource; a family adds what is specific: create,
// patch, delete, files, sub-resources, scheduled jobs, simulation actions.
// Each family is one file sandbox/internal/family_<name>.cc with
//   BALCAO_SANDBOX_FAMILY(name) { registry.Add({...}); registry.AddJob(...); }
// CMake globs family_*.cc and generates the call list, so no shared file is edited.
// Thread-safety: the registry is filled once at startup, then only read.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sandbox/internal/engine.h"

namespace balcao::sandbox::internal {

// Creates one element of a batch (or the single entity of a single create / PUT): validates
// `element`, appends Problems (each naming the field and the rule) or inserts the entity
// (ctx.Insert), writes its logs and ledger entries, and returns its doc. If any element
// reports a problem the whole batch is rolled back and every problem is returned.
using CreateFn = std::function<Json(Context& ctx, const Json& element, Problems& problems)>;
// PATCH /x/{id}: `changes` is the body object. Modify e.doc, ctx.Save(e), add logs.
using PatchFn = std::function<void(Context& ctx, Entity& e, const Json& changes, Problems& problems)>;
// DELETE /x/{id}: cancel/delete; return with e in its new state (ctx.Save done).
using DeleteFn = std::function<void(Context& ctx, Entity& e, Problems& problems)>;
// GET /x/{id}/pdf, /qrcode (what = "pdf" | "qrcode"), GET /x/log/{id}/pdf (what = "log-pdf").
using FileFn =
    std::function<File(Context& ctx, const Entity& e, std::string_view what, const Query& query, Problems& problems)>;
// GET /x/{id}/payment -> {"payment": <returned doc>}.
using SubGetFn = std::function<Json(Context& ctx, const Entity& e, Problems& problems)>;
// POST /x/{uuid}/purchase -> {"purchase": <returned doc>}; `parent` found by lookup_key.
using SubPostFn = std::function<Json(Context& ctx, Entity& parent, const Json& body, Problems& problems)>;
// GET /x (list) when the resource is not a stored collection (balance, public-key):
// returns the whole envelope {"cursor":..., "<plural>":[...]}.
using ListFn = std::function<Json(Context& ctx, const Query& query, Problems& problems)>;
// A scheduled job (Context::Schedule), run when the sandbox clock reaches its time.
using JobFn = std::function<void(Context& ctx, const Json& payload)>;
// POST /sandbox/<name> (payer actions...). Runs in the workspace named by the body's
// "workspaceId" (default: the demo workspace). Returns the JSON answer.
using SimulationFn = std::function<Json(Context& ctx, const Json& body, Problems& problems)>;

// Registered as registry.Add({.resource = "invoice", .statuses = {...}, .create = ...}): the
// designated initializers name the fields in this order.
struct Family {
  std::string resource;                // api::ResourceSpec::name: "invoice"
  std::vector<std::string> statuses;   // values the `status` filter accepts; empty = any
  std::vector<std::string> log_types;  // values the log `types` filter accepts; empty = any
  std::string lookup_key = "id";       // by-id routes look up this key ("uuid" for dynamic-brcode)
  std::string not_found_code;          // default: "invalid" + PascalCase(single key)
  CreateFn create;                     // kCreateBatch, kCreateSingle, kPutBatch
  PatchFn patch;
  DeleteFn remove;
  FileFn file;
  SubGetFn sub_get;
  SubPostFn sub_post;
  ListFn list;
};

class Registry {
 public:
  void Add(Family family);
  void AddJob(std::string kind, JobFn fn);
  void AddSimulation(std::string name, SimulationFn fn);

  const Family* Find(std::string_view resource) const;
  const JobFn* FindJob(std::string_view kind) const;
  const SimulationFn* FindSimulation(std::string_view name) const;
  std::vector<std::string> SimulationNames() const;

  // The registry with every family_*.cc registered (built once).
  static const Registry& Instance();

 private:
  std::map<std::string, Family, std::less<>> families_;
  std::map<std::string, JobFn, std::less<>> jobs_;
  std::map<std::string, SimulationFn, std::less<>> simulations_;
};

}  // namespace balcao::sandbox::internal

// Defines the registration function of family_<name>.cc; the body uses `registry`.
#define BALCAO_SANDBOX_FAMILY(name) void RegisterFamily_##name(::balcao::sandbox::internal::Registry& registry)
