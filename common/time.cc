#include "common/time.h"

#include <chrono>
#include <cstdio>

namespace balcao {

// Howard Hinnant's days_from_civil / civil_from_days.
std::int64_t DaysFromCivil(int y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void CivilFromDays(std::int64_t z, int& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<int>(static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2));
}

namespace {

std::int64_t FloorDiv(std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

bool ReadDigits(std::string_view s, size_t pos, size_t n, int& out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = 0; i < n; ++i) {
    char c = s[pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

Status Bad(std::string_view text, const char* rule) {
  return InvalidArgumentError("invalid timestamp '" + std::string(text.substr(0, 64)) + "': " + rule);
}

}  // namespace

std::string FormatTimestamp(UnixMicros t) {
  const std::int64_t days = FloorDiv(t, 86400 * kMicrosPerSecond);
  const std::int64_t rem = t - days * 86400 * kMicrosPerSecond;
  int y;
  unsigned m, d;
  CivilFromDays(days, y, m, d);
  const std::int64_t secs = rem / kMicrosPerSecond;
  const std::int64_t micros = rem % kMicrosPerSecond;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d.%06lld+00:00", y, m, d, static_cast<int>(secs / 3600),
                static_cast<int>(secs / 60 % 60), static_cast<int>(secs % 60), static_cast<long long>(micros));
  return buf;
}

std::string FormatDate(UnixMicros t) {
  int y;
  unsigned m, d;
  CivilFromDays(FloorDiv(t, 86400 * kMicrosPerSecond), y, m, d);
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", y, m, d);
  return buf;
}

StatusOr<UnixMicros> ParseTimestamp(std::string_view s) {
  int y, mo, d;
  if (!ReadDigits(s, 0, 4, y) || s.size() < 10 || s[4] != '-' || !ReadDigits(s, 5, 2, mo) || s[7] != '-' ||
      !ReadDigits(s, 8, 2, d))
    return Bad(s, "expected YYYY-MM-DD at the start");
  if (mo < 1 || mo > 12) return Bad(s, "month must be 01-12");
  static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d < 1 || d > kDays[mo - 1] || (mo == 2 && d == 29 && !leap)) return Bad(s, "day out of range for the month");
  std::int64_t micros =
      DaysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d)) * 86400 * kMicrosPerSecond;
  size_t pos = 10;
  if (pos == s.size()) return micros;
  if (s[pos] != 'T' && s[pos] != 't' && s[pos] != ' ') return Bad(s, "expected 'T' after the date");
  ++pos;
  int hh, mm, ss = 0;
  if (!ReadDigits(s, pos, 2, hh) || pos + 2 >= s.size() || s[pos + 2] != ':' || !ReadDigits(s, pos + 3, 2, mm))
    return Bad(s, "expected HH:MM after 'T'");
  pos += 5;
  if (pos < s.size() && s[pos] == ':') {
    if (!ReadDigits(s, pos + 1, 2, ss)) return Bad(s, "expected two-digit seconds");
    pos += 3;
  }
  if (hh > 23 || mm > 59 || ss > 60) return Bad(s, "time of day out of range");
  micros += (hh * 3600LL + mm * 60LL + ss) * kMicrosPerSecond;
  if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
    ++pos;
    size_t start = pos;
    std::int64_t frac = 0;
    int digits = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (digits < 6) {
        frac = frac * 10 + (s[pos] - '0');
        ++digits;
      }
      ++pos;
    }
    if (pos == start || pos - start > 9) return Bad(s, "fraction must have 1 to 9 digits");
    while (digits < 6) {
      frac *= 10;
      ++digits;
    }
    micros += frac;
  }
  if (pos == s.size()) return micros;
  if ((s[pos] == 'Z' || s[pos] == 'z') && pos + 1 == s.size()) return micros;
  if (s[pos] == '+' || s[pos] == '-') {
    const int sign = s[pos] == '+' ? 1 : -1;
    int oh, om;
    if (!ReadDigits(s, pos + 1, 2, oh)) return Bad(s, "offset must be ±HH:MM");
    size_t p = pos + 3;
    if (p < s.size() && s[p] == ':') ++p;
    if (!ReadDigits(s, p, 2, om) || p + 2 != s.size() || oh > 23 || om > 59) return Bad(s, "offset must be ±HH:MM");
    return micros - sign * (oh * 3600LL + om * 60LL) * kMicrosPerSecond;
  }
  return Bad(s, "unexpected characters after the time");
}

UnixMicros SystemClock::Now() const {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

const SystemClock& SystemClock::Instance() {
  // Never destroyed: a thread still running while the process exits (a sandbox's job ticker
  // owned by a static) may read the clock after static destruction began.
  static const SystemClock* const clock = new SystemClock();
  return *clock;
}

StatusOr<UnixMicros> BusinessDayStart(std::string_view day) {
  const auto bad = [&] {
    return InvalidArgumentError("day '" + std::string(day) + "': must be a calendar date YYYY-MM-DD");
  };
  if (day.size() != 10 || day[4] != '-' || day[7] != '-') return bad();
  StatusOr<UnixMicros> midnight = ParseTimestamp(day);
  if (!midnight.ok() || FormatDate(*midnight) != day) return bad();
  return FromSaoPauloWallClock(*midnight);
}

UnixMicros BusinessDayStartOf(UnixMicros t) {
  return FromSaoPauloWallClock(FloorDiv(SaoPauloWallClock(t), kMicrosPerDay) * kMicrosPerDay);
}

std::string BusinessDayOf(UnixMicros t) { return FormatDate(SaoPauloWallClock(t)); }

std::string PreviousBusinessDay(UnixMicros now) { return BusinessDayOf(now - kMicrosPerDay); }

int SaoPauloWeekday(UnixMicros t) {
  // 1970-01-01 was a Thursday (4).
  const std::int64_t days = FloorDiv(SaoPauloWallClock(t), kMicrosPerDay);
  return static_cast<int>(((days + 4) % 7 + 7) % 7);
}

}  // namespace balcao
