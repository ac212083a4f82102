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

}  // namespace balcao::sandbox::internal
