// The nightly settlement run (the I/O edge of settlement/settlement.h): reads one business
// day from the box's store (sale journal, outbox, store-and-forward outcomes) and from the
// bank, reconciles, feeds what the bank knows and the sales do not through the checkout
// driver (a pay-later invoice paid at the bank closes its sale; a late Pix is flagged), marks
// the card outcomes reported, and keeps the record. It also checks the sale journal's hash
// chain (offline::Journal::VerifyChain): a broken chain is in the report and makes it need
// the operator; the record keeps the journal's head. A day is settled once: running it again
// reads the record back, verifies the chain again and reads the bank's day again (the
// record's sales, reconciled without writing), saying what changed since the record (each
// change an item). `dry_run` computes the same report and writes nothing.
// Ownership: borrows the store, the bank and the clock. Thread-safety: one run at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "api/bank.h"
#include "common/status.h"
#include "common/time.h"
#include "offline/store.h"
#include "printer/templates.h"
#include "settlement/payout.h"
#include "settlement/settlement.h"

namespace balcao::settlement {

// Journals one event the bank implies for a sale, through the checkout driver that owns the
// sale (the service passes one that runs on its driver's thread: Resume if not open, Feed).
using Feeder = std::function<Status(const std::string& sale_id, const checkout::Event& event)>;

struct Settlement;

struct SettleOptions {
  std::string day;  // "YYYY-MM-DD"
  bool dry_run = false;
  // This box's lane (checkout::LaneRoot; docs/stores.md): other lanes' entities are shown as
  // such, never as orphans. "" = the lane of the box's most recent sale that has one.
  std::string lane;
  // Without a feeder, a run that owns the store (offline::Store::is_owner) feeds through a
  // driver of its own; a guest (the service holds the store) does not feed: it would race the
  // service's driver for the sales' journal sequence. The sales concerned stay in scope.
  Feeder feeder;
  // Told what the run is doing (pages read from the bank so far; `total` 0 when unknown) for
  // a progress display; may be empty. Called from one thread at a time, not always the
  // caller's.
  std::function<void(const std::string& stage, int done, int total)> progress;
  // The day's range lists read at once, each on its own connection (1..5; docs/settlement.md).
  int connections = 4;
  // The payout of the day's net to the merchant's account (settlement/payout.h); off by default.
  PayoutSettings payout;
  // The words of the report, the payout's lines and the re-check (settlement/words.h).
  Lang lang = Lang::kEnUs;
  // Called after the report and the payout, before the record is kept; an error ends the run
  // there, as a crash would (tests kill the run between the transfer and its record).
  std::function<Status(const Settlement&)> before_record;
};

struct Settlement {
  std::string day;
  bool already_settled = false;  // read back from the store: nothing was done now
  bool dry_run = false;
  std::int64_t settled_at_ms = 0;
  bool reconciled = false;
  int attention = 0;
  int sales = 0;  // sales counted in the day's totals
  std::int64_t gross = 0;
  std::int64_t refunds = 0;
  int bank_calls = 0;  // requests this run made to the bank (0 when read back)
  std::string json;    // settlement/report.h ReportJson (read back: the record's, byte for byte)
  std::string text;    // ReportText (read back: the record's; a chain broken since shows in both)
  // Read back: the re-check made now (docs/settlement.md, "Settling a day again"): the chain
  // and the bank read again, lines to print before `text`, and a JSON object ("recheck", its
  // "bank" part settlement/record_diff.h's). Empty when not read back.
  std::string recheck_text;
  std::string recheck_json;
};

StatusOr<Settlement> Settle(offline::Store& store, const api::Bank& bank, const Clock& clock,
                            const SettleOptions& options);

// The days settled so far, the most recent first (at most `limit`); `json` and `text` empty.
StatusOr<std::vector<Settlement>> ListSettlements(offline::Store& store, int limit = 31);

// Prints the end-of-day summary (printer::DaySummaryReceipt, profile "80mm") of a report
// to `target` (printer/transport.h: "file:PATH", "tcp://host:9100", "cups:QUEUE").
Status PrintDaySummary(const std::string& report_json, const std::string& target, const printer::Merchant& merchant,
                       UnixMicros printed_at);

}  // namespace balcao::settlement
