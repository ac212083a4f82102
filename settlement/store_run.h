// `balcao settle --store` and `--account` (docs/stores.md, "The night"): the I/O edge of
// settlement/stores.h. Reads the account's business day once, by pages (the range lists of
// settlement/internal/bank_view.h: the same for 1 lane or 20, never per sale), and groups it
// by the lanes the entities' tags name. Reads only: it journals nothing and keeps no record
// (each lane's own `balcao settle` does, for its sales). Runs on any box of the account.
// Thread-safety: one run at a time per bank client.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "api/bank.h"
#include "common/status.h"
#include "settlement/stores.h"

namespace balcao::settlement {

struct StoreRunOptions {
  std::string day;      // "YYYY-MM-DD", America/Sao_Paulo
  int connections = 4;  // range lists read at once
  // Told what the run is doing (pages read so far) for a progress display; may be empty.
  std::function<void(const std::string& stage, int done, int total)> progress;
};

// `entities`, when given, receives the day's entities the account was grouped from (the chain's
// hub holds them against the events it routed: hub/night.h); `ledger_since`, every ledger
// line created from the day's start on (the tails too), with its time and its sale's lane.
StatusOr<AccountDay> ReadAccountDay(const api::Bank& bank, const StoreRunOptions& options,
                                    std::vector<BankEntity>* entities = nullptr,
                                    std::vector<LedgerLine>* ledger_since = nullptr);

}  // namespace balcao::settlement
