// Small shared helpers of balcao_formats: digit tests, separator stripping, error joining
// and the check digit algorithms (mod 10 "Luhn-like" and the mod 11 variants). Private to api/formats.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace balcao::formats::internal {

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsUpperAlnum(char c) { return IsDigit(c) || (c >= 'A' && c <= 'Z'); }
inline bool IsAlnum(char c) { return IsUpperAlnum(c) || (c >= 'a' && c <= 'z'); }
bool AllDigits(std::string_view s);

// "invalid <what>: e1; e2" for a Status message.
std::string JoinErrors(std::string_view what, const std::vector<std::string>& errors);

// `text` without any character of `separators`.
std::string StripChars(std::string_view text, std::string_view separators);
// `text` without leading/trailing ASCII whitespace.
std::string_view TrimAsciiSpace(std::string_view text);

// Digits (no sign) -> value; the caller guarantees <= 18 digits.
std::int64_t ParseDigits(std::string_view digits);
// value >= 0 left-padded with zeros to `width` digits.
std::string ZeroPad(std::int64_t value, int width);
// 12345 -> "123.45"
std::string FormatCents(std::int64_t cents);

// Weights 2,1,2,1... from the right, digits of each product added; (10 - S%10) % 10.
int Mod10(std::string_view digits);
// Weights 2..9 repeating from the right: the sum S.
int Mod11Sum(std::string_view digits);
// Boleto general DV: 11 - S%11, with 0, 10 and 11 written as 1.
int Mod11Boleto(std::string_view digits);
// Arrecadação: r = S%11; 0 when r < 2, else 11 - r.
int Mod11Utility(std::string_view digits);

inline char DigitChar(int d) { return static_cast<char>('0' + d); }

}  // namespace balcao::formats::internal
