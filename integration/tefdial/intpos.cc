#include "integration/tefdial/intpos.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace balcao::integration::tefdial {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

bool Digits(std::string_view text, std::size_t count) {
  return text.size() == count && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int Number(std::string_view digits) {
  int n = 0;
  for (char c : digits) n = n * 10 + (c - '0');
  return n;
}

// Receipt lines are quoted on the wire (the public field table: "entre aspas duplas").
bool QuotedField(int number) {
  return number == field::kReceiptLine || number == field::kCustomerLine || number == field::kMerchantLine;
}

std::string Printable(const std::string& value) {
  std::string out = value;
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) c = '?';
  return out;
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool AllLower(std::string_view text) {
  return std::none_of(text.begin(), text.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)); });
}

}  // namespace

std::string KeyText(FieldKey key) {
  char text[16];
  std::snprintf(text, sizeof text, "%03d-%03d", key.number, key.index);
  return text;
}

void IntPos::Set(FieldKey key, std::string value) { fields_[key] = std::move(value); }

std::string IntPos::Get(FieldKey key) const {
  auto it = fields_.find(key);
  return it == fields_.end() ? "" : it->second;
}

std::vector<std::string> IntPos::Lines(int number) const {
  std::vector<std::string> lines;
  for (auto it = fields_.lower_bound(FieldKey{number, 1}); it != fields_.end() && it->first.number == number; ++it)
    lines.push_back(it->second);
  return lines;
}

void IntPos::SetLines(FieldKey count_key, int number, const std::vector<std::string>& lines) {
  Set(count_key, std::to_string(lines.size()));
  for (std::size_t i = 0; i < lines.size(); ++i) Set(FieldKey{number, static_cast<int>(i + 1)}, lines[i]);
}

StatusOr<IntPos> Parse(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  IntPos file;
  int line_number = 0;
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++line_number;
    line = Trim(line);
    if (line.empty()) continue;
    const std::string where = "line " + std::to_string(line_number);
    const auto equals = line.find('=');
    if (equals == std::string_view::npos) return InvalidArgumentError(where + ": not 'NNN-NNN = value' (no '=')");
    const std::string_view key = Trim(line.substr(0, equals));
    if (key.size() != 7 || key[3] != '-' || !Digits(key.substr(0, 3), 3) || !Digits(key.substr(4), 3))
      return InvalidArgumentError(where + ": the field '" + std::string(key.substr(0, 16)) +
                                  "' is not NNN-NNN (three digits, '-', three digits)");
    std::string_view value = Trim(line.substr(equals + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    const FieldKey field{Number(key.substr(0, 3)), Number(key.substr(4))};
    if (file.Has(field)) return InvalidArgumentError(where + ": the field " + KeyText(field) + " appears twice");
    file.Set(field, std::string(value));
  }
  return file;
}

std::string Write(const IntPos& file) {
  std::string out;
  for (const auto& [key, value] : file.fields()) {
    if (key == field::kTrailer) continue;
    out += KeyText(key) + " = ";
    out += QuotedField(key.number) ? "\"" + Printable(value) + "\"" : Printable(value);
    out += "\r\n";
  }
  const std::string trailer = file.Get(field::kTrailer);
  out += KeyText(field::kTrailer) + " = " + (trailer.empty() ? "0" : Printable(trailer)) + "\r\n";
  return out;
}

bool IsRequestName(std::string_view name) { return Lower(name) == "intpos.001"; }

std::string StatusNameFor(std::string_view request_name) {
  return AllLower(request_name) ? "intpos.sts" : "IntPos.Sts";
}

std::string ResponseNameFor(std::string_view request_name) {
  return AllLower(request_name) ? "intpos.001" : "IntPos.001";
}

}  // namespace balcao::integration::tefdial
