// The `discounts` of a new invoice or boleto (API documentation, part 1, "Invoice" and
// "Boleto"): percentages from 0.01 to 99.99, each smaller than the one before, none dated after
// the receivable's due. The two resources word them differently (the date's key, how many,
// where a problem is named); the rule is this one.
// Implemented in discounts.cc. Thread-safety: as Reader.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {

struct DiscountWording {
  std::size_t max_items;          // 2 on a boleto, 5 on an invoice
  std::string_view date_key;      // "date" (boleto) or "due" (invoice)
  std::string_view after_due_en;  // the problem of a discount dated after the due
  std::string_view after_due_pt;
  Reader::EntryProblems where;  // a boleto names the list, an invoice the entry's field
  bool date_is_sao_paulo_day;   // a date without a time means that day in São Paulo (boleto)
};
inline constexpr DiscountWording kBoletoDiscounts{2,
                                                  "date",
                                                  "must not be after the due date.",
                                                  "não pode ser depois do vencimento.",
                                                  Reader::EntryProblems::kOnTheList,
                                                  true};
inline constexpr DiscountWording kInvoiceDiscounts{5,
                                                   "due",
                                                   "must not be after the invoice due.",
                                                   "não pode ser depois do vencimento da fatura.",
                                                   Reader::EntryProblems::kOnTheEntry,
                                                   false};

// The normalised list ({"percentage", <date_key>: timestamp} each), empty when absent; the
// problems are recorded on `in`.
Json ReadDiscounts(Reader& in, std::optional<UnixMicros> due, const DiscountWording& wording);

}  // namespace balcao::sandbox::internal
