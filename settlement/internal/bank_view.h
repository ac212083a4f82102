// What the bank holds for a business day, read through the typed client (api/bank.h) by
// pages, not by sale (docs/settlement.md, "What is read"):
//   * the range lists: purchases, invoices, dynamic brcodes, Pix deposits and ledger
//     transactions created since the day began, each listed once (`after` = the day,
//     no `before`: the tails of late money, refunds and captures after the day come with
//     them), 100 a page, following the cursor; read on up to `connections` connections at
//     once, one list per connection, and kept compact (only what the join needs);
//   * joined locally: a sale's purchases and invoices by their `sale/<id>` tag, its deposits
//     through the tags of its brcodes, each entity's ledger lines by their `source`;
//   * by tag, in batches of sales: only what the range cannot hold, the entities of sales
//     opened before the day (a pay-later invoice of last week, a refund today of yesterday's
//     sale) or in its first minutes (the bank's clock may be behind the box's);
//   * by `uuids`, in batches: the brcode of a deposit or a debit whose brcode predates the day.
// Then orphans (entities created in the day whose sale this box never journaled), the
// day's ledger and the balance now.
// Thread-safety: a DayLists is used by one thread; Read uses its own threads internally.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "api/bank.h"
#include "common/status.h"
#include "settlement/settlement.h"
#include "settlement/stores.h"

namespace balcao::settlement::internal {

struct BankDay {
  std::vector<BankEntity> entities;
  LedgerDay ledger;
};

// `journaled(sale_id)` says whether the journal has a sale (any day); errors end the read.
using JournaledFn = std::function<StatusOr<bool>(const std::string& sale_id)>;

struct ReadOptions {
  int connections = 4;  // range lists read at once (1..8), never two on the same cursor
  // This box's lane (checkout::LaneRoot): entities of any other lane are shown as other
  // lanes', never as orphans nor as sales of this box. "" for a box without a lane.
  std::string lane;
  // After each page of the range lists, with the pages read so far; may be empty. Called
  // from the reading threads, one at a time.
  std::function<void(int pages)> on_page;
};

// How the read went, for the run's log: range pages, lookups by tag or uuid (calls) and the
// sales that needed them.
struct ReadCounts {
  int range_pages = 0;
  int lookup_calls = 0;
  int lookup_sales = 0;
};

// A sale in scope as the bank read needs it: its id, and whether its entities may predate
// the range (opened before the day, or in its first minutes).
struct ScopeSale {
  std::string id;
  bool before_range = false;
  std::string lane;  // the sale's Settings::lane ("" for the old layout)
};

// A sale key (the sale's tag, lowercase) as the lane ("" for the old layout) and the id.
struct SaleKey {
  std::string lane;
  std::string id;
};
SaleKey SplitSaleKey(const std::string& key);

class DayLists {
 public:
  // Reads the range lists for the business day [from, to).
  static StatusOr<DayLists> Read(const api::Bank& bank, UnixMicros from, UnixMicros to,
                                 const ReadOptions& options = {});

  // Sales of this box (`journaled`) whose money went back at the bank in [from, to): the
  // debits of the day's ledger that name a sale by its tag, or (a deposit's) through its
  // brcode's tags.
  StatusOr<std::set<std::string>> SalesWithDebits(const api::Bank& bank, const JournaledFn& journaled);

  // The entities of the sales in scope with their ledger lines, the orphans of the day, the
  // day's ledger and the balance.
  StatusOr<BankDay> Assemble(const api::Bank& bank, const std::vector<ScopeSale>& sales, const JournaledFn& journaled);

  // For the store and account runs (settlement/stores.h): every purchase, invoice and
  // deposit created in [from, to), its sale and lane from its tags (a deposit's from its
  // brcode's, looked up when the lists lack it), its ledger lines filled in; and every
  // ledger line created in [from, to), with the sale and lane its tags name (a deposit's: its
  // brcode's, looked up by DayEntities, so call that first).
  StatusOr<std::vector<BankEntity>> DayEntities(const api::Bank& bank);
  std::vector<LedgerLine> DayLedger() const;
  // Every ledger line the lists hold (created from the day's start on), with its time and the
  // lane and sale its tags name.
  std::vector<LedgerLine> LedgerSince() const;

  const ReadCounts& counts() const { return counts_; }

  // One ledger transaction, as much as the join needs.
  struct Tx {
    std::string id;
    std::string source;       // "invoice/<id>", "deposit/<id>", "merchant-purchase/<id>"
    std::string sale;         // the sale key from its tags ("" none), lowercase
    std::string brcode_uuid;  // from a dynamic-brcode/<uuid> tag ("" none)
    Cents amount = 0;
    Cents fee = 0;
    UnixMicros created = 0;
  };

 private:
  DayLists(UnixMicros from, UnixMicros to) : from_(from), to_(to) {}
  // Whether a sale may be this box's: its own lane, or the old layout (then the journal says).
  bool OfThisBox(const SaleKey& sale) const { return sale.lane.empty() || sale.lane == lane_; }
  // The brcodes' sales for `uuids` the lists lack, looked up in batches.
  Status LookUpBrcodes(const api::Bank& bank, const std::vector<std::string>& uuids);
  // LookUpBrcodes for the day's deposits, and the day's deposit ledger lines, whose brcode the
  // lists lack.
  Status LookUpDayDepositBrcodes(const api::Bank& bank);
  // The entities and ledger lines of sales the range cannot hold, by tag in batches.
  Status LookUpSales(const api::Bank& bank, const std::vector<std::string>& sale_keys);
  void AddEntity(BankEntity entity);
  void AddTx(Tx tx);
  // Assemble's steps, in order.
  Status CompleteScope(const api::Bank& bank, const std::vector<ScopeSale>& sales);
  void AddSalesEntities(const std::vector<ScopeSale>& sales, BankDay& day, std::unordered_set<std::string>& known_ids);
  void AddLedgerLines(BankDay& day) const;
  Status AddOutOfScope(BankDay& day, const std::unordered_set<std::string>& known_ids,
                       const JournaledFn& journaled) const;
  void CountLedger(BankDay& day, const std::unordered_set<std::string>& known_ids) const;

  UnixMicros from_, to_;
  std::string lane_;
  ReadCounts counts_;
  // Purchases, invoices and deposits with their sale (lowercase key; a deposit's is filled
  // from its brcode), in the order the bank listed them (newest first).
  std::vector<BankEntity> entities_;
  std::unordered_set<std::string> entity_ids_;
  std::unordered_map<std::string, std::string> brcode_sale_;  // uuid -> sale key ("" when none)
  std::unordered_map<std::string, UnixMicros> brcode_created_;
  std::vector<Tx> txs_;  // with a sale or brcode tag, or created in the day
  std::unordered_set<std::string> tx_ids_;
};

}  // namespace balcao::settlement::internal
