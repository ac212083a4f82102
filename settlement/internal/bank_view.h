// What the bank holds for a business day, read through the typed client (api/bank.h):
// every purchase, invoice and Pix deposit of the given sales (found by their `sale/<id>`
// tags; deposits by `dynamic-brcode/<uuid>` of the sales' brcodes) with the ledger
// transactions of each; entities created in the day whose sale tag names a sale the
// journal does not have (orphans); the day's ledger and the balance now.
// Thread-safety: as api::Client.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "api/bank.h"
#include "common/status.h"
#include "settlement/settlement.h"

namespace balcao::settlement::internal {

struct BankDay {
  std::vector<BankEntity> entities;
  LedgerDay ledger;
};

// `journaled(sale_id)` says whether the journal has a sale (any day); errors end the read.
using JournaledFn = std::function<StatusOr<bool>(const std::string& sale_id)>;

// Sales of this box (`journaled`) whose money went back at the bank in [from, to): the debits
// of the day's ledger that name a sale by its tag, or (a deposit's) through its brcode's tags.
StatusOr<std::set<std::string>> SalesWithDebits(const api::Bank& bank, UnixMicros from, UnixMicros to,
                                                const JournaledFn& journaled);

// `on_sale_read(done, total)` after each sale's entities are read (may be empty).
StatusOr<BankDay> ReadBank(const api::Bank& bank, const std::vector<std::string>& sale_ids, UnixMicros from,
                           UnixMicros to, const JournaledFn& journaled,
                           const std::function<void(int done, int total)>& on_sale_read = {});

}  // namespace balcao::settlement::internal
