// The chain's night at the hub (docs/hub.md, "The chain's night"), pure: the boxes' nights as
// they published them (settlement::NightSummaryJson), the events the hub routed, and the bank's
// day by pages with its ledger (settlement::ReadAccountDay), held against each other per lane,
// per store and for the account, each invoice's money on the night the lane counted it
// (invoice_nights.h). The bank-and-ledger rules and the lanes' own verdicts are
// settlement/'s (settlement::ItemsToLookAt); this adds what only the hub can see: a lane whose
// report is missing, a paid entity no event of its lane carried, an event routed to a lane the
// bank's tags do not name, and a lane whose report's net is not the bank's.
// Money is int64 cents. Thread-safety: pure functions over values.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "common/status.h"
#include "common/time.h"
#include "settlement/stores.h"

namespace balcao::hub {

// A box's night as it published it and when the hub stored it.
struct LaneNight {
  std::string store, terminal;
  std::string day;         // YYYY-MM-DD
  std::string settled_at;  // as the report says it
  std::string status;      // "reconciled" | "attention"
  int attention = 0;
  std::string summary_json;
  UnixMicros received = 0;
};
// Reads a summary a box published on balcao.box.<store>.<terminal>.night; kInvalidArgument
// names the field and its rule.
StatusOr<LaneNight> ParseNight(const std::string& store, const std::string& terminal, const std::string& json);

// One event the hub routed: its subject and the entity it is about ("invoice/<id>",
// "deposit/<id>", as settlement::SourceOf names them).
struct RoutedEntity {
  std::string subject;
  std::string entity;
};

struct ChainNightInput {
  std::string day;
  std::vector<settlement::BankEntity> entities;            // created in the day (settlement::ReadAccountDay)
  std::vector<settlement::LedgerLine> ledger;              // every line from the day's start on, with times
  std::vector<LaneNight> nights;                           // the boxes' reports of the day
  std::vector<LaneNight> previous_nights;                  // and of the day before (when they ran)
  std::set<std::pair<std::string, std::string>> enrolled;  // lanes enrolled by the day's end
  std::vector<RoutedEntity> routed;                        // events routed from the day's start on
  bool events_kept = true;  // false: the day is past the replay window, its events pruned
};

// One lane's four ways.
struct LaneFourWays {
  std::string store, terminal;
  bool reported = false;
  std::string report_status;           // the box's verdict ("" when missing)
  settlement::Cents report_net = 0;    // the box's total net of the night
  int events = 0;                      // events routed to the lane from the day's start on
  settlement::Cents bank_held = 0;     // what its day's entities hold at the bank
  settlement::Cents ledger_net = 0;    // their ledger lines, fees added back
  std::vector<std::string> unrouted;   // paid entities of the day no event of the lane named
  std::vector<std::string> misrouted;  // entities of the lane's day routed to another subject
  // Invoices whose money a night other than the bank's day holds (invoice_nights.h): created in
  // the day and paid after the lane's night ran; created before and counted by this night.
  std::vector<std::string> later, earlier;
  std::vector<std::string> items;  // what to look at, in words
};

struct ChainNight {
  std::string day;
  settlement::AccountDay account;   // the bank's day by lane, as the nights counted it, with the boxes' records
  std::vector<LaneFourWays> lanes;  // by store, terminal
  int unclaimed_events = 0;
  bool events_kept = true;
  int items = 0;  // settlement::ItemsToLookAt(account) + every lane's items: 0 = reconciled
};

ChainNight ReconcileChain(const ChainNightInput& input);

// `balcao hub settle`'s forms: JSON (keys in a fixed order) and the operator's text.
std::string ChainNightJson(const ChainNight& night);
std::string ChainNightText(const ChainNight& night);

}  // namespace balcao::hub
