// SeedHistory (seed.h): runs the script of seed_script.cc in one history transaction.
#include "sandbox/internal/seed.h"

#include "sandbox/internal/seed_history.h"

namespace balcao::sandbox::internal {

StatusOr<SeedResult> SeedHistory(Engine& engine, const SeedPlan& plan) {
  SeedResult result;
  const UnixMicros first_day = plan.until - plan.days * kSeedDay;
  Status st = engine.RunHistory([&]() -> Status {
    const std::int64_t before = engine.store().Count("");
    History h(engine, plan);
    RunSeedScript(h, first_day, result);
    engine.store().SetMeta("seed", std::to_string(plan.seed));
    result.entities = engine.store().Count("") - before;
    return OkStatus();
  });
  if (!st.ok()) return st;
  return result;
}

}  // namespace balcao::sandbox::internal
