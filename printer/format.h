// Value formatting for receipts: money in R$, card numbers masked to at most the first 6
// and last 4 digits, date/time in America/Sao_Paulo (fixed UTC-3: Brazil has had no
// daylight saving time since 2019, so no tz database is consulted), CNPJ, percentages.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/time.h"

namespace balcao::printer {

enum class Language { kPtBr, kEnUs };

// pt-BR: "R$ 1.234,56", "-R$ 0,05"; en-US: "R$ 1,234.56".
std::string FormatBrl(std::int64_t cents, Language lang = Language::kPtBr);
// Basis points as a percentage: 250 -> "2,50%" (pt-BR) / "2.50%" (en-US).
std::string FormatPercent(std::int64_t basis_points, Language lang = Language::kPtBr);

// Brasília time (UTC-3).
constexpr std::int64_t kBrasiliaOffsetSeconds = -3 * 3600;
// pt-BR "21/11/2026 12:27:35", en-US "11/21/2026 12:27:35".
std::string FormatLocalDateTime(UnixMicros t, Language lang = Language::kPtBr);
// pt-BR "21/11/2026", en-US "11/21/2026" (the Brasília calendar day).
std::string FormatLocalDate(UnixMicros t, Language lang = Language::kPtBr);
// "HH:MM" in Brasília time.
std::string FormatLocalTime(UnixMicros t);

// A card number that is safe to print: at most the first 6 and the last 4 digits, every
// other position a '*'. The only way to build one is MaskPan, which accepts anything (a
// full PAN passed by mistake, "4111 11** **** 1111", "************1234") and never keeps
// more than 6+4 digits.
class MaskedPan {
 public:
  MaskedPan() = default;
  const std::string& str() const { return text_; }
  bool empty() const { return text_.empty(); }

 private:
  friend MaskedPan MaskPan(std::string_view any);
  std::string text_;
};
MaskedPan MaskPan(std::string_view any);

// The card network of a card number's first digits (the BIN: 6 are enough, a 6+4 mask will
// do), as printed: "VISA", "MASTERCARD", "ELO", "HIPERCARD", "AMEX", "DINERS", "DISCOVER";
// "" when the digits name none. The ranges are those the bank sandbox assigns (docs/printer.md).
std::string CardNetworkOfBin(std::string_view digits);

// "12.345.678/0001-95" for 14 alphanumerics (the alphanumeric CNPJ keeps its letters);
// anything else is returned unchanged.
std::string FormatCnpj(std::string_view cnpj);

// Digits of the longest run of digits in `text` (separators ' ', '-', '.' ignored inside a
// run). Used by the never-print checks.
int LongestDigitRun(std::string_view text);

}  // namespace balcao::printer
