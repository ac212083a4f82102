// The JSON text of nexo messages, in and out, for the codec's files (message_*.cc): a strict
// parse that keeps a fractional number's text (money is never read through a double) and
// refuses a key given twice or nesting deeper than 16; a field reader that names the path of
// what it refuses; and the one way the answers are written out.
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "common/status.h"

namespace balcao::integration::nexo::internal {

// The JSON object `text` holds, its fractional numbers kept as their text (binary values,
// which JSON text cannot produce). kInvalidArgument "body: <rule>" otherwise: not JSON, not an
// object, a key given twice, nested deeper than 16.
StatusOr<nlohmann::json> ParseStrictObject(std::string_view text);

// A field reader that names the path of what it refuses ("SaleToPOIRequest.MessageHeader.POIID:
// required").
struct Fields {
  const nlohmann::json& object;
  std::string path;

  const nlohmann::json* Find(const char* key) const;
  std::string Path(const char* key) const;
  // A string of at most `max` characters, no control characters; `required`: present and not empty.
  StatusOr<std::string> Text(const char* key, bool required = true, std::size_t max = 64) const;
  StatusOr<Fields> Object(const char* key) const;
  // The text of a number (an integer, or the kept text of a fraction).
  StatusOr<std::string> NumberText(const char* key) const;
};

// The text of an answer: compact, invalid UTF-8 replaced.
std::string Dump(const nlohmann::json& value);

}  // namespace balcao::integration::nexo::internal
