#include "checkout/sale_id.h"

#include <atomic>
#include <cstdio>
#include <ctime>

namespace balcao::checkout {

std::string MintSaleId(char prefix, UnixMicros now) {
  static std::atomic<unsigned> counter{0};
  std::time_t seconds = static_cast<std::time_t>(now / kMicrosPerSecond);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char id[48];
  std::snprintf(id, sizeof id, "%c%04d%02d%02dt%02d%02d%02d-%x", prefix, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, (static_cast<unsigned>(now % 1000000) << 4) + (counter++ & 0xf));
  std::string text = id;
  // Letters between the digit groups: a run of 13+ digits (dashes allowed) that passes Luhn
  // looks like a card number to the scanners, and the log would mask part of the id.
  for (std::size_t i = 1; i < text.size(); ++i)
    if (text[i] >= 'a' && text[i] <= 'f') text[i] = static_cast<char>('g' + (text[i] - 'a'));
  return text;
}

}  // namespace balcao::checkout
