#include "sandbox/internal/discounts.h"

#include <string>

#include "sandbox/internal/engine_core.h"

namespace balcao::sandbox::internal {

Json ReadDiscounts(Reader& in, std::optional<UnixMicros> due, const DiscountWording& wording) {
  double last = 101;  // above any percentage: the first one always decreases
  const std::string date_key(wording.date_key);
  return in.Entries(
      "discounts", wording.max_items, "invalidDiscount", wording.where, [&](const Json& d, Problems& local) -> Json {
        Reader dr(d, local, "discounts[]");
        auto pct = dr.Number("percentage", Need::kRequired, 0.01, 99.99, "invalidDiscount");
        auto date = dr.Time(date_key, Need::kRequired, "invalidDiscountDate");
        dr.RejectUnknown();
        if (pct && *pct >= last)
          dr.Fail("percentage", "invalidDiscount", "must decrease from one discount to the next.",
                  "deve diminuir de um desconto para o seguinte.");
        if (date && due && *date > *due)
          dr.Fail(date_key, "invalidDiscountDate", wording.after_due_en, wording.after_due_pt);
        if (!local.empty()) return nullptr;
        last = *pct;
        const bool date_only = d[date_key].is_string() && d[date_key].get<std::string>().size() == 10;
        const UnixMicros at = wording.date_is_sao_paulo_day && date_only ? FromSaoPauloWallClock(*date) : *date;
        return {{"percentage", *pct}, {date_key, FormatTimestamp(at)}};
      });
}

}  // namespace balcao::sandbox::internal
