#include "settlement/store_run.h"

#include "settlement/internal/bank_view.h"

namespace balcao::settlement {

StatusOr<AccountDay> ReadAccountDay(const api::Bank& bank, const StoreRunOptions& options,
                                    std::vector<BankEntity>* entities, std::vector<LedgerLine>* ledger_since) {
  BALCAO_ASSIGN_OR_RETURN(UnixMicros from, BusinessDayStart(options.day));
  const UnixMicros to = from + 86400LL * kMicrosPerSecond;
  internal::ReadOptions read;
  read.connections = options.connections;
  read.on_page = [&options](int pages) {
    if (options.progress) options.progress("pages read at the bank", pages, 0);
  };
  BALCAO_ASSIGN_OR_RETURN(internal::DayLists lists, internal::DayLists::Read(bank, from, to, read));
  BALCAO_ASSIGN_OR_RETURN(std::vector<BankEntity> day, lists.DayEntities(bank));
  AccountDay account = GroupByLane(options.day, day, lists.DayLedger());
  if (entities != nullptr) *entities = std::move(day);
  if (ledger_since != nullptr) *ledger_since = lists.LedgerSince();
  return account;
}

}  // namespace balcao::settlement
