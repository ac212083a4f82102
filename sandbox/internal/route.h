// Routing derived from api/resources.h: which resource operation a method and path name
// (docs/wire.md, "Resources"). Pure; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/resources.h"

namespace balcao::sandbox::internal {

// A request matched against the resource table.
struct Route {
  const api::ResourceSpec* spec = nullptr;
  api::Op op = api::kList;
  bool is_log = false;
  std::string id;
  std::string template_path;  // "/v2/invoice/{id}/pdf"
};

// The route of `method` on the path `segments` ("v2", "invoice", id...): nullopt when the
// path names no resource, or an operation the resource does not have.
std::optional<Route> MatchRoute(const std::string& method, const std::vector<std::string>& segments);

}  // namespace balcao::sandbox::internal
