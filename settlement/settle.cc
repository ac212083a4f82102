#include "settlement/settle.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checkout/driver.h"
#include "checkout/journal_codec.h"
#include "integration/tefdial/exchange_log.h"
#include "offline/journal.h"
#include "offline/outbox.h"
#include "offline/sealed_cards.h"
#include "offline/settlement_records.h"
#include "printer/profile.h"
#include "printer/render.h"
#include "printer/transport.h"
#include "settlement/internal/bank_view.h"
#include "settlement/report.h"

namespace balcao::settlement {
namespace {

constexpr std::int64_t kDayMicros = 86400LL * kMicrosPerSecond;

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

JournalCheck CheckOf(const offline::ChainVerdict& verdict) {
  JournalCheck check;
  check.checked = true;
  check.verified = verdict.ok();
  check.rows = verdict.rows;
  check.head = offline::HexOf(verdict.head);
  if (verdict.broken) {
    const offline::ChainBreak& b = *verdict.broken;
    check.broken_row = b.position;
    check.broken_sale_id = b.sale_id;
    check.broken_seq = b.seq;
    check.broken_kind = offline::ChainBreakName(b.kind);
    check.broken_detail = b.detail;
  }
  return check;
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

}  // namespace

StatusOr<Settlement> Settle(offline::Store& store, const api::Bank& bank, const Clock& clock,
                            const SettleOptions& options) {
  BALCAO_ASSIGN_OR_RETURN(UnixMicros from, BusinessDayStart(options.day));
  const UnixMicros to = from + kDayMicros;
  Settlement result;
  result.day = options.day;
  result.dry_run = options.dry_run;

  Status error;
  if (auto row = offline::FindSettlement(store, options.day, error)) {
    result.already_settled = true;
    result.settled_at_ms = row->settled_at_ms;
    result.reconciled = row->status == "reconciled";
    result.attention = row->attention;
    result.sales = row->sales;
    result.gross = row->gross;
    result.refunds = row->refunds;
    result.json = row->report_json;
    result.text = row->report_text;
    return result;
  }
  BALCAO_RETURN_IF_ERROR(error);

  DayInput input;
  input.day = options.day;
  input.now = clock.Now();
  const std::int64_t from_ms = from / 1000, to_ms = to / 1000;
  offline::Journal journal(store);
  // The journal's chain first: a report computed from a journal changed behind the store's
  // back says so (one item for the operator).
  BALCAO_ASSIGN_OR_RETURN(offline::ChainVerdict chain, journal.VerifyChain());
  input.journal = CheckOf(chain);
  BALCAO_ASSIGN_OR_RETURN(auto summaries, offline::SalesInScope(store, from_ms, to_ms));
  std::vector<std::string> ids;
  std::map<std::string, std::int64_t> seen_seq;
  auto add = [&](const offline::ScopedSale& scoped) -> Status {
    const offline::SaleSummary& s = scoped.summary;
    BALCAO_ASSIGN_OR_RETURN(JournalSale sale, ReadSale(journal, scoped, from_ms));
    input.sales.push_back(std::move(sale));
    input.journaled.insert(s.sale_id);
    ids.push_back(s.sale_id);
    seen_seq[s.sale_id] = s.last_seq;
    return OkStatus();
  };
  for (const offline::ScopedSale& scoped : summaries) BALCAO_RETURN_IF_ERROR(add(scoped));
  std::set<std::string> also_journaled;
  const internal::JournaledFn journaled = [&](const std::string& sale_id) -> StatusOr<bool> {
    BALCAO_ASSIGN_OR_RETURN(bool known, offline::Journaled(store, sale_id));
    if (known) also_journaled.insert(sale_id);
    return known;
  };
  // A sale final since an earlier night whose money went back at the bank today without its
  // journal knowing (a reversal at the dashboard): in scope again, so rule 2 shows it.
  BALCAO_ASSIGN_OR_RETURN(std::set<std::string> debited, internal::SalesWithDebits(bank, from, to, journaled));
  for (const std::string& sale_id : debited) {
    if (seen_seq.count(sale_id)) continue;
    BALCAO_ASSIGN_OR_RETURN(std::optional<offline::ScopedSale> scoped, offline::ScopedSaleOf(store, sale_id));
    if (scoped && scoped->summary.opened_at_ms < to_ms) BALCAO_RETURN_IF_ERROR(add(*scoped));
  }
  const auto sale_read = [&options](int done, int total) {
    if (options.progress) options.progress("sales read at the bank", done, total);
  };
  BALCAO_ASSIGN_OR_RETURN(internal::BankDay bank_day, internal::ReadBank(bank, ids, from, to, journaled, sale_read));
  input.journaled.insert(also_journaled.begin(), also_journaled.end());
  input.bank = std::move(bank_day.entities);
  input.ledger = bank_day.ledger;
  BALCAO_ASSIGN_OR_RETURN(input.outbox, AtRisk(store, to_ms));
  BALCAO_ASSIGN_OR_RETURN(auto sealed, offline::SealedCards::Open(store, offline::StoreAndForwardSettings{}));
  BALCAO_ASSIGN_OR_RETURN(auto outcomes, sealed->UnreportedOutcomes());
  for (const offline::CardOutcome& o : outcomes) {
    input.card_outcomes.push_back(
        {o.sale_id, o.amount, o.masked_pan, offline::CardOutcomeName(o.outcome), o.reason, o.bank_id});
  }

  // TEF Dial's exchange log sits beside the store in the data dir (terminal/service/tef_dial.cc).
  const std::filesystem::path exchange_log = std::filesystem::path(store.path()).parent_path() / "tefdial.jsonl";
  if (std::filesystem::exists(exchange_log)) {
    BALCAO_ASSIGN_OR_RETURN(const integration::tefdial::Exchange exchange,
                            integration::tefdial::ReadExchangeLog(exchange_log.string()));
    input.tef_dial = CountTefDial(exchange, from, to);
  }

  Report report = Reconcile(input);
  const bool feed_here = !report.feeds.empty() && !options.dry_run;
  if (feed_here && !options.feeder && !store.is_owner()) {
    DeferFeeds(report, "another process (the service) owns the store; its intake or the next settlement applies it");
  }
  result.settled_at_ms = input.now / 1000;
  result.reconciled = report.reconciled();
  result.attention = report.attention;
  result.sales = report.total.count;
  result.gross = report.total.gross;
  result.refunds = report.total.refunds;
  result.json = ReportJson(report);
  result.text = ReportText(report);
  if (options.dry_run) return result;

  // Order for a crash in between: the sales first (a rerun finds them closed: same money),
  // then the record, then the outcomes acknowledged (a crash before that reports them again
  // the next night rather than never).
  if (feed_here && options.feeder) {
    for (const Feed& feed : report.feeds) BALCAO_RETURN_IF_ERROR(options.feeder(feed.sale_id, feed.event));
  } else if (feed_here && !report.feeds_deferred) {
    BALCAO_RETURN_IF_ERROR(FeedSales(store, bank, clock, report.feeds));
  }
  if (feed_here && !report.feeds_deferred) {
    // What this run journaled is read: it does not bring the sale back tomorrow. Only when the
    // journal grew by exactly those events: anything else (a refund the service journaled
    // meanwhile) is for the next night to read.
    std::map<std::string, std::int64_t> fed_count;
    for (const Feed& feed : report.feeds) ++fed_count[feed.sale_id];
    for (const auto& [sale_id, count] : fed_count) {
      BALCAO_ASSIGN_OR_RETURN(offline::SaleSummary fed, journal.Sale(sale_id));
      if (fed.last_seq == seen_seq[sale_id] + count) seen_seq[sale_id] = fed.last_seq;
    }
  }
  std::vector<offline::SaleMark> marks;
  for (const SaleFinding& f : report.sales) {
    marks.push_back({f.sale_id, f.counted, f.done, seen_seq[f.sale_id], f.refunds_counted, f.late_returned_counted});
  }
  BALCAO_RETURN_IF_ERROR(
      offline::InsertSettlement(store, RowOf(report, result.json, result.text, input.now / 1000), marks));
  for (const ForwardedCard& card : report.card_outcomes) BALCAO_RETURN_IF_ERROR(sealed->MarkReported(card.sale_id));
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
  const printer::PrinterProfile* profile = printer::FindProfile("80mm");
  if (profile == nullptr) return InternalError("printer profile 80mm is missing");
  BALCAO_ASSIGN_OR_RETURN(std::string bytes, printer::RenderEscPos(printer::DaySummaryReceipt(summary), *profile));
  BALCAO_ASSIGN_OR_RETURN(auto transport, printer::OpenTransport(target));
  return transport->Send(bytes, {}).status();
}

}  // namespace balcao::settlement
