#include "sandbox/internal/family.h"

namespace balcao::sandbox::internal {

// Defined in the CMake-generated families.cc: calls every RegisterFamily_<name>.
void RegisterAllFamilies(Registry& registry);

void Registry::Add(Family family) {
  std::string name = family.resource;
  families_.insert_or_assign(std::move(name), std::move(family));
}
void Registry::AddJob(std::string kind, JobFn fn) { jobs_.insert_or_assign(std::move(kind), std::move(fn)); }
void Registry::AddSimulation(std::string name, SimulationFn fn) {
  simulations_.insert_or_assign(std::move(name), std::move(fn));
}

const Family* Registry::Find(std::string_view resource) const {
  auto it = families_.find(resource);
  return it == families_.end() ? nullptr : &it->second;
}
const JobFn* Registry::FindJob(std::string_view kind) const {
  auto it = jobs_.find(kind);
  return it == jobs_.end() ? nullptr : &it->second;
}
const SimulationFn* Registry::FindSimulation(std::string_view name) const {
  auto it = simulations_.find(name);
  return it == simulations_.end() ? nullptr : &it->second;
}
std::vector<std::string> Registry::SimulationNames() const {
  std::vector<std::string> out;
  for (const auto& [name, fn] : simulations_) out.push_back(name);
  return out;
}

const Registry& Registry::Instance() {
  // Never destroyed, like SystemClock's: an engine's threads may look up a job while the
  // process exits (a sandbox owned by a static outlives this function's statics).
  static const Registry* const registry = [] {
    auto* r = new Registry();
    RegisterAllFamilies(*r);
    return r;
  }();
  return *registry;
}

}  // namespace balcao::sandbox::internal
