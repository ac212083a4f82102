#include "api/query.h"

namespace balcao::api {

Query& Query::Add(std::string key, std::string value) {
  params_.emplace_back(std::move(key), std::move(value));
  return *this;
}

Query& Query::Add(std::string key, const std::vector<std::string>& values) {
  std::string joined;
  for (const auto& v : values) {
    if (!joined.empty()) joined += ',';
    joined += v;
  }
  return Add(std::move(key), std::move(joined));
}

Query& Query::Add(std::string key, std::int64_t value) { return Add(std::move(key), std::to_string(value)); }

Query& Query::Add(std::string key, bool value) { return Add(std::move(key), std::string(value ? "true" : "false")); }

Query& Query::Set(std::string key, std::string value) {
  std::erase_if(params_, [&](const auto& p) { return p.first == key; });
  return Add(std::move(key), std::move(value));
}

const std::string* Query::Find(std::string_view key) const {
  for (const auto& [k, v] : params_)
    if (k == key) return &v;
  return nullptr;
}

std::string PercentEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                            c == '.' || c == '_' || c == '~';
    if (unreserved) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string Query::Encode() const {
  std::string out;
  for (const auto& [k, v] : params_) {
    if (!out.empty()) out += '&';
    out += PercentEncode(k);
    out += '=';
    out += PercentEncode(v);
  }
  return out;
}

}  // namespace balcao::api
