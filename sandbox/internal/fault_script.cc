#include "sandbox/internal/fault_script.h"

#include <algorithm>
#include <cctype>

namespace balcao::sandbox::internal {

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

}  // namespace balcao::sandbox::internal
