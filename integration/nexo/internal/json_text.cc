#include "integration/nexo/internal/json_text.h"

#include <set>
#include <vector>

namespace balcao::integration::nexo::internal {
namespace {

using nlohmann::json;

constexpr int kMaxDepth = 16;

// Builds the tree like nlohmann's own DOM parser, with three differences: a number with a
// fraction or an exponent keeps its text (as a binary value, which JSON text cannot produce),
// a key given twice and nesting deeper than kMaxDepth stop the parse.
class TextNumberBuilder {
 public:
  explicit TextNumberBuilder(json& root) : root_(root) {}
  bool null() { return Put(json(nullptr)); }
  bool boolean(bool value) { return Put(json(value)); }
  bool number_integer(json::number_integer_t value) { return Put(json(value)); }
  bool number_unsigned(json::number_unsigned_t value) { return Put(json(value)); }
  bool number_float(json::number_float_t, const json::string_t& text) {
    return Put(json::binary(std::vector<std::uint8_t>(text.begin(), text.end())));
  }
  bool string(json::string_t& value) { return Put(json(value)); }
  bool binary(json::binary_t&) { return Fail("no binary values"); }
  bool start_object(std::size_t) { return Open(json::object()); }
  bool key(json::string_t& name) {
    if (!keys_.back().insert(name).second) return Fail("a JSON object without a key given twice ('" + name + "')");
    key_ = name;
    return true;
  }
  bool end_object() {
    keys_.pop_back();
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) { return Open(json::array()); }
  bool end_array() {
    keys_.pop_back();
    stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    return Fail("a JSON object");
  }
  const std::string& error() const { return error_; }

 private:
  bool Fail(std::string why) {
    if (error_.empty()) error_ = std::move(why);
    return false;
  }
  json* Place(json value) {
    if (stack_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    json& parent = *stack_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    return &(parent[key_] = std::move(value));
  }
  bool Put(json value) {
    if (stack_.empty()) return Fail("a JSON object");
    Place(std::move(value));
    return true;
  }
  bool Open(json value) {
    if (static_cast<int>(stack_.size()) >= kMaxDepth)
      return Fail("a JSON object nested at most " + std::to_string(kMaxDepth) + " deep");
    stack_.push_back(Place(std::move(value)));
    keys_.emplace_back();
    return true;
  }

  json& root_;
  std::vector<json*> stack_;
  std::vector<std::set<std::string>> keys_;
  std::string key_;
  std::string error_;
};

}  // namespace

StatusOr<json> ParseStrictObject(std::string_view text) {
  json root;
  TextNumberBuilder builder(root);
  const bool parsed = json::sax_parse(text, &builder, json::input_format_t::json, /*strict=*/true);
  if (!parsed || !builder.error().empty())
    return InvalidArgumentError("body: " + (builder.error().empty() ? std::string("a JSON object") : builder.error()));
  if (!root.is_object()) return InvalidArgumentError("body: a JSON object");
  return root;
}

const json* Fields::Find(const char* key) const {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string Fields::Path(const char* key) const { return path.empty() ? key : path + "." + key; }

StatusOr<std::string> Fields::Text(const char* key, bool required, std::size_t max) const {
  const json* value = Find(key);
  if (value == nullptr) {
    if (required) return InvalidArgumentError(Path(key) + ": required");
    return std::string();
  }
  if (!value->is_string()) return InvalidArgumentError(Path(key) + ": a string");
  const auto& text = value->get_ref<const std::string&>();
  if (text.size() > max) return InvalidArgumentError(Path(key) + ": at most " + std::to_string(max) + " characters");
  for (unsigned char c : text)
    if (c < 0x20) return InvalidArgumentError(Path(key) + ": no control characters");
  if (required && text.empty()) return InvalidArgumentError(Path(key) + ": not empty");
  return text;
}

StatusOr<Fields> Fields::Object(const char* key) const {
  const json* value = Find(key);
  if (value == nullptr) return InvalidArgumentError(Path(key) + ": required");
  if (!value->is_object()) return InvalidArgumentError(Path(key) + ": an object");
  return Fields{*value, Path(key)};
}

StatusOr<std::string> Fields::NumberText(const char* key) const {
  const json* value = Find(key);
  if (value == nullptr) return InvalidArgumentError(Path(key) + ": required");
  if (value->is_binary()) return std::string(value->get_binary().begin(), value->get_binary().end());
  if (value->is_number_integer()) return value->dump();
  return InvalidArgumentError(Path(key) + ": a number");
}

std::string Dump(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace balcao::integration::nexo::internal
