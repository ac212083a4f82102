#include "api/formats/internal/digits.h"

namespace balcao::formats::internal {

bool AllDigits(std::string_view s) {
  for (char c : s) {
    if (!IsDigit(c)) return false;
  }
  return true;
}

std::string JoinErrors(std::string_view what, const std::vector<std::string>& errors) {
  std::string out = "invalid " + std::string(what) + ": ";
  for (std::size_t i = 0; i < errors.size(); ++i) out += (i ? "; " : "") + errors[i];
  return out;
}

std::string StripChars(std::string_view text, std::string_view separators) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (separators.find(c) == std::string_view::npos) out.push_back(c);
  }
  return out;
}

std::string_view TrimAsciiSpace(std::string_view text) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return text;
}

std::int64_t ParseDigits(std::string_view digits) {
  std::int64_t v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  return v;
}

std::string ZeroPad(std::int64_t value, int width) {
  std::string s = std::to_string(value);
  if (static_cast<int>(s.size()) < width) s.insert(0, static_cast<std::size_t>(width) - s.size(), '0');
  return s;
}

std::string FormatCents(std::int64_t cents) {
  std::string s = ZeroPad(cents, 3);
  s.insert(s.size() - 2, 1, '.');
  return s;
}

int Mod10(std::string_view digits) {
  int sum = 0;
  int weight = 2;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    int product = (*it - '0') * weight;
    sum += product / 10 + product % 10;
    weight = weight == 2 ? 1 : 2;
  }
  return (10 - sum % 10) % 10;
}

int Mod11Sum(std::string_view digits) {
  int sum = 0;
  int weight = 2;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    sum += (*it - '0') * weight;
    weight = weight == 9 ? 2 : weight + 1;
  }
  return sum;
}

int Mod11Boleto(std::string_view digits) {
  int dv = 11 - Mod11Sum(digits) % 11;
  return (dv == 0 || dv == 10 || dv == 11) ? 1 : dv;
}

int Mod11Utility(std::string_view digits) {
  int r = Mod11Sum(digits) % 11;
  return r < 2 ? 0 : 11 - r;
}

}  // namespace balcao::formats::internal
