// The store and account settlement's rules (docs/stores.md, "The night"): one business day of
// the account's entities, grouped by the lane their tags name (checkout/types.h, "Tags"),
// totalled per lane and per method, summed per store, and held against the day's ledger. Pure:
// the edge (settlement/store_run.h) lists the day once by pages, for any number of lanes, and
// hands the entities and ledger lines here; a test can hand them directly.
// Money is int64 cents. Thread-safety: pure functions over values.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "settlement/settlement.h"

namespace balcao::settlement {

// One ledger transaction created in the day.
struct LedgerLine {
  std::string source;  // "invoice/<id>", "deposit/<id>", "merchant-purchase/<id>", ...
  Cents amount = 0;    // positive in, negative out
  Cents fee = 0;
  // When the bank created it, and the sale its tags name (a deposit's: its brcode's sale; its
  // lane: checkout::LaneRoot, "" for none or the old layout): the chain's hub gives a pay-later
  // invoice's money to the night that counted it (hub/invoice_nights.h); GroupByLane gives a
  // line of no entity of the day to the lane its tags name (LaneDay::earlier_net).
  UnixMicros created = 0;
  std::string lane, sale_id;
};

// One lane's day (or one store's, the sum of its lanes).
struct LaneDay {
  std::string store;
  std::string terminal;  // "" for a store's sum
  int sales = 0;         // sales with an entity created in the day
  int entities = 0;
  // credit, debit, pix, invoice (always the four), from the ledger lines of its entities:
  // `count` the sales that received money by the method, `refund_count` those that gave some back.
  std::vector<MethodTotal> methods;
  MethodTotal total;         // the sum of the four
  Cents held = 0;            // what its entities hold at the bank now (HeldBy)
  int awaiting_capture = 0;  // approved card purchases not captured yet (no ledger line yet)
  // Entities with the lane's tag and no sale's (a QR made at the dashboard with the lane's
  // tags): counted in its totals, each one an item to look at (no sale of the lane explains it).
  std::vector<BankEntity> unexplained;
  // Whether what the entities hold equals their ledger lines to the cent, nothing awaiting capture.
  bool matches_ledger() const { return awaiting_capture == 0 && held == total.net(); }
  // The net of its ledger lines created in the day (fees added back, as the totals count them):
  // its day's entities' and, in `earlier_net`, its sales' of earlier days (a pay-later invoice
  // paid, a card captured or refunded after its day). Every ledger line is created in one day,
  // so a payout of each day's `day_ledger` pays every line once (settlement/store_payout.h);
  // `total` instead counts the day's entities with their lines of later days too.
  Cents day_ledger = 0;
  Cents earlier_net = 0;
  int earlier_lines = 0;
};

struct StoreDay {
  LaneDay sum;                 // the store's totals: the sum of its lanes
  std::vector<LaneDay> lanes;  // by terminal id
  // The store's part of the day's ledger: lines whose source is an entity of one of its
  // lanes (fees added back to the credits, as the lanes count them). sum.day_ledger adds the
  // lines of its lanes' earlier sales.
  Cents ledger_net = 0;
  // The sum of the lanes is the store's total, and the store's total is its part of the
  // account's ledger, to the cent.
  bool matches_ledger = false;
};

// A lane's own night as its box recorded it (offline settlement records: on this box, or the
// hub's copies): what its journal collected and what the bank held for it then.
struct LaneRecord {
  std::string lane;  // checkout::LaneRoot
  bool reconciled = false;
  int attention = 0;
  Cents journal = 0;  // Difference::journal of its report
  Cents bank = 0;     // Difference::bank of its report
};

struct AccountDay {
  std::string day;
  std::vector<LaneRecord> records;  // the lanes' nights known here (LaneRecordOf)
  Lang lang = Lang::kEnUs;          // the words of StoresText
  std::vector<StoreDay> stores;     // by store id
  // The account's whole ledger for the day.
  int ledger_count = 0;
  Cents ledger_credits = 0;
  Cents ledger_debits = 0;     // positive
  Cents ledger_unclaimed = 0;  // the net of the lines of no lane (no lane's entity, no lane's tags)
  // Entities created in the day that no lane claims: tagged for a sale of the layout before
  // lanes, or for no sale at all (a cash-in by Pix key, an invoice made at the dashboard).
  std::vector<BankEntity> unclaimed;
};

// The store and terminal of a lane root "store/<s>/lane/<t>" (checkout::LaneRoot); "" for
// what is not one.
std::pair<std::string, std::string> SplitLaneRoot(const std::string& lane);

// Groups `entities` (created in the day; lane, sale and ledger lines filled) and the day's
// `ledger` lines. Deterministic: equal inputs give equal results.
AccountDay GroupByLane(const std::string& day, const std::vector<BankEntity>& entities,
                       const std::vector<LedgerLine>& ledger);

// The night a lane recorded, from its report JSON (settlement/report.h); kInvalidArgument when
// the document is not one.
StatusOr<LaneRecord> LaneRecordOf(const std::string& lane, const std::string& report_json);

// What the store's (`store_id`) or the account's ("") night leaves to look at: stores whose
// lanes do not sum to their ledger, entities no lane claims (with an amount, status and
// customer), entities with a lane's tag and no sale's, lanes' recorded nights that need the
// operator. 0: the night reconciles (exit 0).
int ItemsToLookAt(const AccountDay& account, const std::string& store_id);

// The store `store_id` of `account`; nullptr when it had no entity in the day.
const StoreDay* FindStore(const AccountDay& account, const std::string& store_id);

// The forms of `balcao settle --store` (one store: `store_id`) and `--account` (`store_id`
// ""): JSON with keys in a fixed order, and the operator's text.
std::string StoresJson(const AccountDay& account, const std::string& store_id);
std::string StoresText(const AccountDay& account, const std::string& store_id);

}  // namespace balcao::settlement
