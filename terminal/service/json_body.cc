#include "terminal/service/json_body.h"

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace balcao::terminal::service {
namespace {

using nlohmann::json;

// A SAX pass that stops at the first break of the rules (no tree is built for it).
class Checker {
 public:
  enum class Broken { kNone, kSyntax, kNotObject, kTooDeep, kDuplicateKey };

  bool null() { return Value(); }
  bool boolean(bool) { return Value(); }
  bool number_integer(json::number_integer_t) { return Value(); }
  bool number_unsigned(json::number_unsigned_t) { return Value(); }
  bool number_float(json::number_float_t, const json::string_t&) { return Value(); }
  bool string(json::string_t&) { return Value(); }
  bool binary(json::binary_t&) { return Value(); }
  bool start_object(std::size_t) {
    if (!Open()) return false;
    keys_.emplace_back();
    path_.emplace_back();
    return true;
  }
  bool key(json::string_t& name) {
    path_.back() = name;
    if (keys_.back().insert(name).second) return true;
    broken_ = Broken::kDuplicateKey;
    for (const std::string& part : path_) duplicate_ += (duplicate_.empty() ? "" : ".") + part;
    return false;
  }
  bool end_object() {
    keys_.pop_back();
    path_.pop_back();
    --depth_;
    return true;
  }
  bool start_array(std::size_t) {
    if (depth_ == 0 && !any_root_) return NotAnObject();
    path_.emplace_back("[]");
    return Open();
  }
  bool end_array() {
    path_.pop_back();
    --depth_;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    if (broken_ == Broken::kNone) broken_ = Broken::kSyntax;
    return false;
  }

  Broken broken() const { return broken_; }
  // The key given twice, with the keys of the objects around it ("merchant.name").
  const std::string& duplicate() const { return duplicate_; }
  void AllowAnyRoot() { any_root_ = true; }

 private:
  bool Value() { return depth_ == 0 && !any_root_ ? NotAnObject() : true; }
  bool NotAnObject() {
    broken_ = Broken::kNotObject;
    return false;
  }
  bool Open() {
    if (++depth_ <= kMaxBodyDepth) return true;
    broken_ = Broken::kTooDeep;
    return false;
  }

  int depth_ = 0;
  bool any_root_ = false;
  std::vector<std::set<std::string>> keys_;  // of each object open
  std::vector<std::string> path_;            // the key (or "[]") at each level open
  std::string duplicate_;
  Broken broken_ = Broken::kNone;
};

}  // namespace

StatusOr<json> ParseJsonObject(std::string_view text) {
  Checker checker;
  const bool passed = json::sax_parse(text, &checker, json::input_format_t::json, /*strict=*/true);
  switch (checker.broken()) {
    case Checker::Broken::kTooDeep:
      return InvalidArgumentError("a JSON object nested at most " + std::to_string(kMaxBodyDepth) + " deep");
    case Checker::Broken::kDuplicateKey:
      return InvalidArgumentError("a JSON object without a key given twice ('" + checker.duplicate() + "' is)");
    case Checker::Broken::kNone:
      if (passed) break;
      [[fallthrough]];
    default:
      return InvalidArgumentError("a JSON object");
  }
  json object = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!object.is_object()) return InvalidArgumentError("a JSON object");
  return object;
}

std::string DuplicateKey(std::string_view text) {
  Checker checker;
  checker.AllowAnyRoot();
  (void)json::sax_parse(text, &checker, json::input_format_t::json, /*strict=*/true, /*ignore_comments=*/true);
  return checker.broken() == Checker::Broken::kDuplicateKey ? checker.duplicate() : std::string();
}

}  // namespace balcao::terminal::service
