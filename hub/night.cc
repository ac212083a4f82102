#include "hub/night.h"

#include <map>
#include <nlohmann/json.hpp>

#include "checkout/types.h"
#include "common/money.h"
#include "hub/invoice_nights.h"
#include "hub/routing.h"

namespace balcao::hub {
namespace {

using nlohmann::ordered_json;
using settlement::Cents;

bool IsCount(const nlohmann::json& doc, const char* key) {
  return doc.contains(key) && doc[key].is_number_integer() && doc[key].get<long long>() >= 0;
}

// The entities a lane's events must carry: the hub's webhook subscribes to deposits and
// invoices (hub.cc), so a card purchase reaches its box by the box's own calls instead.
bool CarriedByEvents(const settlement::BankEntity& e) {
  return (e.kind == settlement::BankKind::kDeposit || e.kind == settlement::BankKind::kInvoice) && e.ledger_in > 0;
}

// The lanes the night is about: enrolled, with the bank's entities, or with a report.
std::map<std::pair<std::string, std::string>, LaneFourWays> LanesOf(const ChainNightInput& in,
                                                                    const settlement::AccountDay& account) {
  std::map<std::pair<std::string, std::string>, LaneFourWays> lanes;
  auto add = [&lanes](const std::string& store, const std::string& terminal) -> LaneFourWays& {
    LaneFourWays& lane = lanes[{store, terminal}];
    lane.store = store;
    lane.terminal = terminal;
    return lane;
  };
  for (const auto& [store, terminal] : in.enrolled) add(store, terminal);
  for (const settlement::StoreDay& store : account.stores)
    for (const settlement::LaneDay& day : store.lanes) {
      LaneFourWays& lane = add(day.store, day.terminal);
      lane.bank_held = day.held;
      lane.ledger_net = day.total.net();
    }
  for (const LaneNight& night : in.nights) {
    LaneFourWays& lane = add(night.store, night.terminal);
    lane.reported = true;
    lane.report_status = night.status;
    const auto summary = nlohmann::json::parse(night.summary_json, nullptr, false);
    if (summary.is_object() && summary.contains("total") && summary["total"].is_object())
      lane.report_net = summary["total"].value("net", Cents{0});
  }
  return lanes;
}

// The events' side of one lane: how many it got, and the day's paid entities of the lane
// that no event of its own carried (or that went to another subject).
void CheckEvents(const ChainNightInput& in, const std::vector<settlement::BankEntity>& entities,
                 const std::multimap<std::string, std::string>& subjects_of, LaneFourWays& lane) {
  const std::string subject = LaneSubject(lane.store, lane.terminal);
  for (const RoutedEntity& r : in.routed) lane.events += r.subject == subject;
  if (!in.events_kept) return;
  const std::string root = checkout::LaneRoot(lane.store, lane.terminal);
  for (const settlement::BankEntity& e : entities) {
    if (e.lane != root || !CarriedByEvents(e)) continue;
    const std::string source = settlement::SourceOf(e);
    bool own = false, other = false;
    for (auto [it, end] = subjects_of.equal_range(source); it != end; ++it)
      (it->second == subject ? own : other) = true;
    if (!own) lane.unrouted.push_back(source);
    if (other) lane.misrouted.push_back(source);
  }
}

void NameItems(const ChainNight& night, bool in_bank_day, LaneFourWays& lane) {
  if (!lane.reported) {
    lane.items.push_back("no report from the box for " + night.day + " (did its nightly run happen?)");
  } else {
    if (!in_bank_day && lane.report_status != "reconciled")
      lane.items.push_back("the box's night needs the operator");  // else settlement's rules count it
    // The bank's side against its ledger is settlement's rule (a store's lanes sum to its ledger).
    if (lane.report_net != lane.bank_held)
      lane.items.push_back("the box's net " + FormatBrl(lane.report_net) + " is not what the bank holds, " +
                           FormatBrl(lane.bank_held));
  }
  for (const std::string& source : lane.unrouted)
    lane.items.push_back(source + ": paid at the bank, no event of it reached the lane through the hub");
  for (const std::string& source : lane.misrouted)
    lane.items.push_back(source + ": the lane's, and also routed to another subject");
}

// When each lane's night ran, by lane root.
NightTimes TimesOf(const std::vector<LaneNight>& nights) {
  NightTimes times;
  for (const LaneNight& n : nights)
    if (auto at = ParseTimestamp(n.settled_at); at.ok()) times[checkout::LaneRoot(n.store, n.terminal)] = *at;
  return times;
}

// The day's entities and ledger lines, each invoice's money on the night its lane counted it.
InvoiceNights CountedByTheNights(const ChainNightInput& in) {
  InvoiceNightsInput split;
  const auto start = BusinessDayStart(in.day);  // a bad day never gets here (ParseNight, SettleChain)
  split.day_start = start.ok() ? *start : 0;
  split.day_end = split.day_start + kMicrosPerDay;
  split.entities = in.entities;
  split.ledger = in.ledger;
  split.nights = TimesOf(in.nights);
  split.previous_nights = TimesOf(in.previous_nights);
  return AttributeInvoices(split);
}

ordered_json FourWaysJson(const std::string& name, Cents report, int events, Cents bank, Cents ledger) {
  return {{"name", name}, {"report_net", report}, {"events", events}, {"bank_held", bank}, {"ledger_net", ledger}};
}

}  // namespace

StatusOr<LaneNight> ParseNight(const std::string& store, const std::string& terminal, const std::string& json) {
  const auto doc = nlohmann::json::parse(json, nullptr, false);
  if (!doc.is_object()) return InvalidArgumentError("night: a JSON object (settlement::NightSummaryJson)");
  if (!doc.contains("day") || !doc["day"].is_string() || !BusinessDayStart(doc["day"].get<std::string>()).ok())
    return InvalidArgumentError("day: a date YYYY-MM-DD");
  const std::string status = doc.value("status", "");
  if (status != "reconciled" && status != "attention") return InvalidArgumentError("status: reconciled or attention");
  if (!IsCount(doc, "attention")) return InvalidArgumentError("attention: a count, 0 or more");
  if (!doc.contains("settled_at") || !doc["settled_at"].is_string())
    return InvalidArgumentError("settled_at: the run's time, text");
  if (!doc.contains("total") || !doc["total"].is_object() || !doc["total"].contains("net") ||
      !doc["total"]["net"].is_number_integer())
    return InvalidArgumentError("total.net: cents, an integer");
  return LaneNight{store,
                   terminal,
                   doc["day"].get<std::string>(),
                   doc["settled_at"].get<std::string>(),
                   status,
                   doc["attention"].get<int>(),
                   doc.dump(),
                   0};
}

ChainNight ReconcileChain(const ChainNightInput& in) {
  ChainNight night;
  night.day = in.day;
  InvoiceNights counted = CountedByTheNights(in);
  night.account = settlement::GroupByLane(in.day, counted.entities, counted.ledger);
  night.events_kept = in.events_kept;
  for (const LaneNight& n : in.nights) {
    auto record = settlement::LaneRecordOf(checkout::LaneRoot(n.store, n.terminal), n.summary_json);
    if (record.ok()) night.account.records.push_back(*std::move(record));
  }
  std::multimap<std::string, std::string> subjects_of;  // entity -> the subjects its events went to
  for (const RoutedEntity& r : in.routed) {
    subjects_of.emplace(r.entity, r.subject);
    night.unclaimed_events += r.subject == kUnclaimedSubject;
  }
  std::set<std::pair<std::string, std::string>> in_bank_day;
  for (const settlement::StoreDay& store : night.account.stores)
    for (const settlement::LaneDay& day : store.lanes) in_bank_day.insert({day.store, day.terminal});
  night.items = settlement::ItemsToLookAt(night.account, "");
  for (auto& [key, lane] : LanesOf(in, night.account)) {
    const std::string root = checkout::LaneRoot(lane.store, lane.terminal);
    lane.later = counted.later[root];
    lane.earlier = counted.earlier[root];
    CheckEvents(in, counted.entities, subjects_of, lane);
    NameItems(night, in_bank_day.count(key) > 0, lane);
    night.items += static_cast<int>(lane.items.size());
    night.lanes.push_back(std::move(lane));
  }
  return night;
}

std::string ChainNightJson(const ChainNight& night) {
  ordered_json lanes = ordered_json::array(), stores = ordered_json::array();
  std::map<std::string, LaneFourWays> sums;  // per store
  LaneFourWays account;
  for (const LaneFourWays& lane : night.lanes) {
    ordered_json row =
        FourWaysJson(lane.store + "/" + lane.terminal, lane.report_net, lane.events, lane.bank_held, lane.ledger_net);
    row["store"] = lane.store;
    row["terminal"] = lane.terminal;
    row["report"] = lane.reported ? lane.report_status : "missing";
    row["unrouted"] = lane.unrouted;
    row["misrouted"] = lane.misrouted;
    row["paid_after_the_night"] = lane.later;
    row["earlier_day_counted_tonight"] = lane.earlier;
    row["to_look_at"] = lane.items;
    lanes.push_back(std::move(row));
    for (LaneFourWays* sum : {&sums[lane.store], &account}) {
      sum->report_net += lane.report_net;
      sum->events += lane.events;
      sum->bank_held += lane.bank_held;
      sum->ledger_net += lane.ledger_net;
    }
  }
  for (const auto& [store, sum] : sums)
    stores.push_back(FourWaysJson(store, sum.report_net, sum.events, sum.bank_held, sum.ledger_net));
  ordered_json doc = {
      {"day", night.day},
      {"status", night.items == 0 ? "reconciled" : "attention"},
      {"to_look_at", night.items},
      {"lanes", std::move(lanes)},
      {"stores", std::move(stores)},
      {"account", FourWaysJson("account", account.report_net, account.events, account.bank_held, account.ledger_net)},
      {"unclaimed_events", night.unclaimed_events},
      {"events_kept", night.events_kept},
      {"bank", ordered_json::parse(settlement::StoresJson(night.account, ""))}};
  return doc.dump(2) + "\n";
}

std::string ChainNightText(const ChainNight& night) {
  std::string out =
      "The chain's night " + night.day + ": " +
      (night.items == 0 ? std::string("RECONCILED four ways (reports, events, bank, ledger)")
                        : "ATTENTION: " + std::to_string(night.items) + " item(s) to look at (marked !)") +
      "\n\n";
  char line[256];
  std::snprintf(line, sizeof line, "  %-28s %-12s %14s %7s %14s %14s\n", "lane", "report", "report net", "events",
                "bank holds", "ledger net");
  out += line;
  for (const LaneFourWays& lane : night.lanes) {
    std::snprintf(line, sizeof line, "%s %-28s %-12s %14s %7d %14s %14s\n", lane.items.empty() ? " " : "!",
                  (lane.store + "/" + lane.terminal).c_str(), lane.reported ? lane.report_status.c_str() : "MISSING",
                  lane.reported ? FormatBrl(lane.report_net).c_str() : "-", lane.events,
                  FormatBrl(lane.bank_held).c_str(), FormatBrl(lane.ledger_net).c_str());
    out += line;
    for (const std::string& item : lane.items) out += "!   " + item + "\n";
    for (const std::string& source : lane.earlier) out += "    " + source + ": an earlier day's, counted tonight\n";
    for (const std::string& source : lane.later) out += "    " + source + ": paid after the night, a later night's\n";
  }
  if (!night.events_kept) out += "  (the day is past the replay window: its events are no longer kept)\n";
  if (night.unclaimed_events > 0)
    out += "  " + std::to_string(night.unclaimed_events) + " event(s) went to balcao.events.unclaimed\n";
  return out + "\n" + settlement::StoresText(night.account, "");
}

}  // namespace balcao::hub
