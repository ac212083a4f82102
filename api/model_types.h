// Value types the bank models are made of, and the one mechanism that declares a model:
//   #define BALCAO_FOO_FIELDS(X) X(std::string, tax_id, "taxId") X(std::int64_t, amount, "amount")
//   BALCAO_MODEL(Foo, BALCAO_FOO_FIELDS)
// declares `struct Foo { std::optional<std::string> tax_id; std::optional<std::int64_t> amount; }`
// and its JSON conversions, which are defined once in api/internal/models_json.cc from the
// same field list. Every field is optional: absent on the wire = nullopt, and an empty
// optional is never sent (not even as null). Unknown wire keys are ignored.
// Only <nlohmann/json_fwd.hpp> is included here (compile time, docs/style.md S10).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/time.h"

namespace balcao::api {

namespace internal {
class JsonReader;
}

// A bank timestamp or date. Parsed tolerantly (Z, any offset, 0-9 fraction digits,
// date-only); written as "YYYY-MM-DDTHH:MM:SS.ffffff+00:00", or "YYYY-MM-DD" when it
// holds a date (date_only), which is what date fields (boleto due, scheduled) take.
struct Timestamp {
  UnixMicros micros = 0;
  bool date_only = false;

  static StatusOr<Timestamp> Parse(std::string_view text);
  static Timestamp At(UnixMicros t) { return {t, false}; }
  static Timestamp Date(int year, unsigned month, unsigned day);
  std::string ToString() const;
  bool operator==(const Timestamp&) const = default;
};

// Any JSON value kept as compact text (metadata, rule values, a log's errors, the
// payment inside a payment request...). Sent as the JSON it holds.
struct RawJson {
  std::string text;
  bool operator==(const RawJson&) const = default;
};

using Strings = std::vector<std::string>;

}  // namespace balcao::api

#define BALCAO_MODEL_MEMBER(type, member, key) std::optional<type> member;

// Declares the struct and its conversions (for ADL: same namespace):
//   ParseModel / ToJsonText: from and to JSON text (kInvalidArgument naming the field);
//   ToJson: into a nlohmann value (request bodies); ReadModel / ReadMember: the streaming
//   reader used on the bank's answers (internal).
#define BALCAO_MODEL(Name, FIELDS)                          \
  struct Name {                                             \
    FIELDS(BALCAO_MODEL_MEMBER)                             \
    bool operator==(const Name&) const = default;           \
  };                                                        \
  Status ParseModel(std::string_view json_text, Name& out); \
  std::string ToJsonText(const Name& in);                   \
  void ToJson(const Name& in, nlohmann::json& j);           \
  void ReadModel(internal::JsonReader& r, Name& out);       \
  bool ReadMember(internal::JsonReader& r, std::string_view key, Name& out);
