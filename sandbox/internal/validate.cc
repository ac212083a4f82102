#include "sandbox/internal/validate.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "api/formats/tax_id.h"

namespace balcao::sandbox::internal {
namespace {

std::size_t Utf8Length(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

bool IsObject(const Json& v) { return v.is_object(); }
bool IsString(const Json& v) { return v.is_string(); }

}  // namespace

std::optional<std::string> NormalizeTaxId(std::string_view text) {
  auto id = formats::TaxId::Parse(text);
  if (!id.ok()) return std::nullopt;
  return id->formatted();
}

std::string TaxIdDigits(std::string_view text) {
  std::string out;
  for (char c : text)
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

Reader::Reader(const Json& object, Problems& problems, std::string label)
    : object_(object), problems_(problems), label_(std::move(label)) {
  if (!object_.is_object()) {
    problems_.push_back(MakeProblem(std::string(kInvalidJson),
                                    (label_.empty() ? std::string("body") : label_) + " must be a JSON object.",
                                    (label_.empty() ? std::string("corpo") : label_) + " deve ser um objeto JSON."));
  }
}

std::string Reader::Where(std::string_view key) const {
  return label_.empty() ? std::string(key) : label_ + "." + std::string(key);
}

void Reader::Fail(std::string_view key, std::string_view code, std::string_view en, std::string_view pt) {
  problems_.push_back(MakeProblem(std::string(code), "Field '" + Where(key) + "' " + std::string(en),
                                  "Campo '" + Where(key) + "' " + std::string(pt)));
}

bool Reader::Has(std::string_view key) const {
  if (!object_.is_object()) return false;
  auto it = object_.find(key);
  return it != object_.end() && !it->is_null();
}

const Json* Reader::Field(std::string_view key, Need need, std::string_view /*code*/) {
  seen_.emplace(key);
  if (!object_.is_object()) return nullptr;
  auto it = object_.find(key);
  if (it == object_.end() || it->is_null()) {
    if (need == Need::kRequired) Fail(key, kInvalidJson, "is required.", "é obrigatório.");
    return nullptr;
  }
  return &*it;
}

const Json* Reader::FieldOf(std::string_view key, Need need, std::string_view code, Kind kind) {
  struct Rule {
    bool (*matches)(const Json&);
    std::string_view en;
    std::string_view pt;
  };
  // In the order of Kind.
  static const Rule kRules[] = {
      {[](const Json& v) { return v.is_number_integer(); }, "must be an integer.", "deve ser um número inteiro."},
      {[](const Json& v) { return v.is_number(); }, "must be a number.", "deve ser um número."},
      {[](const Json& v) { return v.is_string(); }, "must be a string.", "deve ser um texto."},
      {[](const Json& v) { return v.is_boolean(); }, "must be true or false.", "deve ser true ou false."},
      {[](const Json& v) { return v.is_array() && std::all_of(v.begin(), v.end(), IsObject); },
       "must be a list of objects.", "deve ser uma lista de objetos."},
      {[](const Json& v) { return v.is_array() && std::all_of(v.begin(), v.end(), IsString); },
       "must be a list of strings.", "deve ser uma lista de textos."},
  };
  const Json* v = Field(key, need, code);
  const Rule& rule = kRules[static_cast<std::size_t>(kind)];
  if (v == nullptr || rule.matches(*v)) return v;
  Fail(key, code, rule.en, rule.pt);
  return nullptr;
}

const Json* Reader::Raw(std::string_view key) { return Field(key, Need::kOptional, kInvalidJson); }

std::optional<std::int64_t> Reader::Int(std::string_view key, Need need, std::int64_t min, std::int64_t max,
                                        std::string_view code) {
  const Json* v = FieldOf(key, need, code, Kind::kInteger);
  if (!v) return std::nullopt;
  if (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(max)) {
    Fail(key, code, "must be at most " + std::to_string(max) + ".", "deve ser no máximo " + std::to_string(max) + ".");
    return std::nullopt;
  }
  const std::int64_t n = v->get<std::int64_t>();
  if (n < min || n > max) {
    Fail(key, code, "must be between " + std::to_string(min) + " and " + std::to_string(max) + ".",
         "deve estar entre " + std::to_string(min) + " e " + std::to_string(max) + ".");
    return std::nullopt;
  }
  return n;
}

std::optional<double> Reader::Number(std::string_view key, Need need, double min, double max, std::string_view code) {
  const Json* v = FieldOf(key, need, code, Kind::kNumber);
  if (!v) return std::nullopt;
  const double d = v->get<double>();
  if (!std::isfinite(d) || d < min || d > max) {
    auto fmt = [](double x) {
      std::string s = std::to_string(x);
      s.erase(s.find_last_not_of('0') + 1);
      if (!s.empty() && s.back() == '.') s.pop_back();
      return s;
    };
    Fail(key, code, "must be between " + fmt(min) + " and " + fmt(max) + ".",
         "deve estar entre " + fmt(min) + " e " + fmt(max) + ".");
    return std::nullopt;
  }
  return d;
}

std::optional<std::string> Reader::String(std::string_view key, Need need, std::string_view code, std::size_t min_len,
                                          std::size_t max_len) {
  const Json* v = FieldOf(key, need, code, Kind::kString);
  if (!v) return std::nullopt;
  std::string s = v->get<std::string>();
  const std::size_t len = Utf8Length(s);
  if (len < min_len || len > max_len) {
    Fail(key, code, "must have between " + std::to_string(min_len) + " and " + std::to_string(max_len) + " characters.",
         "deve ter entre " + std::to_string(min_len) + " e " + std::to_string(max_len) + " caracteres.");
    return std::nullopt;
  }
  return s;
}

std::optional<std::string> Reader::Enum(std::string_view key, Need need, const std::vector<std::string>& allowed,
                                        std::string_view code) {
  auto s = String(key, need, code);
  if (!s) return std::nullopt;
  if (std::find(allowed.begin(), allowed.end(), *s) == allowed.end()) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    Fail(key, code, "must be one of: " + list + ".", "deve ser um de: " + list + ".");
    return std::nullopt;
  }
  return s;
}

std::optional<bool> Reader::Bool(std::string_view key, Need need, std::string_view code) {
  const Json* v = FieldOf(key, need, code, Kind::kBoolean);
  if (!v) return std::nullopt;
  return v->get<bool>();
}

std::optional<UnixMicros> Reader::Time(std::string_view key, Need need, std::string_view code) {
  const Json* v = Field(key, need, code);
  if (!v) return std::nullopt;
  if (v->is_string()) {
    auto t = ParseTimestamp(v->get<std::string>());
    if (t.ok()) return *t;
  }
  Fail(key, code, "must be a date (YYYY-MM-DD) or an ISO 8601 timestamp.",
       "deve ser uma data (AAAA-MM-DD) ou um horário ISO 8601.");
  return std::nullopt;
}

std::optional<std::string> Reader::TaxId(std::string_view key, Need need) {
  const Json* v = Field(key, need, "invalidTaxId");
  if (!v) return std::nullopt;
  if (v->is_string()) {
    if (auto formatted = NormalizeTaxId(v->get<std::string>())) return formatted;
  }
  Fail(key, "invalidTaxId", "must be a valid CPF (11 digits) or CNPJ (14 digits) with correct check digits.",
       "deve ser um CPF (11 dígitos) ou CNPJ (14 dígitos) válido, com dígitos verificadores corretos.");
  return std::nullopt;
}

std::vector<std::string> Reader::Tags() {
  std::vector<std::string> out;
  const Json* v = Field("tags", Need::kOptional, "invalidTags");
  if (!v) return out;
  if (!v->is_array()) {
    Fail("tags", "invalidTags", "must be a list of strings.", "deve ser uma lista de textos.");
    return out;
  }
  for (const auto& t : *v) {
    if (!t.is_string() || t.get<std::string>().empty() || t.get<std::string>().size() > 256) {
      Fail("tags", "invalidTags", "must hold non-empty strings of up to 256 characters.",
           "deve conter textos não vazios de até 256 caracteres.");
      return {};
    }
    std::string s = t.get<std::string>();
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    out.push_back(std::move(s));
  }
  return out;
}

const Json* Reader::ObjectList(std::string_view key, Need need, std::size_t max_items, std::string_view code) {
  const Json* v = FieldOf(key, need, code, Kind::kObjectList);
  if (v && v->size() > max_items) {
    Fail(key, code, "accepts at most " + std::to_string(max_items) + " items.",
         "aceita no máximo " + std::to_string(max_items) + " itens.");
    return nullptr;
  }
  return v;
}

std::optional<std::vector<std::string>> Reader::StringList(std::string_view key, Need need, std::string_view code) {
  const Json* v = FieldOf(key, need, code, Kind::kStringList);
  if (!v) return std::nullopt;
  std::vector<std::string> out;
  for (const auto& s : *v) out.push_back(s.get<std::string>());
  return out;
}

void Reader::RejectUnknown() {
  if (!object_.is_object()) return;
  for (auto it = object_.begin(); it != object_.end(); ++it) {
    if (seen_.count(it.key())) continue;
    Fail(it.key(), kInvalidJson, "is not a known field.", "não é um campo conhecido.");
  }
}

}  // namespace balcao::sandbox::internal
