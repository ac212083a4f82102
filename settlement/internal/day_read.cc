#include "settlement/internal/day_read.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <optional>
#include <set>

#include "checkout/journal_codec.h"
#include "common/log.h"
#include "integration/tefdial/exchange_log.h"
#include "offline/outbox.h"
#include "offline/settlement_records.h"
#include "settlement/internal/bank_view.h"
#include "settlement/internal/recheck.h"

namespace balcao::settlement::internal {
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
  run.input.journal = CheckOf(chain);
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
StatusOr<BankDay> JoinBankDay(DayRun& run, std::future<StatusOr<DayLists>>& reading, const CountedBank& counted,
                              const JournaledFn& journaled, std::chrono::steady_clock::time_point started) {
  BALCAO_ASSIGN_OR_RETURN(DayLists lists, reading.get());
  // A sale final since an earlier night whose money went back at the bank today without its
  // journal knowing (a reversal at the dashboard): in scope again, so rule 2 shows it.
  BALCAO_ASSIGN_OR_RETURN(std::set<std::string> debited, lists.SalesWithDebits(counted.bank, journaled));
  for (const std::string& sale_id : debited) {
    if (run.seen_seq.count(sale_id)) continue;
    BALCAO_ASSIGN_OR_RETURN(std::optional<offline::ScopedSale> scoped, offline::ScopedSaleOf(run.store, sale_id));
    if (scoped && scoped->summary.opened_at_ms < run.to_ms) BALCAO_RETURN_IF_ERROR(AddSale(run, *scoped));
  }
  std::vector<ScopeSale> scope;
  scope.reserve(run.input.sales.size());
  for (std::size_t i = 0; i < run.input.sales.size(); ++i) {
    const JournalSale& sale = run.input.sales[i];
    scope.push_back({run.ids[i], sale.opened_at < run.from + kClockSkewMicros, sale.sale.settings.lane});
  }
  BALCAO_ASSIGN_OR_RETURN(BankDay day, lists.Assemble(counted.bank, scope, journaled));
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
  ReadOptions read_options;
  read_options.connections = run.options.connections;
  read_options.lane = run.input.lane;
  read_options.on_page = [&options = run.options](int pages) {
    if (options.progress) options.progress("pages read at the bank", pages, 0);
  };
  // Declared after what it reads: an early return waits for the reading before those go.
  std::future<StatusOr<DayLists>> reading =
      std::async(std::launch::async, [&counted, &read_options, from = run.from, to = run.to] {
        return DayLists::Read(counted.bank, from, to, read_options);
      });
  BALCAO_RETURN_IF_ERROR(ReadJournal(run));
  std::set<std::string> also_journaled;
  const JournaledFn journaled = [&run, &also_journaled](const std::string& sale_id) -> StatusOr<bool> {
    BALCAO_ASSIGN_OR_RETURN(bool known, offline::Journaled(run.store, sale_id));
    if (known) also_journaled.insert(sale_id);
    return known;
  };
  BALCAO_ASSIGN_OR_RETURN(BankDay bank_day, JoinBankDay(run, reading, counted, journaled, started));
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

}  // namespace

DayRun::DayRun(offline::Store& store, const api::Bank& bank, const Clock& clock, const SettleOptions& options,
               UnixMicros from)
    : store(store),
      bank(bank),
      clock(clock),
      options(options),
      from(from),
      to(from + kDayMicros),
      from_ms(from / 1000),
      to_ms(to / 1000),
      journal(store) {
  input.day = options.day;
  input.lang = options.lang;
  input.now = clock.Now();
}

Status ReadDay(DayRun& run) {
  BALCAO_RETURN_IF_ERROR(ReadSalesAndBank(run));
  return ReadBoxState(run);
}

}  // namespace balcao::settlement::internal
