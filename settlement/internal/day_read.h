// Reading one business day for the nightly run (settle.cc): the day's sales from the sale
// journal (its hash chain verified first), the bank's day by pages on several connections while
// the journal is read, and what the box holds beside the journal (requests at risk in the
// outbox, card outcomes not yet reported, TEF Dial's exchanges), into one DayInput for
// Reconcile (settlement.h).
// Ownership: a DayRun borrows the store, the bank, the clock and the options.
// Thread-safety: one run at a time; the bank's pages are read on threads of their own.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "api/bank.h"
#include "common/status.h"
#include "common/time.h"
#include "offline/journal.h"
#include "offline/sealed_cards.h"
#include "offline/store.h"
#include "settlement/settle.h"
#include "settlement/settlement.h"

namespace balcao::settlement::internal {

// What the steps of one settlement share: the day's bounds, the input gathered for the
// reconciliation, and the journal sequence each sale was read up to (the record keeps it, so
// the next night reads only what came after).
struct DayRun {
  // The business day that starts at `from` (settlement.h BusinessDayStart); input's day,
  // language and "now" set from `options` and `clock`.
  DayRun(offline::Store& store, const api::Bank& bank, const Clock& clock, const SettleOptions& options,
         UnixMicros from);
  offline::Store& store;
  const api::Bank& bank;
  const Clock& clock;
  const SettleOptions& options;
  const UnixMicros from;
  const UnixMicros to;
  const std::int64_t from_ms;
  const std::int64_t to_ms;
  offline::Journal journal;
  DayInput input;
  std::vector<std::string> ids;  // the sale ids of input.sales, in the same order
  std::map<std::string, std::int64_t> seen_seq;
  int bank_calls = 0;  // the calls the bank's day took to read
  std::unique_ptr<offline::SealedCards> sealed;
  // A day read again (RecheckBank): the record's sales instead of those in scope tonight.
  const std::vector<std::string>* record_sales = nullptr;
};

// The day: its sales from the journal and its entities from the bank, then what the box itself
// holds about it beside the journal (requests still at risk in the outbox, card outcomes not
// yet reported, TEF Dial's exchanges), into run.input.
Status ReadDay(DayRun& run);

}  // namespace balcao::settlement::internal
