// Pix EndToEndId: "E" + ISPB (8 digits) + yyyyMMddHHmm (UTC) + 11 alphanumerics = 32
// characters (bacen/pix-api schema [a-zA-Z0-9]{32}; docs/formats.md, "Pix end-to-end id").
// Pure functions and value types; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "common/time.h"

namespace balcao::formats {

struct EndToEndId {
  std::string id;             // the 32 characters
  std::string ispb;           // 8 digits: the participant that created the payment order
  UnixMicros utc_time = 0;    // minute precision
  std::string utc_timestamp;  // "2022-01-20T14:50Z"
  std::string sequence;       // 11 alphanumerics, case kept
};

// kInvalidArgument naming the part that is wrong, and always ending with the shape rule
// "does not match E + 8-digit ISPB + yyyyMMddHHmm + 11 alnum (32 chars)".
StatusOr<EndToEndId> ParseEndToEndId(std::string_view text);

// Builds an id from its parts; `utc_time` is truncated to the minute. `sequence` must be
// 11 characters of [A-Za-z0-9].
StatusOr<std::string> BuildEndToEndId(std::string_view ispb, UnixMicros utc_time, std::string_view sequence);

}  // namespace balcao::formats
