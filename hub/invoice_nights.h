// Which night owns an invoice's money at the hub (docs/hub.md, "The chain's night"), pure. A
// box counts a sale's payment once, by the first of its nights that sees it paid
// (docs/settlement.md, rule 4): a pay-later invoice rung up on day D and paid on D+k is in the
// totals of the night that ran after the payment, "earlier day, counted tonight", not in D's.
// The bank's day, read by creation, puts the invoice in D and its ledger line in D+k. So the
// hub's day D gives each lane's invoice money to the night the box gave it to, by the times its
// nights ran (their settled_at) against the time of the invoice's ledger credit:
//   * an invoice created in D and paid after the lane's night of D ran is not D's money: it is
//     shown as its night saw it (open, holding nothing), its ledger line left to a later day;
//   * an invoice created before D and paid after the lane's night of the day before ran and by
//     its night of D is D's money: added to the lane's day with its ledger line;
//   * an invoice credit of the early hours after D that the night of D saw is D's ledger line.
// Every other entity and ledger line stays on the day the bank created it. A lane without a
// report of D is taken as if its night ran at D's end (it is flagged missing anyway); without
// one of the day before, as if that ran at D's start.
// Thread-safety: pure functions over values.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/time.h"
#include "settlement/stores.h"

namespace balcao::hub {

// When each lane's night of a day ran (its report's settled_at), by lane root
// (checkout::LaneRoot).
using NightTimes = std::map<std::string, UnixMicros>;

struct InvoiceNightsInput {
  UnixMicros day_start = 0, day_end = 0;
  std::vector<settlement::BankEntity> entities;  // created in the day, ledger lines filled (tails too)
  std::vector<settlement::LedgerLine> ledger;    // every line from the day's start on, with times
  NightTimes nights;                             // the lanes' nights of the day
  NightTimes previous_nights;                    // and of the day before
};

struct InvoiceNights {
  std::vector<settlement::BankEntity> entities;  // the day's, as the lanes' nights counted them
  std::vector<settlement::LedgerLine> ledger;    // the day's lines, likewise
  // "invoice/<id>" by lane root: paid after the lane's night of the day (a later night's), and
  // created on an earlier day and counted by this night.
  std::map<std::string, std::vector<std::string>> later, earlier;
};

InvoiceNights AttributeInvoices(const InvoiceNightsInput& in);

}  // namespace balcao::hub
