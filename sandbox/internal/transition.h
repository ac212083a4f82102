// Scheduled status changes shared by the families: a job that moves an entity from one
// status to the next and logs it, unless the entity is gone or has moved on meanwhile (a
// stale job: e.g. a session already used, a boleto already paid). Thread-safety: as Context.
#pragma once

#include <string>
#include <utility>

#include "sandbox/internal/family.h"

namespace balcao::sandbox::internal {

// Moves resource/id from `from` to `to` and writes a log of type `to`. True when it moved.
inline bool MoveStatus(Context& ctx, std::string_view resource, const std::string& id, const std::string& from,
                       const std::string& to) {
  auto e = ctx.Find(resource, id);
  if (!e || e->status() != from) return false;
  e->doc["status"] = to;
  ctx.Save(*e);
  ctx.AddLog(*e, to);
  return true;
}

// A job running MoveStatus on payload["id"].
inline JobFn MoveStatusJob(std::string resource, std::string from, std::string to) {
  return [resource = std::move(resource), from = std::move(from), to = std::move(to)](Context& ctx, const Json& p) {
    MoveStatus(ctx, resource, p["id"].get<std::string>(), from, to);
  };
}

// A DELETE that cancels the entity while it is in `status` (logged "canceled"), and is
// refused otherwise with invalidAction naming what can be canceled: `what_en` / `what_pt`
// ("a pending pull request" / "uma solicitação pendente").
inline DeleteFn CancelWhileIn(std::string status, std::string what_en, std::string what_pt) {
  return [status = std::move(status), what_en = std::move(what_en), what_pt = std::move(what_pt)](
             Context& ctx, Entity& e, Problems& problems) {
    if (e.status() != status) {
      problems.push_back(MakeProblem("invalidAction",
                                     "Only " + what_en + " can be canceled (" + e.id + " is " + e.status() + ").",
                                     "Só " + what_pt + " pode ser cancelada (" + e.id + " está " + e.status() + ")."));
      return;
    }
    e.doc["status"] = "canceled";
    ctx.Save(e);
    ctx.AddLog(e, "canceled");
  };
}

}  // namespace balcao::sandbox::internal
