// Business days in America/Sao_Paulo.
#include <string>

#include "settlement/settlement.h"

namespace balcao::settlement {
namespace {
constexpr std::int64_t kDayMicros = 86400LL * kMicrosPerSecond;
}  // namespace

StatusOr<UnixMicros> BusinessDayStart(std::string_view day) {
  const auto bad = [&] {
    return InvalidArgumentError("day '" + std::string(day) + "': must be a calendar date YYYY-MM-DD");
  };
  if (day.size() != 10 || day[4] != '-' || day[7] != '-') return bad();
  StatusOr<UnixMicros> midnight = ParseTimestamp(day);
  if (!midnight.ok() || FormatDate(*midnight) != day) return bad();
  return *midnight - kSaoPauloOffsetMicros;
}

std::string BusinessDayOf(UnixMicros t) { return FormatDate(t + kSaoPauloOffsetMicros); }

std::string PreviousBusinessDay(UnixMicros now) { return BusinessDayOf(now - kDayMicros); }

}  // namespace balcao::settlement
