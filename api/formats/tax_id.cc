#include "api/formats/tax_id.h"

#include <algorithm>

#include "api/formats/internal/digits.h"

namespace balcao::formats {
namespace {

using internal::IsDigit;
using internal::IsUpperAlnum;

constexpr std::string_view kTaxIdSeparators = " .-/";

// RFB value of a CNPJ character: ASCII code - 48 (digits keep their value, 'A' = 17).
int CharValue(char c) { return c - '0'; }

// r = S mod 11 over `body` with weights counting down and wrapping 9 -> 2 as both CPF
// (10..2 / 11..2) and CNPJ (5..2,9..2 / 6..2,9..2) use them: 0 when r < 2, else 11 - r.
char WeightedDv(std::string_view body, int first_weight, int wrap_to) {
  int sum = 0;
  int weight = first_weight;
  for (char c : body) {
    sum += CharValue(c) * weight;
    weight = weight == 2 ? wrap_to : weight - 1;
  }
  int r = sum % 11;
  return internal::DigitChar(r < 2 ? 0 : 11 - r);
}

std::string CpfDvs(std::string_view body9) {
  std::string s(body9);
  s.push_back(WeightedDv(s, 10, 10));
  s.push_back(WeightedDv(s, 11, 11));
  return s.substr(9);
}

std::string CnpjDvs(std::string_view body12) {
  std::string s(body12);
  s.push_back(WeightedDv(s, 5, 9));
  s.push_back(WeightedDv(s, 6, 9));
  return s.substr(12);
}

std::string Normalize(std::string_view text) {
  std::string s = internal::StripChars(text, kTaxIdSeparators);
  std::transform(s.begin(), s.end(), s.begin(), [](char c) { return (c >= 'a' && c <= 'z') ? c - 32 : c; });
  return s;
}

bool AllSame(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [&](char c) { return c == s.front(); });
}

void CheckDigitsAndRepeats(TaxIdReport& r, std::size_t body_len) {
  std::string declared = r.normalized.substr(body_len);
  r.checksum_ok = declared == r.expected_dv;
  if (!r.checksum_ok) r.errors.push_back("check digits are " + declared + ", expected " + r.expected_dv);
  if (AllSame(r.normalized)) r.errors.push_back("all digits equal (rejected by convention)");
}

}  // namespace

TaxIdReport InspectCpf(std::string_view text) {
  TaxIdReport r;
  r.kind = TaxIdKind::kCpf;
  r.normalized = internal::StripChars(text, kTaxIdSeparators);
  if (r.normalized.size() != 11 || !internal::AllDigits(r.normalized)) {
    r.errors.push_back("bad shape for CPF: need 11 digits (separators . - / and spaces allowed)");
    r.normalized.clear();
    return r;
  }
  r.shape_ok = true;
  r.expected_dv = CpfDvs(std::string_view(r.normalized).substr(0, 9));
  r.fiscal_region_digit = r.normalized.substr(8, 1);
  CheckDigitsAndRepeats(r, 9);
  return r;
}

TaxIdReport InspectCnpj(std::string_view text, CnpjAlphabet alphabet) {
  TaxIdReport r;
  r.kind = TaxIdKind::kCnpj;
  r.normalized = Normalize(text);
  bool numeric = alphabet == CnpjAlphabet::kNumericOnly;
  bool shape = r.normalized.size() == 14 && IsDigit(r.normalized[12]) && IsDigit(r.normalized[13]);
  for (std::size_t i = 0; shape && i < 12; ++i) {
    shape = numeric ? IsDigit(r.normalized[i]) : IsUpperAlnum(r.normalized[i]);
  }
  if (!shape) {
    r.errors.push_back(numeric ? "bad shape for numeric CNPJ: need 14 digits"
                               : "bad shape for alphanumeric CNPJ: need 12 of [0-9A-Z] and 2 digits");
    r.normalized.clear();
    return r;
  }
  r.shape_ok = true;
  r.expected_dv = CnpjDvs(std::string_view(r.normalized).substr(0, 12));
  r.root = r.normalized.substr(0, 8);
  r.branch = r.normalized.substr(8, 4);
  CheckDigitsAndRepeats(r, 12);
  return r;
}

bool IsValidCpf(std::string_view text) { return InspectCpf(text).valid(); }
bool IsValidCnpj(std::string_view text, CnpjAlphabet alphabet) { return InspectCnpj(text, alphabet).valid(); }

StatusOr<std::string> CpfCheckDigits(std::string_view body9) {
  if (body9.size() != 9 || !internal::AllDigits(body9)) return InvalidArgumentError("CPF body must be 9 digits");
  return CpfDvs(body9);
}

StatusOr<std::string> CnpjCheckDigits(std::string_view body12) {
  std::string body = Normalize(body12);
  if (body.size() != 12 || !std::all_of(body.begin(), body.end(), IsUpperAlnum)) {
    return InvalidArgumentError("CNPJ body must be 12 characters of [0-9A-Z]");
  }
  return CnpjDvs(body);
}

namespace {

// Applies a mask where 'x' takes the next character: "xxx.xxx.xxx-xx".
std::string Mask(std::string_view normalized, std::string_view mask) {
  std::string out;
  std::size_t i = 0;
  for (char m : mask) out.push_back(m == 'x' ? normalized[i++] : m);
  return out;
}

constexpr std::string_view kCpfMask = "xxx.xxx.xxx-xx";
constexpr std::string_view kCnpjMask = "xx.xxx.xxx/xxxx-xx";

}  // namespace

StatusOr<std::string> FormatCpf(std::string_view text) {
  TaxIdReport r = InspectCpf(text);
  if (!r.valid()) return InvalidArgumentError(internal::JoinErrors("CPF", r.errors));
  return Mask(r.normalized, kCpfMask);
}

StatusOr<std::string> FormatCnpj(std::string_view text) {
  TaxIdReport r = InspectCnpj(text);
  if (!r.valid()) return InvalidArgumentError(internal::JoinErrors("CNPJ", r.errors));
  return Mask(r.normalized, kCnpjMask);
}

StatusOr<TaxId> TaxId::Parse(std::string_view text) {
  std::string stripped = internal::StripChars(text, kTaxIdSeparators);
  if (stripped.size() == 11) {
    TaxIdReport r = InspectCpf(text);
    if (!r.valid()) return InvalidArgumentError(internal::JoinErrors("CPF", r.errors));
    return TaxId(TaxIdKind::kCpf, r.normalized);
  }
  if (stripped.size() == 14) {
    TaxIdReport r = InspectCnpj(text);
    if (!r.valid()) return InvalidArgumentError(internal::JoinErrors("CNPJ", r.errors));
    return TaxId(TaxIdKind::kCnpj, r.normalized);
  }
  return InvalidArgumentError("tax id must be a CPF (11 digits) or a CNPJ (14 characters), got " +
                              std::to_string(stripped.size()) + " characters");
}

std::string TaxId::formatted() const { return Mask(normalized_, kind_ == TaxIdKind::kCpf ? kCpfMask : kCnpjMask); }

}  // namespace balcao::formats
