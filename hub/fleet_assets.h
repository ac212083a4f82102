// The fleet page (hub/web/), embedded into the executable at build time by
// terminal/service/embed_web.cmake: file name ("index.html") -> bytes.
// Thread-safety: immutable after first use.
#pragma once

#include <map>
#include <string_view>

namespace balcao::hub {

const std::map<std::string_view, std::string_view>& FleetAssets();

}  // namespace balcao::hub
