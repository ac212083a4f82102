#include "sandbox/internal/url.h"

#include <cctype>

#include "common/hex.h"

namespace balcao::sandbox::internal {
std::string PercentDecode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%' && i + 2 < text.size() && HexValue(text[i + 1]) >= 0 && HexValue(text[i + 2]) >= 0) {
      out += static_cast<char>(HexValue(text[i + 1]) * 16 + HexValue(text[i + 2]));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string NormalizePath(std::string_view path) {
  std::string out;
  for (char c : path) {
    if (c == '/' && !out.empty() && out.back() == '/') continue;
    out += c;
  }
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out.empty() ? std::string(1, '/') : out;
}

std::vector<std::string> PathSegments(std::string_view normalized_path) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < normalized_path.size()) {
    if (normalized_path[i] == '/') {
      ++i;
      continue;
    }
    std::size_t end = normalized_path.find('/', i);
    if (end == std::string_view::npos) end = normalized_path.size();
    out.push_back(PercentDecode(normalized_path.substr(i, end - i), false));
    i = end;
  }
  return out;
}

Query ParseQuery(std::string_view query) {
  Query out;
  std::size_t i = 0;
  while (i <= query.size()) {
    std::size_t amp = query.find('&', i);
    if (amp == std::string_view::npos) amp = query.size();
    std::string_view pair = query.substr(i, amp - i);
    i = amp + 1;
    if (pair.empty()) continue;
    std::size_t eq = pair.find('=');
    std::string key = PercentDecode(pair.substr(0, eq), true);
    std::string value = eq == std::string_view::npos ? std::string() : PercentDecode(pair.substr(eq + 1), true);
    if (key.empty() || value.empty()) continue;
    auto [it, inserted] = out.emplace(key, value);
    if (!inserted) it->second += "," + value;
  }
  return out;
}

std::optional<bool> ParseBool(std::string_view text) {
  std::string lower;
  for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "true") return true;
  if (lower == "false") return false;
  return std::nullopt;
}

}  // namespace balcao::sandbox::internal
