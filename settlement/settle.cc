#include "settlement/settle.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checkout/driver/driver.h"
#include "checkout/journal_codec.h"
#include "common/log.h"
#include "integration/tefdial/exchange_log.h"
#include "offline/journal.h"
#include "offline/outbox.h"
#include "offline/sealed_cards.h"
#include "offline/settlement_records.h"
#include "printer/profile.h"
#include "printer/render.h"
#include "printer/transport.h"
#include "settlement/internal/bank_view.h"
#include "settlement/internal/recheck.h"
#include "settlement/record_diff.h"
#include "settlement/report.h"
#include "settlement/store_payout.h"

namespace balcao::settlement {
namespace {

constexpr std::int64_t kDayMicros = 86400LL * kMicrosPerSecond;
// A sale opened this close to the day's start may have entities the bank stamped before it
// (the bank's clock behind the box's): it is looked up by tag, not found in the range lists.
constexpr std::int64_t kClockSkewMicros = 5LL * 60 * kMicrosPerSecond;

// The bank as the run reads it: every call counted (and told to the client's own observer,
// if it has one, such as the service's metrics).
struct CountedBank {
  explicit CountedBank(const api::Bank& bank)
      : calls(std::make_shared<std::atomic<int>>(0)), bank([&] {
          api::CallObserver previous = bank.client().options().observer;
          return bank.client().WithObserver([calls = calls, previous](const api::CallRecord& record) {
            ++*calls;
            if (previous) previous(record);
          });
        }()) {}
  std::shared_ptr<std::atomic<int>> calls;
  api::Bank bank;
};

// A sale's journal, replayed; the events kept for when each return happened.
StatusOr<JournalSale> ReadSale(offline::Journal& journal, const offline::ScopedSale& scoped, std::int64_t from_ms) {
  const offline::SaleSummary& s = scoped.summary;
  BALCAO_ASSIGN_OR_RETURN(auto entries, journal.Read(s.sale_id));
  JournalSale sale;
  std::size_t seen = 0;  // events up to the sequence the last settlement read
  for (const offline::JournalEntry& entry : entries) {
    StatusOr<checkout::Event> event = checkout::EventFromJson(entry.payload);
    if (!event.ok()) {
      return Status(event.status().code(), "journal of sale " + s.sale_id + " event " + std::to_string(entry.seq) +
                                               ": " + event.status().message());
    }
    sale.events.push_back(*std::move(event));
    if (entry.seq <= scoped.seen_seq) seen = sale.events.size();
  }
  sale.sale = checkout::Replay(sale.events);
  sale.opened_at = s.opened_at_ms * 1000;
  sale.in_day = s.opened_at_ms >= from_ms;
  sale.counted_before = scoped.counted_before;
  if (scoped.refunds_counted && scoped.late_returned_counted) {
    sale.refunds_counted = *scoped.refunds_counted;
    sale.late_returned_counted = *scoped.late_returned_counted;
  } else if (scoped.counted_before) {
    // Kept before migration 0003: the returns as they stood when last read were counted then.
    const std::vector<checkout::Event> read(sale.events.begin(), sale.events.begin() + seen);
    const Returns counted = ReturnsOf(checkout::Replay(read));
    sale.refunds_counted = counted.payment;
    sale.late_returned_counted = counted.late;
  }
  return sale;
}

StatusOr<std::vector<PendingRequest>> AtRisk(offline::Store& store, std::int64_t until_ms) {
  offline::Outbox outbox(store);
  std::vector<PendingRequest> rows;
  for (auto state : {offline::OutboxState::kPending, offline::OutboxState::kInflight, offline::OutboxState::kUnknown,
                     offline::OutboxState::kFailed, offline::OutboxState::kDead}) {
    BALCAO_ASSIGN_OR_RETURN(auto items, outbox.List(state, 10'000));
    for (const offline::OutboxItem& item : items) {
      if (item.dropped || item.created_at_ms >= until_ms) continue;
      rows.push_back({item.id, item.request.key, item.request.kind, offline::OutboxStateName(item.state),
                      item.request.sale_id, item.request.amount, item.last_error});
    }
  }
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return rows;
}

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

// What the payout and the receivables need of the day's input, kept when the input is let go.
struct MoneyOutInput {
  std::vector<std::string> purchases;  // the day's card purchases of this box's sales
  bool balance_known = false;
  std::int64_t balance = 0;
  std::string lane;  // this box's lane root ("" for a box without one)
};

MoneyOutInput MoneyOutOf(const DayInput& input) {
  MoneyOutInput out{{}, input.ledger.balance_known, input.ledger.balance, input.lane};
  for (const BankEntity& e : input.bank)
    if (e.kind == BankKind::kPurchase && !e.sale_id.empty()) out.purchases.push_back(e.id);
  return out;
}

// The store's payout (settlement/store_payout.h) when the box has a lane and payouts are per
// store; else this lane's (or a box's without lanes) own net under its own externalId.
StatusOr<Payout> DecidePayout(const api::Bank& bank, const SettleOptions& options, const MoneyOutInput& input,
                              const Report& report) {
  const bool has_lane = input.lane.starts_with(checkout::kStoreTagPrefix);
  if (options.payout.enabled && !options.payout.per_lane && has_lane) {
    const auto [store_id, terminal] = SplitLaneRoot(input.lane);
    StorePayoutRun run{options.day,         store_id,         terminal,
                       report.reconciled(), report.attention, options.dry_run,
                       input.balance_known, input.balance};
    run.connections = options.connections;
    return RunStorePayout(bank, options.payout, run);
  }
  PayoutInput payout_input{options.day,         report.reconciled(),
                           options.dry_run,     report.total.gross - report.total.refunds,
                           input.balance_known, input.balance};
  if (options.payout.per_lane && has_lane)
    payout_input.external_id = PayoutExternalId(options.payout.store, options.day, SplitLaneRoot(input.lane).second);
  return RunPayout(bank, options.payout, payout_input);
}

// The payout (after the reconciliation, before the record: a run that dies in between finds
// the transfer by its externalId the next time) and the card receivables, into the report.
Status AddMoneyOut(const api::Bank& bank, const SettleOptions& options, const MoneyOutInput& input,
                   const Report& report, UnixMicros from, Settlement& result) {
  const std::vector<std::string>& purchases = input.purchases;
  BALCAO_ASSIGN_OR_RETURN(std::vector<Receivable> receivables, ReadReceivables(bank, purchases, from));
  BALCAO_ASSIGN_OR_RETURN(Payout payout, DecidePayout(bank, options, input, report));
  result.json = WithMoneyOut(result.json, payout, receivables);
  result.text += MoneyOutText(payout, receivables, report.lang);
  return OkStatus();
}

// What the steps of one settlement share: the day's bounds, the input gathered for the
// reconciliation, and the journal sequence each sale was read up to (the record keeps it, so
// the next night reads only what came after).
struct DayRun {
  DayRun(offline::Store& store, const api::Bank& bank, const Clock& clock, const SettleOptions& options,
         UnixMicros from)
      : store(store),
        bank(bank),
        clock(clock),
        options(options),
        from(from),
        to(from + kDayMicros),
        from_ms(from / 1000),
        to_ms(to / 1000),
        journal(store) {}
  offline::Store& store;
  const api::Bank& bank;
  const Clock& clock;
  const SettleOptions& options;
  const UnixMicros from;
  const UnixMicros to;
  const std::int64_t from_ms;
  const std::int64_t to_ms;
  offline::Journal journal;
  DayInput input;
  std::vector<std::string> ids;  // the sale ids of input.sales, in the same order
  std::map<std::string, std::int64_t> seen_seq;
  int bank_calls = 0;  // the calls the bank's day took to read
  std::unique_ptr<offline::SealedCards> sealed;
  // A day read again (RecheckBank): the record's sales instead of those in scope tonight.
  const std::vector<std::string>* record_sales = nullptr;
};

// An earlier run recorded the day: its result as recorded, not a second settlement.
Status FindRecorded(offline::Store& store, Settlement& result) {
  Status error;
  if (auto row = offline::FindSettlement(store, result.day, error)) {
    result.already_settled = true;
    result.settled_at_ms = row->settled_at_ms;
    result.reconciled = row->status == "reconciled";
    result.attention = row->attention;
    result.sales = row->sales;
    result.gross = row->gross;
    result.refunds = row->refunds;
    result.json = row->report_json;
    result.text = row->report_text;
    return OkStatus();
  }
  return error;
}

Status AddSale(DayRun& run, const offline::ScopedSale& scoped) {
  const offline::SaleSummary& s = scoped.summary;
  BALCAO_ASSIGN_OR_RETURN(JournalSale sale, ReadSale(run.journal, scoped, run.from_ms));
  run.input.sales.push_back(std::move(sale));
  run.input.journaled.insert(s.sale_id);
  run.ids.push_back(s.sale_id);
  run.seen_seq[s.sale_id] = s.last_seq;
  return OkStatus();
}

Status ReadJournal(DayRun& run) {
  // The journal's chain first: a report computed from a journal changed behind the store's
  // back says so (one item for the operator).
  BALCAO_ASSIGN_OR_RETURN(offline::ChainVerdict chain, run.journal.VerifyChain());
  run.input.journal = internal::CheckOf(chain);
  if (run.record_sales != nullptr) {
    for (const std::string& sale_id : *run.record_sales) {
      BALCAO_ASSIGN_OR_RETURN(std::optional<offline::ScopedSale> scoped, offline::ScopedSaleOf(run.store, sale_id));
      if (scoped) BALCAO_RETURN_IF_ERROR(AddSale(run, *scoped));
    }
    return OkStatus();
  }
  BALCAO_ASSIGN_OR_RETURN(auto summaries, offline::SalesInScope(run.store, run.from_ms, run.to_ms));
  run.input.sales.reserve(summaries.size());
  for (const offline::ScopedSale& scoped : summaries) BALCAO_RETURN_IF_ERROR(AddSale(run, scoped));
  return OkStatus();
}

// The bank's lists, once read, joined with the journal's sales; the lists are dropped on return.
StatusOr<internal::BankDay> JoinBankDay(DayRun& run, std::future<StatusOr<internal::DayLists>>& reading,
                                        const CountedBank& counted, const internal::JournaledFn& journaled,
                                        std::chrono::steady_clock::time_point started) {
  BALCAO_ASSIGN_OR_RETURN(internal::DayLists lists, reading.get());
  // A sale final since an earlier night whose money went back at the bank today without its
  // journal knowing (a reversal at the dashboard): in scope again, so rule 2 shows it.
  BALCAO_ASSIGN_OR_RETURN(std::set<std::string> debited, lists.SalesWithDebits(counted.bank, journaled));
  for (const std::string& sale_id : debited) {
    if (run.seen_seq.count(sale_id)) continue;
    BALCAO_ASSIGN_OR_RETURN(std::optional<offline::ScopedSale> scoped, offline::ScopedSaleOf(run.store, sale_id));
    if (scoped && scoped->summary.opened_at_ms < run.to_ms) BALCAO_RETURN_IF_ERROR(AddSale(run, *scoped));
  }
  std::vector<internal::ScopeSale> scope;
  scope.reserve(run.input.sales.size());
  for (std::size_t i = 0; i < run.input.sales.size(); ++i) {
    const JournalSale& sale = run.input.sales[i];
    scope.push_back({run.ids[i], sale.opened_at < run.from + kClockSkewMicros, sale.sale.settings.lane});
  }
  BALCAO_ASSIGN_OR_RETURN(internal::BankDay day, lists.Assemble(counted.bank, scope, journaled));
  const auto read_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  logging::Info("settlement", "bank read",
                {{"day", run.options.day},
                 {"bank_calls", counted.calls->load()},
                 {"range_pages", lists.counts().range_pages},
                 {"lookup_calls", lists.counts().lookup_calls},
                 {"lookup_sales", lists.counts().lookup_sales},
                 {"sales", static_cast<std::int64_t>(run.input.sales.size())},
                 {"entities", static_cast<std::int64_t>(day.entities.size())},
                 {"connections", run.options.connections},
                 {"ms", static_cast<std::int64_t>(read_ms)}});
  return day;
}

// The day's sales from the journal and the day's entities from the bank, into run.input.
Status ReadSalesAndBank(DayRun& run) {
  // The bank by pages: each resource listed once for the day and what followed it. The lists
  // do not depend on the journal, so they are read while the journal is (the run's wall time
  // is then about the pages' own); they are dropped once joined.
  const CountedBank counted(run.bank);
  const auto started = std::chrono::steady_clock::now();
  // This box's lane: the entities of other lanes are shown apart (docs/stores.md).
  run.input.lane = run.options.lane;
  if (run.input.lane.empty()) {
    BALCAO_ASSIGN_OR_RETURN(run.input.lane, offline::LatestLane(run.store));
  }
  internal::ReadOptions read_options;
  read_options.connections = run.options.connections;
  read_options.lane = run.input.lane;
  read_options.on_page = [&options = run.options](int pages) {
    if (options.progress) options.progress("pages read at the bank", pages, 0);
  };
  // Declared after what it reads: an early return waits for the reading before those go.
  std::future<StatusOr<internal::DayLists>> reading =
      std::async(std::launch::async, [&counted, &read_options, from = run.from, to = run.to] {
        return internal::DayLists::Read(counted.bank, from, to, read_options);
      });
  BALCAO_RETURN_IF_ERROR(ReadJournal(run));
  std::set<std::string> also_journaled;
  const internal::JournaledFn journaled = [&run, &also_journaled](const std::string& sale_id) -> StatusOr<bool> {
    BALCAO_ASSIGN_OR_RETURN(bool known, offline::Journaled(run.store, sale_id));
    if (known) also_journaled.insert(sale_id);
    return known;
  };
  BALCAO_ASSIGN_OR_RETURN(internal::BankDay bank_day, JoinBankDay(run, reading, counted, journaled, started));
  run.bank_calls = counted.calls->load();
  run.input.journaled.insert(also_journaled.begin(), also_journaled.end());
  run.input.bank = std::move(bank_day.entities);
  run.input.ledger = bank_day.ledger;
  return OkStatus();
}

// What the box itself holds about the day beside the journal: requests still at risk in the
// outbox, card outcomes not yet reported, and TEF Dial's exchanges.
Status ReadBoxState(DayRun& run) {
  BALCAO_ASSIGN_OR_RETURN(run.input.outbox, AtRisk(run.store, run.to_ms));
  BALCAO_ASSIGN_OR_RETURN(run.sealed, offline::SealedCards::Open(run.store, offline::StoreAndForwardSettings{}));
  BALCAO_ASSIGN_OR_RETURN(auto outcomes, run.sealed->UnreportedOutcomes());
  for (const offline::CardOutcome& o : outcomes) {
    run.input.card_outcomes.push_back(
        {o.sale_id, o.amount, o.masked_pan, offline::CardOutcomeName(o.outcome), o.reason, o.bank_id});
  }
  // TEF Dial's exchange log sits beside the store in the data dir (terminal/service/tef_dial.cc).
  const std::filesystem::path exchange_log = std::filesystem::path(run.store.path()).parent_path() / "tefdial.jsonl";
  if (std::filesystem::exists(exchange_log)) {
    BALCAO_ASSIGN_OR_RETURN(const integration::tefdial::Exchange exchange,
                            integration::tefdial::ReadExchangeLog(exchange_log.string()));
    run.input.tef_dial = CountTefDial(exchange, run.from, run.to);
  }
  return OkStatus();
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
  day.money_out = MoneyOutOf(run.input);
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
  run.input.day = options.day;
  run.input.lang = options.lang;
  run.input.now = clock.Now();
  BALCAO_RETURN_IF_ERROR(ReadSalesAndBank(run));
  BALCAO_RETURN_IF_ERROR(ReadBoxState(run));
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
  Settlement result;
  result.day = options.day;
  result.dry_run = options.dry_run;
  BALCAO_RETURN_IF_ERROR(FindRecorded(store, result));
  if (result.already_settled) {
    BALCAO_RETURN_IF_ERROR(internal::Recheck(store, clock, options.lang, result));
    BALCAO_RETURN_IF_ERROR(RecheckBank(store, bank, clock, options, from, result));
    return result;
  }

  DayRun run(store, bank, clock, options, from);
  run.input.day = options.day;
  run.input.lang = options.lang;
  run.input.now = clock.Now();
  BALCAO_RETURN_IF_ERROR(ReadSalesAndBank(run));
  BALCAO_RETURN_IF_ERROR(ReadBoxState(run));
  const Reconciled day = ReconcileDay(run, result);
  // The payout after the reconciliation and before the record: see AddMoneyOut.
  BALCAO_RETURN_IF_ERROR(AddMoneyOut(bank, options, day.money_out, day.report, from, result));
  if (options.dry_run) return result;
  if (options.before_record) BALCAO_RETURN_IF_ERROR(options.before_record(result));
  BALCAO_RETURN_IF_ERROR(Record(run, day, result));
  return result;
}

StatusOr<std::vector<Settlement>> ListSettlements(offline::Store& store, int limit) {
  BALCAO_ASSIGN_OR_RETURN(auto rows, offline::ListSettlements(store, limit));
  std::vector<Settlement> days;
  for (const offline::SettlementRow& row : rows) {
    Settlement day;
    day.day = row.business_day;
    day.already_settled = true;
    day.settled_at_ms = row.settled_at_ms;
    day.reconciled = row.status == "reconciled";
    day.attention = row.attention;
    day.sales = row.sales;
    day.gross = row.gross;
    day.refunds = row.refunds;
    days.push_back(std::move(day));
  }
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
