// The seeded account's script engine (seed.h): a clock that moves only forward through the
// past, running the jobs and the script's deferred actions that fall due, and calls into
// the families' create, patch, delete and simulation functions that turn any refusal into
// an error (the whole history is then rolled back). Used by seed.cc and seed_script.cc.
// Thread-safety: inside Engine::RunHistory only.
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "sandbox/internal/engine_core.h"
#include "sandbox/internal/family.h"
#include "sandbox/internal/seed.h"

namespace balcao::sandbox::internal {

inline constexpr UnixMicros kSeedMinute = 60 * kMicrosPerSecond;
inline constexpr UnixMicros kSeedHour = 60 * kSeedMinute;
inline constexpr UnixMicros kSeedDay = 24 * kSeedHour;

// A family refusing what the script sends is a bug of the script: the history is dropped.
[[noreturn]] inline void Refused(std::string_view what, const Problems& problems) {
  throw std::runtime_error("seed: " + std::string(what) + " refused: " + problems.front().code + ": " +
                           problems.front().en);
}

inline const Family& FamilyOf(std::string_view resource) {
  const Family* f = Registry::Instance().Find(resource);
  if (!f) throw std::runtime_error("seed: no family " + std::string(resource));
  return *f;
}

class History {
 public:
  History(Engine& engine, const SeedPlan& plan) : engine_(engine), plan_(plan), rng_(plan.seed) {
    project_ = {Caller::Kind::kProject, "project/" + plan.project_id, plan.organization_id, plan.workspace_id};
    organization_ = {Caller::Kind::kOrganization, "organization/" + plan.organization_id, plan.organization_id, ""};
  }

  // Moves the script's clock to `t`: runs the jobs and the deferred actions due by then,
  // in time order.
  void AdvanceTo(UnixMicros t) {
    t = std::max(t, now_);
    while (!later_.empty() && later_.begin()->first <= t) {
      auto [at, action] = *later_.begin();
      later_.erase(later_.begin());
      Check(engine_.RunJobsDueBy(at));
      Context ctx = At(at);
      action(ctx);
    }
    Check(engine_.RunJobsDueBy(t));
    now_ = t;
  }
  // Runs `action` at `t` (after the script's clock reached it); dropped when t >= until.
  void Later(UnixMicros t, std::function<void(Context&)> action) {
    if (t < plan_.until) later_.emplace(t, std::move(action));
  }

  Context At(UnixMicros t, bool organization = false) {
    Context ctx(engine_, organization ? organization_ : project_, Lang::kEnUs, t);
    ctx.set_history(true);
    return ctx;
  }
  Context Now(bool organization = false) { return At(now_, organization); }

  Json Create(Context& ctx, std::string_view resource, const Json& element) {
    Problems problems;
    Json doc = FamilyOf(resource).create(ctx, element, problems);
    if (!problems.empty()) Refused(resource, problems);
    return doc;
  }
  Json Create(std::string_view resource, const Json& element) {
    Context ctx = Now();
    return Create(ctx, resource, element);
  }
  Json Simulate(Context& ctx, std::string_view name, const Json& body) {
    const SimulationFn* fn = Registry::Instance().FindSimulation(name);
    Problems problems;
    Json answer = (*fn)(ctx, body, problems);
    if (!problems.empty()) Refused(name, problems);
    return answer;
  }
  void Patch(Context& ctx, std::string_view resource, const std::string& id, const Json& changes) {
    auto e = ctx.Find(resource, id);
    Problems problems;
    if (e) FamilyOf(resource).patch(ctx, *e, changes, problems);
    if (!e || !problems.empty()) Refused(resource, problems.empty() ? Problems{NotFound(resource, id)} : problems);
  }
  void Remove(Context& ctx, std::string_view resource, const std::string& id) {
    auto e = ctx.Find(resource, id);
    Problems problems;
    if (e) FamilyOf(resource).remove(ctx, *e, problems);
    if (!e || !problems.empty()) Refused(resource, problems.empty() ? Problems{NotFound(resource, id)} : problems);
  }

  std::int64_t Amount(std::int64_t low, std::int64_t high) {
    return std::uniform_int_distribution<std::int64_t>(low, high)(rng_);
  }
  bool Chance(int percent) { return Amount(1, 100) <= percent; }
  template <typename T>
  const T& Pick(const std::vector<T>& items) {
    return items[static_cast<std::size_t>(Amount(0, static_cast<std::int64_t>(items.size()) - 1))];
  }

  UnixMicros now() const { return now_; }
  const SeedPlan& plan() const { return plan_; }

 private:
  static void Check(const Status& st) {
    if (!st.ok()) throw std::runtime_error("seed: " + st.message());
  }

  Engine& engine_;
  const SeedPlan& plan_;
  std::mt19937_64 rng_;
  Caller project_, organization_;
  UnixMicros now_ = 0;
  std::multimap<UnixMicros, std::function<void(Context&)>> later_;
};

// The script (seed_script.cc): the store's days from `first_day` to the plan's `until`.
void RunSeedScript(History& h, UnixMicros first_day, SeedResult& result);

}  // namespace balcao::sandbox::internal
