// Split profiles (API documentation, part 2, "Split Profile"): PUT /v2/split-profile
// {"profiles": [one profile]} creates the workspace's profile or updates its rules (delay
// in milliseconds the split amount stays in the workspace, interval day / week / month,
// default week; tags).
#include "sandbox/internal/engine_core.h"
#include "sandbox/internal/family.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {
namespace {

Json PutProfile(Context& ctx, const Json& element, Problems& problems) {
  Reader in(element, problems);
  auto delay = in.Int("delay", Need::kOptional, 0, 365LL * 86'400'000, "invalidDelay");
  auto interval = in.Enum("interval", Need::kOptional, {"day", "week", "month"}, "invalidInterval");
  auto tags = in.Tags();
  in.RejectUnknown();
  if (!problems.empty()) return nullptr;
  ListQuery q;
  q.resource = "split-profile";
  q.scope = ctx.workspace_id();
  q.limit = 1;
  auto existing = ctx.Checked(ctx.engine().store().List(q));
  if (existing.empty()) {
    Entity e = ctx.Insert(
        "split-profile",
        {{"delay", delay.value_or(0)}, {"interval", interval.value_or("week")}, {"status", "created"}, {"tags", tags}});
    ctx.AddLog(e, "created");
    return e.doc;
  }
  Entity& e = existing.front();
  if (delay) e.doc["delay"] = *delay;
  if (interval) e.doc["interval"] = *interval;
  if (element.contains("tags")) e.doc["tags"] = tags;
  ctx.Save(e);
  ctx.AddLog(e, "updated");
  return e.doc;
}

}  // namespace

BALCAO_SANDBOX_FAMILY(split_profile) {
  registry.Add({.resource = "split-profile",
                .statuses = {"created"},
                .log_types = {"created", "updated", "success", "failed"},
                .create = PutProfile});
}

}  // namespace balcao::sandbox::internal
