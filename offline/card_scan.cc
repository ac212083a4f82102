// Card data scanner (see card_scan.h for the rules and docs/offline.md for why
// id-like fields and digits glued to letters are exempt).
#include "offline/card_scan.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <string>

#include "common/card_digits.h"

namespace balcao::offline {
namespace {

using nlohmann::json;

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// Field names that only ever hold card secrets: refused whatever their value.
bool IsCardSecretKey(std::string_view key) {
  const std::string k = Lower(key);
  for (const char* name : {"cvv", "cvc", "cvv2", "cvc2", "cid", "securitycode", "cardsecuritycode", "security_code",
                           "card_security_code", "cardnumber", "card_number", "pan", "track1", "track2", "trackdata",
                           "track_data", "pin", "pinblock", "pin_block"})
    if (k == name) return true;
  return false;
}

// Bank ids, our own ids, tax ids and phone numbers are long digit strings that may
// pass Luhn by chance ("+55 11 98765-4321" is 13 digits starting with 5).
bool IsIdLikeKey(std::string_view key) {
  const std::string k = Lower(key);
  if (k == "id" || k == "ids" || k == "uuid" || k == "cursor" || k == "tags") return true;
  if (k.find("phone") != std::string::npos || k.find("zipcode") != std::string::npos) return true;
  for (const char* suffix : {"id", "ids", "_id", "_ids", "uuid"})
    if (k.size() > std::string_view(suffix).size() && k.ends_with(suffix)) return true;
  return false;
}

// Text the bank generated: links (a 3-D Secure challengeUrl ends in a 16-digit bank id)
// and EMV BR Code payloads ("000201..." is the payload format indicator, followed by long
// digit fields). A card number is never typed into either by the cashier.
bool IsBankGeneratedText(std::string_view key, std::string_view text) {
  const std::string k = Lower(key);
  if (k.ends_with("url") || k == "link" || k == "brcode") return true;
  return text.starts_with("https://") || text.starts_with("http://") || text.starts_with("000201");
}

}  // namespace

bool ContainsCardNumber(std::string_view text) { return !FindCardNumbers(text).empty(); }

namespace {

// Returns the path of the first offending field, or "" when clean.
std::string FindInJson(const json& value, const std::string& path, const std::string& key) {
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      const std::string child = path.empty() ? it.key() : path + "." + it.key();
      if (IsCardSecretKey(it.key()) && !it.value().is_null() &&
          !(it.value().is_string() && it->get<std::string>().empty()))
        return child;
      std::string found = FindInJson(it.value(), child, it.key());
      if (!found.empty()) return found;
    }
    return "";
  }
  if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      std::string found = FindInJson(value[i], path + "[" + std::to_string(i) + "]", key);
      if (!found.empty()) return found;
    }
    return "";
  }
  if (IsIdLikeKey(key)) return "";
  std::string text;
  if (value.is_string()) {
    text = value.get<std::string>();
  } else if (value.is_number_integer() || value.is_number_unsigned()) {
    text = value.dump();
  } else {
    return "";
  }
  if (value.is_string() && IsBankGeneratedText(key, text)) return "";
  return ContainsCardNumber(text) ? (path.empty() ? "(document)" : path) : "";
}

}  // namespace

Status RejectCardData(std::string_view text, std::string_view what) {
  json doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return InvalidArgumentError(std::string(what) + ": must be valid JSON");
  const std::string field = FindInJson(doc, "", "");
  if (!field.empty())
    return InvalidArgumentError(std::string(what) + ": field '" + field +
                                "' holds card data (card number or security code); card data is never stored");
  return OkStatus();
}

}  // namespace balcao::offline
