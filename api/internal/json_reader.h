// A pull reader over JSON text, used to read the bank's answers straight into the models
// without building a DOM first (a 100-item invoice page is ~75 KB: a DOM costs a map node
// per field). Strict RFC 8259 syntax, nesting limited to 256 levels; every error throws
// ModelError naming the byte offset, which operations.cc turns into kInternal
// "malformed bank response". Not thread-safe (one reader per parse).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace balcao::api::internal {

// Thrown by the readers; what() is the field path and the rule, e.g.
// ".discounts[0].percentage: expected a number". Never leaves balcao_api.
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : text_(text) {}

  // The kind of the next value: '{', '[', '"', 'n' (null), 't'/'f' (bool), '0' (number).
  char Peek();
  // Objects: BeginObject(); while (NextKey(key)) { read or SkipValue(); }
  void BeginObject();
  bool NextKey(std::string& key);
  // Arrays: BeginArray(); while (NextElement()) { read one value; }
  void BeginArray();
  bool NextElement();

  bool TryNull();  // consumes a null and returns true, or leaves the input alone
  void ReadString(std::string& out);
  // A number: sets is_integer and the matching output (integers beyond int64 are doubles).
  void ReadNumber(bool& is_integer, std::int64_t& integer, double& real);
  bool ReadBool();
  void SkipValue();
  // Skips one value and returns its text exactly as it appears.
  std::string_view CaptureValue();
  // Only whitespace may follow.
  void ExpectEnd();

  [[noreturn]] void Fail(const std::string& what) const;

 private:
  void SkipWs();
  void Expect(char c);
  // At `closer`: consumes it, returns true. Otherwise consumes the separating comma
  // (from the second member on) and returns false.
  bool AtEnd(char closer);
  void SkipValueAt(int depth);
  // ReadString's steps: the escape after a backslash, and a \uXXXX (surrogate pairs joined).
  void ReadEscape(char e, std::string& out);
  std::uint32_t ReadHex4();
  std::uint32_t ReadUnicodeEscape();

  std::string_view text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  bool first_ = true;  // the innermost open container has no member read yet
};

}  // namespace balcao::api::internal
