// Tolerant request-target parsing (docs/wire.md, "Tolerated request shapes"): double
// slashes collapse, a trailing slash is dropped, empty query pairs ("?", "?&k=v", "k=") are
// ignored, "+" is a space, %2C and raw commas both separate list items, repeated keys join
// with commas. Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sandbox/internal/engine.h"

namespace balcao::sandbox::internal {

std::string PercentDecode(std::string_view text, bool plus_is_space);
// "/v2//invoice/" -> "/v2/invoice"
std::string NormalizePath(std::string_view path);
std::vector<std::string> PathSegments(std::string_view normalized_path);
Query ParseQuery(std::string_view query);
// "true"/"True"/"TRUE" -> true, "false"... -> false, anything else -> nullopt.
std::optional<bool> ParseBool(std::string_view text);

}  // namespace balcao::sandbox::internal
