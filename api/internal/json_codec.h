// The only place that turns text into JSON and back (docs/style.md S5): nlohmann's parser and
// serializer are instantiated once, here. Parse never throws; a syntax error becomes
// kInternal "malformed bank response" naming what was being read.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "common/status.h"

namespace balcao::api::internal {

// Parses `text`; on failure returns kInternal "malformed bank response (<what>): ...".
Status ParseJson(std::string_view text, std::string_view what, nlohmann::json& out);
// Parses text given by a caller (kInvalidArgument on error, naming `what`).
Status ParseUserJson(std::string_view text, std::string_view what, nlohmann::json& out);
// Compact, UTF-8 kept as is (like the Node SDK's JSON.stringify).
std::string DumpJson(const nlohmann::json& value);

}  // namespace balcao::api::internal
