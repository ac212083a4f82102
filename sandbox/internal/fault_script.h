// Scripted faults per route (docs/style.md S11), set through POST /sandbox/faults and applied
// by the dispatcher to the next requests of a route, in order.
// Thread-safety: every method is thread-safe (one mutex).
#pragma once

#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace balcao::sandbox::internal {

// "POST /v2/invoice" (or an exact path, or a route template such as "GET /v2/invoice/{id}")
// -> faults applied to the next requests in order: "http-500", "delay-<ms>",
// "reset-before-processing", "commit-then-drop-response".
class FaultScript {
 public:
  // Appends faults; kInvalidArgument names an unknown fault.
  Status Add(const std::string& route, const std::vector<std::string>& faults);
  void Clear();
  // The next fault for this request (consumed), trying the exact path then the template.
  std::optional<std::string> Take(const std::string& exact_key, const std::string& template_key);
  std::map<std::string, std::vector<std::string>> Pending() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::deque<std::string>> faults_;
};

}  // namespace balcao::sandbox::internal
