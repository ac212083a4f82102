// CPF and CNPJ (numeric and the alphanumeric CNPJ of IN RFB 2.229/2024): check digits,
// normalisation (separators stripped, letters uppercased), masks, and TaxId, which
// detects which of the two a text is. Pure functions and value types; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace balcao::formats {

enum class TaxIdKind { kCpf, kCnpj };

// Which characters a CNPJ root/branch may hold. Alphanumeric (0-9A-Z) is the rule from
// July 2026 on and accepts every numeric CNPJ unchanged.
enum class CnpjAlphabet { kAlphanumeric, kNumericOnly };

// Everything learnt from a CPF or CNPJ text, valid or not. `errors` is empty iff valid.
// When the shape is wrong (length, characters) only `errors` is meaningful.
struct TaxIdReport {
  TaxIdKind kind = TaxIdKind::kCpf;
  bool shape_ok = false;            // right length and alphabet once separators are stripped
  std::string normalized;           // "52998224725", "12ABC34501DE35"
  std::string expected_dv;          // the two check digits the body calls for
  bool checksum_ok = false;         // declared DVs == expected_dv
  std::string root;                 // CNPJ only: first 8 characters
  std::string branch;               // CNPJ only: characters 9-12 ("ordem")
  std::string fiscal_region_digit;  // CPF only: 9th digit
  std::vector<std::string> errors;
  bool valid() const { return errors.empty(); }
};

// Separators accepted (and dropped) in tax ids: space . - /
TaxIdReport InspectCpf(std::string_view text);
TaxIdReport InspectCnpj(std::string_view text, CnpjAlphabet alphabet = CnpjAlphabet::kAlphanumeric);

bool IsValidCpf(std::string_view text);
bool IsValidCnpj(std::string_view text, CnpjAlphabet alphabet = CnpjAlphabet::kAlphanumeric);

// Check digits for a 9-digit CPF body / a 12-character CNPJ body ("12ABC34501DE" -> "35").
// kInvalidArgument when the body has the wrong length or alphabet.
StatusOr<std::string> CpfCheckDigits(std::string_view body9);
StatusOr<std::string> CnpjCheckDigits(std::string_view body12);

// "33745107608" -> "337.451.076-08"; "91642017000106" -> "91.642.017/0001-06".
// Input may be formatted already; it must be valid.
StatusOr<std::string> FormatCpf(std::string_view text);
StatusOr<std::string> FormatCnpj(std::string_view text);

// A valid CPF or CNPJ, normalised. Detection: 11 characters after stripping separators
// is a CPF, 14 is a CNPJ.
class TaxId {
 public:
  static StatusOr<TaxId> Parse(std::string_view text);

  TaxIdKind kind() const { return kind_; }
  const std::string& normalized() const { return normalized_; }
  std::string formatted() const;  // with the official mask

 private:
  TaxId(TaxIdKind kind, std::string normalized) : kind_(kind), normalized_(std::move(normalized)) {}
  TaxIdKind kind_;
  std::string normalized_;
};

}  // namespace balcao::formats
