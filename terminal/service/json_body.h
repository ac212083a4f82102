// The JSON API's request bodies, read strictly before any handler looks at them: a JSON object
// (RFC 8259: UTF-8, finite numbers), nested at most kMaxBodyDepth deep (no body of the API
// goes past 2; a deeper one is refused before any recursive walk of it), each key once per
// object (two "amount"s would mean one thing to a proxy and another here). docs/terminal.md.
// Thread-safety: pure function.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "common/status.h"

namespace balcao::terminal::service {

inline constexpr int kMaxBodyDepth = 8;

// The object; kInvalidArgument with the rule broken ("a JSON object", "a JSON object nested
// at most 8 deep", "a JSON object without a key given twice ('amount' is)").
StatusOr<nlohmann::json> ParseJsonObject(std::string_view text);

// The first key given twice in one object of `text` (JSON with // and /* */ comments, as the
// config file is), with the keys around it ("merchant.name"); "" when there is none (or the
// text is not JSON: the caller's parse says so). Any depth.
std::string DuplicateKey(std::string_view text);

}  // namespace balcao::terminal::service
