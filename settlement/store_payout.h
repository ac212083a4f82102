// The store's payout (docs/settlement.md, "Payout per store"): one transfer per store and day
// of what every lane's ledger lines created in the day net (LaneDay::day_ledger: the day's
// sales and, paid or returned today, earlier days'; every line is paid on the one day it was
// created), read by pages as `balcao settle --store` reads them (settlement/store_run.h),
// whichever lane's night runs it first (or `balcao settle --store --payout`). The externalId names the store and the
// day (settlement/payout.h), so every later or concurrent run finds the transfer instead of sending a second; all runs
// compute the same amount, since they read the same bank. Withheld, the lanes named, while any lane's figures at the
// bank do not reconcile, or the lane running it does not reconcile its own night. Thread-safety: one run at a time per
// bank client.
#pragma once

#include <string>
#include <vector>

#include "api/bank.h"
#include "common/status.h"
#include "settlement/payout.h"
#include "settlement/stores.h"

namespace balcao::settlement {

// Who runs the store's payout, and what it knows of its own night.
struct StorePayoutRun {
  std::string day;
  std::string store_id;         // the store whose tag is read (store_id of the config)
  std::string terminal;         // the lane running it; "" for `settle --store --payout`
  bool lane_reconciled = true;  // that lane's own night (its journal against the bank)
  int lane_attention = 0;       // items that night left for the operator
  bool dry_run = false;
  bool balance_known = false;
  Cents balance = 0;
  int connections = 4;  // the day's range lists read at once
};

// Pure: why the store's payout waits, one "lane <terminal>: why" per lane, in both languages.
// Empty: it may be sent.
std::vector<Words> LanesWithholding(const StoreDay& store, const StorePayoutRun& run);

// With the store's day read: sends (or finds, or withholds) the store's payout.
StatusOr<Payout> PayStore(const api::Bank& bank, const PayoutSettings& settings, const StoreDay& store,
                          const StorePayoutRun& run);

// Reads the store's day at the bank, then PayStore.
StatusOr<Payout> RunStorePayout(const api::Bank& bank, const PayoutSettings& settings, const StorePayoutRun& run);

}  // namespace balcao::settlement
