// Time as the bank writes it: UTC microseconds since the Unix epoch, formatted as
// "YYYY-MM-DDTHH:MM:SS.ffffff+00:00". Parsing accepts what the SDKs send
// (docs/wire.md, "Timestamps"): date-only, 'Z' or any ±HH:MM offset, 0 to 9 fraction digits.
// Clock is the only source of "now"; pure code receives time inside its inputs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace balcao {

// Microseconds since 1970-01-01T00:00:00Z.
using UnixMicros = std::int64_t;
constexpr UnixMicros kMicrosPerSecond = 1'000'000;

// "2024-05-10T15:00:00.000000+00:00"
std::string FormatTimestamp(UnixMicros t);
// "2024-05-10" (UTC date)
std::string FormatDate(UnixMicros t);
// Accepts "YYYY-MM-DD", "YYYY-MM-DDTHH:MM[:SS[.f{1,9}]]" followed by nothing, 'Z' or ±HH:MM / ±HHMM.
// A missing offset means UTC. Errors are kInvalidArgument naming the rule broken.
StatusOr<UnixMicros> ParseTimestamp(std::string_view text);

// Days since the epoch for a civil date, and back (proleptic Gregorian).
std::int64_t DaysFromCivil(int year, unsigned month, unsigned day);
void CivilFromDays(std::int64_t days, int& year, unsigned& month, unsigned& day);

// The source of "now". Thread-safe implementations.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual UnixMicros Now() const = 0;
};

class SystemClock final : public Clock {
 public:
  UnixMicros Now() const override;
  static const SystemClock& Instance();
};

}  // namespace balcao
