// The nightly settlement's rules: one business day of sales (replayed from the journal)
// matched against what the bank holds for them, classified, totalled. Pure: no I/O, no
// clock (the day's inputs carry `now`); the I/O edge (settlement/settle.h) gathers the
// inputs, applies the events this asks for through the checkout driver, and persists.
// Money is int64 cents. Thread-safety: pure functions over values.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "checkout/checkout.h"
#include "common/status.h"
#include "common/time.h"
#include "integration/tefdial/exchange.h"

namespace balcao::settlement {

using checkout::Cents;

// The language of the report's words (settlement/words.h).
enum class Lang { kPtBr, kEnUs };

enum class BankKind { kPurchase, kDeposit, kInvoice };
const char* BankKindName(BankKind kind);  // "purchase", "deposit", "invoice"

// One bank entity that holds (or may hold) money for a sale, as the bank shows it now.
struct BankEntity {
  BankKind kind = BankKind::kPurchase;
  std::string id;
  std::string sale_id;      // from its tags (a deposit: from its brcode's tags); "" when none
  std::string status;       // as the bank spells it
  Cents amount = 0;         // the entity's amount now (after reversals)
  std::string funding;      // purchases: "credit" or "debit"
  std::string brcode_uuid;  // deposits: the dynamic brcode it paid
  UnixMicros created = 0;
  UnixMicros due = 0;    // invoices
  Cents ledger_in = 0;   // ledger credits of this entity, fees added back (what it received)
  Cents ledger_out = 0;  // ledger debits of this entity, positive (what went back)
  std::string lane;      // the lane its tags name (checkout::LaneRoot); "" for the old layout
  std::string party;     // who paid (a deposit) or is billed (an invoice): "name (tax id)"; "" unknown
};
// What the entity holds for the merchant now: a charged purchase, a paid invoice, a deposit.
Cents HeldBy(const BankEntity& entity);
// A card purchase approved but not yet captured: it holds money, the ledger has none yet.
bool AwaitingCapture(const BankEntity& entity);
// The ledger's `source` of the entity's transactions ("invoice/<id>", "deposit/<id>"...).
std::string SourceOf(const BankEntity& entity);

struct JournalSale {
  checkout::Sale sale;  // replayed from its journal
  UnixMicros opened_at = 0;
  bool in_day = false;          // opened in the business day (else: an earlier day's, not done)
  bool counted_before = false;  // an earlier settlement's totals hold its payment already
  // The journal's events (Replay gives `sale`): when each return happened. Empty: every
  // return the sale carries counts as made by the day's end.
  std::vector<checkout::Event> events;
  Cents refunds_counted = 0;        // payment given back that earlier nights' totals hold
  Cents late_returned_counted = 0;  // late money given back that earlier nights reported
};

// An outbox row not done (pending, inflight, unknown, failed, dead) and not dropped.
struct PendingRequest {
  std::int64_t id = 0;
  std::string key;
  std::string kind;
  std::string state;
  std::string sale_id;
  Cents amount = 0;
  std::string last_error;
};

// A store-and-forward card outcome not yet reported (offline::SealedCards).
struct ForwardedCard {
  std::string sale_id;
  Cents amount = 0;
  std::string masked_pan;
  std::string outcome;  // "approved", "declined", "expired"
  std::string reason;
  std::string bank_id;
};

// The bank's ledger for the business day (GET /v2/transaction) and the balance now.
struct LedgerDay {
  bool known = false;
  int count = 0;
  Cents credits = 0;    // Σ positive amounts
  Cents debits = 0;     // Σ negative amounts, positive
  Cents sales_net = 0;  // the part whose source is an entity of a sale in this report
  bool balance_known = false;
  Cents balance = 0;
};

// The sale journal's hash chain as the run found it (offline/journal_chain.h): a broken
// chain means the journal this report was computed from was changed behind the store's back.
struct JournalCheck {
  bool checked = false;  // false: not verified (hand-built inputs); the report says nothing
  bool verified = false;
  std::int64_t rows = 0;
  std::string head;  // the last row's hash, hex
  // The first break when not verified: where ("row" is the journal position; 0 for a sale
  // whose last events are gone), which sale and event, what broke, in words.
  std::int64_t broken_row = 0;
  std::string broken_sale_id;
  std::int64_t broken_seq = 0;
  std::string broken_kind;  // "row missing", "link broken", "content changed", ...
  std::string broken_detail;
};

// The day's TEF Dial sales (integration/tefdial) by the PDV's fiscal document, as the two-phase
// confirmation left them: pending (neither CNF nor NCN, and the unresolved-sale policy has not
// run: the operator looks), confirmed (money kept), undone (NCN or the policy gave it back),
// cancelled (CNC gave a confirmed sale's money back), declined.
struct TefDialDocument {
  std::string fiscal_document;  // "" when the PDV sent none
  int pending = 0, confirmed = 0, undone = 0, cancelled = 0, declined = 0;
  Cents pending_amount = 0, confirmed_amount = 0, undone_amount = 0, cancelled_amount = 0;
  std::vector<std::string> notes;  // "NSU 000002 undone by policy", one per sale the policy settled
};
struct TefDialDay {
  bool present = false;                    // the box runs TEF Dial (its exchange log exists)
  std::vector<TefDialDocument> documents;  // by fiscal document number
  TefDialDocument total;
};
// The TEF Dial sales whose CRT came in [from, to), counted per fiscal document.
TefDialDay CountTefDial(const integration::tefdial::Exchange& exchange, UnixMicros from, UnixMicros to);

struct DayInput {
  std::string day;   // "YYYY-MM-DD", America/Sao_Paulo (BusinessDayOf, common/time.h)
  std::string lane;  // this box's lane (checkout::LaneRoot); "" for a box without one
  UnixMicros now = 0;
  std::vector<JournalSale> sales;
  std::vector<BankEntity> bank;     // the sales' entities, and tagged entities of the day
  std::set<std::string> journaled;  // every sale id the journal has (any day)
  std::vector<PendingRequest> outbox;
  std::vector<ForwardedCard> card_outcomes;
  LedgerDay ledger;
  JournalCheck journal;
  TefDialDay tef_dial;
  Lang lang = Lang::kEnUs;  // the report's words (the notes too)
};

enum class SaleClass {
  kMatched,          // paid; the sale's money equals the bank's, to the cent
  kRefunded,         // paid then given back in full; the bank agrees
  kVoided,           // nothing kept, nothing at the bank
  kPayLaterClosed,   // a pay-later invoice the bank paid (or canceled): closed by this settlement
  kPayLaterOpen,     // the customer has not paid yet, not due
  kPayLaterOverdue,  // past due and unpaid
  kLateMoney,        // money received after the sale moved on, still to give back
  kUnfinished,       // left in the middle (a lookup, a reversal, a queued request)
  kDiscrepancy,      // the journal and the bank disagree
};
const char* SaleClassName(SaleClass c);  // "matched", "pay-later-open", ...

struct SaleFinding {
  std::string sale_id;
  std::string method;  // "credit", "debit", "pix", "invoice", or "" when nothing was chosen
  std::string state;   // after the settlement's events
  SaleClass cls = SaleClass::kMatched;
  bool in_day = false;
  bool attention = false;  // the operator must act
  bool counted = false;    // its payment is in this report's totals (a sale is counted once)
  bool done = false;       // final: later nights need not look at it again
  Cents amount = 0;        // the sale's amount
  Cents collected = 0;     // the journal's payment net
  Cents bank_net = 0;      // what the bank holds for the sale now
  Cents late_outstanding = 0;
  Cents refunded_tonight = 0;       // payment given back that this report's totals count
  Cents late_returned_tonight = 0;  // late money given back that this report shows
  // What all nights up to this one counted (the edge keeps them for the next night).
  Cents refunds_counted = 0;
  Cents late_returned_counted = 0;
  std::vector<std::string> notes;  // why, in words
};

// An event the settlement learned from the bank that the sale's journal must take (through
// the checkout driver, so the journal stays the one truth).
struct Feed {
  std::string sale_id;
  checkout::Event event;
};

struct MethodTotal {
  std::string method;  // "credit", "debit", "pix", "invoice"
  int count = 0;       // sales paid by this method
  Cents gross = 0;     // received
  int refund_count = 0;
  Cents refunds = 0;  // given back
  Cents net() const { return gross - refunds; }
};

struct Report {
  std::string day;
  UnixMicros settled_at = 0;
  std::vector<SaleFinding> sales;   // in the input's order
  std::vector<Feed> feeds;          // in order; applied to `sales` already (pure replay)
  bool feeds_deferred = false;      // not journaled by this run (DeferFeeds)
  std::vector<MethodTotal> totals;  // credit, debit, pix, invoice (always the four)
  MethodTotal total;                // all methods ("total")
  int late_returned_count = 0;      // late money given back in the day (not revenue: not in totals)
  Cents late_returned = 0;
  std::vector<BankEntity> orphans;      // tagged for a sale this box never journaled
  std::vector<BankEntity> other_lanes;  // created in the day by other lanes (not this box's to act on)
  std::vector<PendingRequest> outbox;
  Cents outbox_at_risk = 0;
  std::vector<ForwardedCard> card_outcomes;
  LedgerDay ledger;
  JournalCheck journal;     // a broken chain is one item for the operator
  int bank_calls = -1;      // requests the run made to the bank; -1: none made (hand-built input)
  TefDialDay tef_dial;      // each TEF Dial sale still pending is one item for the operator
  int attention = 0;        // items the operator must act on
  Lang lang = Lang::kEnUs;  // the words of ReportText (the input's)
  bool reconciled() const { return attention == 0; }
};

// The one line at the top of every report: what the bank holds for this lane's sales and
// entities against what the journal collected, the difference split by what explains it.
struct DifferencePart {
  std::string what;  // a SaleClassName ("discrepancy", "late-money"...) or "orphan"
  int count = 0;
  Cents amount = 0;  // bank minus journal, for these items
};
struct Difference {
  Cents bank = 0;                     // Σ what the bank holds for the report's sales, and the orphans'
  Cents journal = 0;                  // Σ what the journal collected for them
  std::vector<DifferencePart> parts;  // what explains bank - journal, largest first
  int to_look_at = 0;                 // the report's items for the operator
  Cents amount() const { return bank - journal; }
};
Difference DifferenceOf(const Report& report);

// What a sale gave back: of its payment (refunds) and of late money.
struct Returns {
  Cents payment = 0;
  Cents late = 0;
};
Returns ReturnsOf(const checkout::Sale& sale);
// What the sale had given back by `until` (its events' times); `sale`'s returns when it has
// no events.
Returns ReturnedBy(const JournalSale& sale, UnixMicros until);

// The rules (docs/settlement.md). Deterministic: equal inputs give equal reports.
Report Reconcile(const DayInput& input);

// When this run cannot journal the feeds (another process owns the journal): the sales that
// needed them stay in scope for the next night (not done) and say why.
void DeferFeeds(Report& report, const std::string& why);

}  // namespace balcao::settlement
