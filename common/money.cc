#include "common/money.h"

#include <cstdio>

namespace balcao {

std::string FormatHundredths(std::int64_t hundredths, bool pt_br, bool group) {
  const bool negative = hundredths < 0;
  // The magnitude as unsigned, so INT64_MIN does not overflow.
  const std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(hundredths) : hundredths;
  const std::string digits = std::to_string(magnitude / 100);
  std::string whole;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (group && i > 0 && (digits.size() - i) % 3 == 0) whole += pt_br ? '.' : ',';
    whole += digits[i];
  }
  char cents[4];
  std::snprintf(cents, sizeof cents, "%02u", static_cast<unsigned>(magnitude % 100));
  return std::string(negative ? "-" : "") + whole + (pt_br ? ',' : '.') + cents;
}

std::string FormatBrl(std::int64_t cents, bool pt_br) {
  const std::string number = FormatHundredths(cents, pt_br, true);
  return number[0] == '-' ? "-R$ " + number.substr(1) : "R$ " + number;
}

}  // namespace balcao
