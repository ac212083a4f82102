// Time as the bank writes it: UTC microseconds since the Unix epoch, formatted as
// "YYYY-MM-DDTHH:MM:SS.ffffff+00:00". Parsing accepts what the SDKs send
// (docs/wire.md, "Timestamps"): date-only, 'Z' or any ±HH:MM offset, 0 to 9 fraction digits.
// Business time is America/Sao_Paulo (below): the one place that knows its offset.
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
constexpr UnixMicros kMicrosPerDay = 86'400 * kMicrosPerSecond;

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

// Brazil's business time is America/Sao_Paulo: UTC-3 all year since 2019 (no daylight
// saving). Business days, the store's day, receipts, TEF Dial's local times and the bank's
// date-only fields are all São Paulo time.
inline constexpr UnixMicros kSaoPauloOffsetMicros = -3LL * 3600 * kMicrosPerSecond;
// The São Paulo wall clock at instant `t`, written as if it were UTC (so FormatDate,
// FormatTimestamp and division by kMicrosPerDay read local fields), and back to the instant.
constexpr UnixMicros SaoPauloWallClock(UnixMicros t) { return t + kSaoPauloOffsetMicros; }
constexpr UnixMicros FromSaoPauloWallClock(UnixMicros wall) { return wall - kSaoPauloOffsetMicros; }
// The instant the day "YYYY-MM-DD" starts in São Paulo; kInvalidArgument naming the rule.
StatusOr<UnixMicros> BusinessDayStart(std::string_view day);
// The instant the São Paulo day holding `t` starts.
UnixMicros BusinessDayStartOf(UnixMicros t);
// "YYYY-MM-DD": the São Paulo day `t` falls in, and the day before it.
std::string BusinessDayOf(UnixMicros t);
std::string PreviousBusinessDay(UnixMicros now);
// The São Paulo weekday at `t`: 0 = Sunday ... 6 = Saturday.
int SaoPauloWeekday(UnixMicros t);

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
