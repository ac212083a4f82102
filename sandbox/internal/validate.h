// Input validation for families: a Reader walks one JSON object field by field and
// collects one Problem per broken rule, naming the field and the rule in en-US and pt-BR.
// Each getter returns nullopt when the field is absent or invalid (the problem is already
// recorded). RejectUnknown() then reports every key no getter asked for (invalidJson),
// as the bank does for unknown fields (docs/wire.md, "Error codes").
// Thread-safety: a Reader is a short-lived local of one handler.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sandbox/internal/engine.h"

namespace balcao::sandbox::internal {

enum class Need { kOptional, kRequired };

class Reader {
 public:
  // `label` prefixes messages, e.g. "invoices[2]"; empty for single bodies.
  Reader(const Json& object, Problems& problems, std::string label = {});

  bool is_object() const { return object_.is_object(); }
  bool Has(std::string_view key) const;
  // Integer in [min, max]; `code` names the problem (invalidAmount...).
  std::optional<std::int64_t> Int(std::string_view key, Need need, std::int64_t min, std::int64_t max,
                                  std::string_view code);
  // Number (integer or float) in [min, max].
  std::optional<double> Number(std::string_view key, Need need, double min, double max, std::string_view code);
  // String with length in [min_len, max_len] (UTF-8 code points).
  std::optional<std::string> String(std::string_view key, Need need, std::string_view code, std::size_t min_len = 0,
                                    std::size_t max_len = 10000);
  // One of `allowed`.
  std::optional<std::string> Enum(std::string_view key, Need need, const std::vector<std::string>& allowed,
                                  std::string_view code);
  std::optional<bool> Bool(std::string_view key, Need need, std::string_view code);
  // Date or timestamp (the forms of docs/wire.md, "Timestamps"); returned as UTC micros.
  std::optional<UnixMicros> Time(std::string_view key, Need need, std::string_view code);
  // CPF or CNPJ, formatted or not, check digits verified; returned formatted.
  std::optional<std::string> TaxId(std::string_view key, Need need);
  // `tags`: list of strings, lowercased; absent -> empty.
  std::vector<std::string> Tags();
  // A list of at most `max_items` objects (absent -> nullptr with no problem if optional).
  const Json* ObjectList(std::string_view key, Need need, std::size_t max_items, std::string_view code);
  // A list of strings.
  std::optional<std::vector<std::string>> StringList(std::string_view key, Need need, std::string_view code);
  // Raw access to a field the family validates itself (marks it as known).
  const Json* Raw(std::string_view key);

  // Where the problems of a list's bad entry are recorded: on the list's key (a boleto's, as
  // the bank words them) or on the entry's own fields (an invoice's, "discounts[].due").
  enum class EntryProblems { kOnTheList, kOnTheEntry };
  // The entries of the optional list `key` (at most `max_items` objects), each made by
  // `read_entry(entry, local)`: the normalised entry, with its problems (if any) in `local`.
  // The first bad entry ends the list: its problems are recorded `where` said and the result
  // is empty.
  template <typename ReadEntry>
  Json Entries(std::string_view key, std::size_t max_items, std::string_view code, EntryProblems where,
               ReadEntry read_entry) {
    Json entries = Json::array();
    const Json* list = ObjectList(key, Need::kOptional, max_items, code);
    if (list == nullptr) return entries;
    for (const auto& entry : *list) {
      Problems local;
      Json read = read_entry(entry, local);
      if (!local.empty()) {
        for (auto& p : local) {
          if (where == EntryProblems::kOnTheList)
            Fail(key, p.code, p.en, p.pt);
          else
            problems_.push_back(std::move(p));
        }
        return Json::array();
      }
      entries.push_back(std::move(read));
    }
    return entries;
  }

  // invalidJson for each key not read by any getter above.
  void RejectUnknown();
  // Records a problem on `key` ("<label>.key: <en>" / "<label>.key: <pt>").
  void Fail(std::string_view key, std::string_view code, std::string_view en, std::string_view pt);

 private:
  // The JSON types the getters ask for; validate.cc says how a problem names each.
  enum class Kind { kInteger, kNumber, kString, kBoolean, kObjectList, kStringList };

  const Json* Field(std::string_view key, Need need, std::string_view code);
  // Field() when it is of `kind`; one of another type is reported ("must be an integer.") and
  // read as absent.
  const Json* FieldOf(std::string_view key, Need need, std::string_view code, Kind kind);
  std::string Where(std::string_view key) const;

  const Json& object_;
  Problems& problems_;
  std::string label_;
  std::set<std::string, std::less<>> seen_;
};

// CPF (11 digits) / CNPJ (14 digits) with check digits; formats "337.451.076-08" and
// "91.642.017/0001-06". nullopt when invalid.
std::optional<std::string> NormalizeTaxId(std::string_view text);
// Digits only ("33745107608"): the form tax ids are indexed under for filters.
std::string TaxIdDigits(std::string_view text);

}  // namespace balcao::sandbox::internal
