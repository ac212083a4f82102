// URL query parameters as the bank's SDKs encode them (docs/wire.md, "Query strings"):
// lists are joined with commas into one value, then every value is percent-encoded (RFC 3986
// unreserved kept, so the comma goes out as %2C and a space as %20). Order of insertion is
// kept.
// Thread-safety: value type.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace balcao::api {

class Query {
 public:
  Query() = default;
  Query& Add(std::string key, std::string value);
  Query& Add(std::string key, const std::vector<std::string>& values);  // comma-joined
  Query& Add(std::string key, std::int64_t value);
  Query& Add(std::string key, bool value);  // "true" / "false"
  Query& Add(std::string key, const char* value) { return Add(std::move(key), std::string(value)); }
  // Replaces every value of key (or adds it).
  Query& Set(std::string key, std::string value);

  bool empty() const { return params_.empty(); }
  const std::vector<std::pair<std::string, std::string>>& params() const { return params_; }
  const std::string* Find(std::string_view key) const;
  // "a=1&ids=1%2C2", without the leading '?'.
  std::string Encode() const;

 private:
  std::vector<std::pair<std::string, std::string>> params_;  // raw, not yet encoded
};

// Percent-encodes everything except ALPHA / DIGIT / "-" / "." / "_" / "~".
std::string PercentEncode(std::string_view text);

}  // namespace balcao::api
