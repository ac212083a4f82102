// Pix EndToEndId: docs/formats.md, "Pix end-to-end id".
#include "api/formats/end_to_end_id.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "api/formats/internal/digits.h"

namespace balcao::formats {
namespace {

using internal::AllDigits;
using internal::IsAlnum;

constexpr std::string_view kShapeRule = "does not match E + 8-digit ISPB + yyyyMMddHHmm + 11 alnum (32 chars)";
constexpr std::int64_t kMicrosPerMinute = 60 * kMicrosPerSecond;

Status ShapeError(const std::string& what) { return InvalidArgumentError(what + ": " + std::string(kShapeRule)); }

bool AllAlnum(std::string_view s) { return std::all_of(s.begin(), s.end(), IsAlnum); }

// "202201201450" -> micros, when it is a real UTC minute.
std::optional<UnixMicros> ParseMinute(std::string_view t) {
  int year = static_cast<int>(internal::ParseDigits(t.substr(0, 4)));
  unsigned month = static_cast<unsigned>(internal::ParseDigits(t.substr(4, 2)));
  unsigned day = static_cast<unsigned>(internal::ParseDigits(t.substr(6, 2)));
  int hour = static_cast<int>(internal::ParseDigits(t.substr(8, 2)));
  int minute = static_cast<int>(internal::ParseDigits(t.substr(10, 2)));
  std::chrono::year_month_day date{std::chrono::year{year}, std::chrono::month{month}, std::chrono::day{day}};
  if (!date.ok() || hour > 23 || minute > 59) return std::nullopt;
  return (DaysFromCivil(year, month, day) * 1440 + hour * 60 + minute) * kMicrosPerMinute;
}

}  // namespace

StatusOr<EndToEndId> ParseEndToEndId(std::string_view text) {
  if (text.size() != 32) return ShapeError("length is " + std::to_string(text.size()) + ", not 32");
  if (text[0] != 'E') return ShapeError("first character must be 'E'");
  EndToEndId e;
  e.id = std::string(text);
  e.ispb = std::string(text.substr(1, 8));
  if (!AllDigits(e.ispb)) return ShapeError("ISPB (chars 2-9) must be 8 digits");
  std::string_view stamp = text.substr(9, 12);
  std::optional<UnixMicros> time = AllDigits(stamp) ? ParseMinute(stamp) : std::nullopt;
  if (!time) return ShapeError("timestamp (chars 10-21) must be a real UTC minute yyyyMMddHHmm");
  e.utc_time = *time;
  e.utc_timestamp = std::string(stamp.substr(0, 4)) + "-" + std::string(stamp.substr(4, 2)) + "-" +
                    std::string(stamp.substr(6, 2)) + "T" + std::string(stamp.substr(8, 2)) + ":" +
                    std::string(stamp.substr(10, 2)) + "Z";
  e.sequence = std::string(text.substr(21));
  if (!AllAlnum(e.sequence)) return ShapeError("sequence (chars 22-32) must be 11 of [A-Za-z0-9]");
  return e;
}

StatusOr<std::string> BuildEndToEndId(std::string_view ispb, UnixMicros utc_time, std::string_view sequence) {
  if (ispb.size() != 8 || !AllDigits(ispb)) return InvalidArgumentError("ISPB must be 8 digits");
  if (sequence.size() != 11 || !AllAlnum(sequence)) return InvalidArgumentError("sequence must be 11 of [A-Za-z0-9]");
  std::int64_t minutes =
      utc_time >= 0 ? utc_time / kMicrosPerMinute : -((-utc_time + kMicrosPerMinute - 1) / kMicrosPerMinute);
  std::int64_t days = minutes >= 0 ? minutes / 1440 : -((-minutes + 1439) / 1440);
  std::int64_t minute_of_day = minutes - days * 1440;
  int year;
  unsigned month, day;
  CivilFromDays(days, year, month, day);
  if (year < 0 || year > 9999) return InvalidArgumentError("time must fall in years 0000-9999");
  char stamp[16];
  std::snprintf(stamp, sizeof stamp, "%04d%02u%02u%02d%02d", year, month, day, static_cast<int>(minute_of_day / 60),
                static_cast<int>(minute_of_day % 60));
  return "E" + std::string(ispb) + stamp + std::string(sequence);
}

}  // namespace balcao::formats
