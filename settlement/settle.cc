#include "settlement/settle.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checkout/driver/driver.h"
#include "offline/journal.h"
#include "offline/settlement_records.h"
#include "printer/profile.h"
#include "printer/render.h"
#include "printer/transport.h"
#include "settlement/internal/day_read.h"
#include "settlement/internal/money_out.h"
#include "settlement/internal/recheck.h"
#include "settlement/record_diff.h"
#include "settlement/report.h"

namespace balcao::settlement {
namespace {

using internal::DayRun;
using internal::MoneyOutInput;

// Feeds the events the reconciliation found through a driver of this run: the journal takes
// them exactly as a webhook or a poll would have delivered them. A rejection (the sale moved
// on meanwhile) is the machine's answer, not an error.
Status FeedSales(offline::Store& store, const api::Bank& bank, const Clock& clock, const std::vector<Feed>& feeds) {
  offline::Journal journal(store);
  checkout::Driver driver(bank, journal, clock);
  std::set<std::string> resumed;
  for (const Feed& feed : feeds) {
    if (resumed.insert(feed.sale_id).second) {
      BALCAO_RETURN_IF_ERROR(driver.Resume(feed.sale_id).status());
    }
    StatusOr<checkout::Sale> fed = driver.Feed(feed.sale_id, feed.event);
    if (!fed.ok() && fed.status().code() != StatusCode::kFailedPrecondition) return fed.status();
  }
  return OkStatus();
}

offline::SettlementRow RowOf(const Report& report, const std::string& json, const std::string& text,
                             std::int64_t now_ms) {
  return {report.day,
          now_ms,
          report.reconciled() ? "reconciled" : "attention",
          report.attention,
          report.total.count,
          report.total.gross,
          report.total.refunds,
          json,
          text};
}

// A day as its record keeps it (read back: nothing was done now). A listed row has no report.
Settlement FromRecord(const offline::SettlementRow& row) {
  return Settlement{.day = row.business_day,
                    .already_settled = true,
                    .settled_at_ms = row.settled_at_ms,
                    .reconciled = row.status == "reconciled",
                    .attention = row.attention,
                    .sales = row.sales,
                    .gross = row.gross,
                    .refunds = row.refunds,
                    .json = row.report_json,
                    .text = row.report_text};
}

// The reconciliation's report, with what the steps after it need of the day's input.
struct Reconciled {
  Report report;
  UnixMicros now = 0;
  MoneyOutInput money_out;
  bool feed_here = false;  // the report has events for the journal and this run may journal them
};

Reconciled ReconcileDay(DayRun& run, Settlement& result) {
  Reconciled day;
  day.report = Reconcile(run.input);
  Report& report = day.report;
  report.bank_calls = run.bank_calls;
  day.now = run.input.now;
  day.money_out = internal::MoneyOutOf(run.input);
  run.input = DayInput{};  // the sales' journals and the bank's entities: the report has what it needs
  day.feed_here = !report.feeds.empty() && !run.options.dry_run;
  if (day.feed_here && !run.options.feeder && !run.store.is_owner()) {
    DeferFeeds(report, "another process (the service) owns the store; its intake or the next settlement applies it");
  }
  result.settled_at_ms = day.now / 1000;
  result.reconciled = report.reconciled();
  result.attention = report.attention;
  result.sales = report.total.count;
  result.gross = report.total.gross;
  result.refunds = report.total.refunds;
  result.bank_calls = run.bank_calls;
  result.json = ReportJson(report);
  result.text = ReportText(report);
  return day;
}

// The events the reconciliation found, into the sales' journals; what this run journaled is
// then read: it does not bring the sale back tomorrow.
Status FeedJournal(DayRun& run, const Reconciled& day) {
  const Report& report = day.report;
  if (day.feed_here && run.options.feeder) {
    for (const Feed& feed : report.feeds) BALCAO_RETURN_IF_ERROR(run.options.feeder(feed.sale_id, feed.event));
  } else if (day.feed_here && !report.feeds_deferred) {
    BALCAO_RETURN_IF_ERROR(FeedSales(run.store, run.bank, run.clock, report.feeds));
  }
  if (day.feed_here && !report.feeds_deferred) {
    // Only when the journal grew by exactly those events: anything else (a refund the service
    // journaled meanwhile) is for the next night to read.
    std::map<std::string, std::int64_t> fed_count;
    for (const Feed& feed : report.feeds) ++fed_count[feed.sale_id];
    for (const auto& [sale_id, count] : fed_count) {
      BALCAO_ASSIGN_OR_RETURN(offline::SaleSummary fed, run.journal.Sale(sale_id));
      if (fed.last_seq == run.seen_seq[sale_id] + count) run.seen_seq[sale_id] = fed.last_seq;
    }
  }
  return OkStatus();
}

// Order for a crash in between: the sales first (a rerun finds them closed: same money),
// then the record, then the outcomes acknowledged (a crash before that reports them again
// the next night rather than never).
Status Record(DayRun& run, const Reconciled& day, const Settlement& result) {
  BALCAO_RETURN_IF_ERROR(FeedJournal(run, day));
  const Report& report = day.report;
  std::vector<offline::SaleMark> marks;
  for (const SaleFinding& f : report.sales) {
    marks.push_back(
        {f.sale_id, f.counted, f.done, run.seen_seq[f.sale_id], f.refunds_counted, f.late_returned_counted});
  }
  BALCAO_RETURN_IF_ERROR(
      offline::InsertSettlement(run.store, RowOf(report, result.json, result.text, day.now / 1000), marks));
  for (const ForwardedCard& card : report.card_outcomes) BALCAO_RETURN_IF_ERROR(run.sealed->MarkReported(card.sale_id));
  return OkStatus();
}

// A day settled before, read again (docs/settlement.md, "Settling a day again"): the record's
// sales as their journals stand now and the bank's day as it stands now, reconciled without
// writing or feeding anything; what differs from the record is said above it and each change
// is an item for the operator. The record itself is kept.
Status RecheckBank(offline::Store& store, const api::Bank& bank, const Clock& clock, const SettleOptions& options,
                   UnixMicros from, Settlement& result) {
  const nlohmann::json recorded = nlohmann::json::parse(result.json, nullptr, false);
  if (!recorded.is_object()) return DataLossError("the record of " + options.day + " is not a JSON report");
  std::vector<std::string> sale_ids;
  for (const nlohmann::json& sale : recorded.value("sales", nlohmann::json::array()))
    sale_ids.push_back(sale.value("id", ""));
  SettleOptions again = options;
  again.dry_run = true;
  DayRun run(store, bank, clock, again, from);
  run.record_sales = &sale_ids;
  BALCAO_RETURN_IF_ERROR(internal::ReadDay(run));
  Settlement now;
  ReconcileDay(run, now);
  result.bank_calls = now.bank_calls;
  BALCAO_ASSIGN_OR_RETURN(RecordDiff diff, DiffRecord(result.json, now.json, options.lang));
  result.recheck_text += diff.text;
  nlohmann::ordered_json recheck = nlohmann::ordered_json::parse(result.recheck_json, nullptr, false);
  if (!recheck.is_object()) recheck = nlohmann::ordered_json::object();
  recheck["bank"] = nlohmann::ordered_json::parse(diff.json);
  result.recheck_json = recheck.dump();
  if (diff.changes > 0) {
    result.reconciled = false;
    result.attention += diff.changes;
  }
  return OkStatus();
}

}  // namespace

StatusOr<Settlement> Settle(offline::Store& store, const api::Bank& bank, const Clock& clock,
                            const SettleOptions& options) {
  BALCAO_ASSIGN_OR_RETURN(UnixMicros from, BusinessDayStart(options.day));
  // An earlier run recorded the day: its result as recorded, not a second settlement.
  Status error;
  if (std::optional<offline::SettlementRow> row = offline::FindSettlement(store, options.day, error)) {
    Settlement result = FromRecord(*row);
    result.dry_run = options.dry_run;
    BALCAO_RETURN_IF_ERROR(internal::Recheck(store, clock, options.lang, result));
    BALCAO_RETURN_IF_ERROR(RecheckBank(store, bank, clock, options, from, result));
    return result;
  }
  BALCAO_RETURN_IF_ERROR(error);

  Settlement result;
  result.day = options.day;
  result.dry_run = options.dry_run;
  DayRun run(store, bank, clock, options, from);
  BALCAO_RETURN_IF_ERROR(internal::ReadDay(run));
  const Reconciled day = ReconcileDay(run, result);
  // The payout after the reconciliation and before the record: see AddMoneyOut.
  BALCAO_RETURN_IF_ERROR(internal::AddMoneyOut(bank, options, day.money_out, day.report, from, result));
  if (options.dry_run) return result;
  if (options.before_record) BALCAO_RETURN_IF_ERROR(options.before_record(result));
  BALCAO_RETURN_IF_ERROR(Record(run, day, result));
  return result;
}

StatusOr<std::vector<Settlement>> ListSettlements(offline::Store& store, int limit) {
  BALCAO_ASSIGN_OR_RETURN(auto rows, offline::ListSettlements(store, limit));
  std::vector<Settlement> days;
  for (const offline::SettlementRow& row : rows) days.push_back(FromRecord(row));
  return days;
}

Status PrintDaySummary(const std::string& report_json, const std::string& target, const printer::Merchant& merchant,
                       UnixMicros printed_at) {
  BALCAO_ASSIGN_OR_RETURN(printer::DaySummary summary, DaySummaryFromJson(report_json, merchant, printed_at));
  AddMoneyOutToSummary(report_json, summary);
  const printer::PrinterProfile* profile = printer::FindProfile("80mm");
  if (profile == nullptr) return InternalError("printer profile 80mm is missing");
  BALCAO_ASSIGN_OR_RETURN(std::string bytes, printer::RenderEscPos(printer::DaySummaryReceipt(summary), *profile));
  BALCAO_ASSIGN_OR_RETURN(auto transport, printer::OpenTransport(target));
  return transport->Send(bytes, {}).status();
}

}  // namespace balcao::settlement
