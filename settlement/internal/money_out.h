// The money out of a settled day (settle.cc): the payout of the day's net to the merchant's
// account (payout.h; the store's, store_payout.h, when payouts are per store) and the card
// receivables, added to the report after the reconciliation and before the record.
// Thread-safety: one run at a time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api/bank.h"
#include "common/status.h"
#include "common/time.h"
#include "settlement/settle.h"
#include "settlement/settlement.h"

namespace balcao::settlement::internal {

// What the payout and the receivables need of the day's input, kept when the input is let go.
struct MoneyOutInput {
  std::vector<std::string> purchases;  // the day's card purchases of this box's sales
  bool balance_known = false;
  std::int64_t balance = 0;
  std::string lane;  // this box's lane root ("" for a box without one)
};

MoneyOutInput MoneyOutOf(const DayInput& input);

// The payout (after the reconciliation, before the record: a run that dies in between finds
// the transfer by its externalId the next time) and the card receivables, into the report.
Status AddMoneyOut(const api::Bank& bank, const SettleOptions& options, const MoneyOutInput& input,
                   const Report& report, UnixMicros from, Settlement& result);

}  // namespace balcao::settlement::internal
