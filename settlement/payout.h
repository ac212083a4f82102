// The night's money out (docs/settlement.md, "Payout and card receivables"), after the
// reconciliation of a business day:
// - the payout: an opt-in transfer of the day's net (or of everything above a balance the
//   merchant keeps) to the merchant's bank account. Its `externalId` is made from the store and
//   the day, the one replay guard the bank has (docs/wire.md, "Idempotency"), and the transfer
//   carries the same text as a tag, so a run asks the bank first and a second run (or one after
//   a crash between the transfer and the record) finds it instead of paying again. Never when
//   the day does not reconcile.
// - the card receivables: what the day's card purchases will pay, and when, from the bank's
//   merchant installments.
// Both are added to the settlement's JSON report, its text and the end-of-day summary.
// Thread-safety: one run at a time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api/bank.h"
#include "common/status.h"
#include "common/time.h"
#include "printer/templates.h"
#include "settlement/settlement.h"
#include "settlement/words.h"

namespace balcao::settlement {

// The merchant's account the payout goes to (a Pix ISPB of 8 digits or a 3-digit bank code).
struct PayoutAccount {
  std::string name;
  std::string tax_id;  // CPF or CNPJ of the account holder
  std::string bank_code;
  std::string branch_code;
  std::string account_number;
  std::string account_type = "checking";  // checking, payment, savings, salary
};

struct PayoutSettings {
  bool enabled = false;
  std::string store;  // names the store in the externalId: lowercase letters, digits and '-'
  // false (the default): one payout per store and day, of every lane's net at the bank
  // (settlement/store_payout.h). true: each lane pays its own night's net under its own
  // externalId (PayoutExternalId with the terminal).
  bool per_lane = false;
  PayoutAccount account;
  // < 0: pay the day's net. >= 0: pay everything above this balance instead.
  std::int64_t keep_balance_cents = -1;
};

// "balcao-payout-<store>-<day>": the transfer's externalId and tag. With a terminal (per-lane
// payouts): "balcao-payout-<store>/lane/<terminal>-<day>" ('/' is in no id, so a lane's never
// equals a store's).
std::string PayoutExternalId(const std::string& store, const std::string& day, const std::string& terminal = "");

struct Payout {
  // "sent" (this run made the transfer), "found" (the bank has it from an earlier run),
  // "dry-run" (would send `amount`), "withheld" (the day does not reconcile),
  // "nothing" (no money to send), "off" (not configured).
  std::string status = "off";
  std::string external_id;
  std::int64_t amount = 0;
  std::string transfer_id;
  std::string transfer_status;
  Words reason;  // why withheld / nothing, or how the amount was chosen
  // "store": the store's payout (every lane's money); "lane": this lane's own (per_lane).
  std::string scope = "lane";
  // Store scope: what every lane's ledger lines of the day net (LaneDay::day_ledger), of which
  // `earlier_net` earlier days' sales (a pay-later invoice paid today...).
  std::int64_t store_net = 0;
  std::int64_t earlier_net = 0;
  int lanes = 0;                    // store scope: the lanes with entities or ledger lines in the day
  std::string lane;                 // the terminal whose report this is ("" for `settle --store --payout`)
  std::int64_t lane_share = 0;      // that lane's part of store_net (its day_ledger)
  std::vector<Words> withheld_for;  // store scope: "lane <terminal>: why", one per lane not reconciled
};

// One installment of a card purchase of the day, as the bank will pay it.
struct Receivable {
  std::string purchase_id;
  std::string sale_id;  // from the purchase's "sale/<id>" tag; "" when none
  std::string funding;  // credit, debit
  std::string network;
  std::int64_t amount = 0;
  std::int64_t fee = 0;
  std::string due;  // "YYYY-MM-DD"
  std::string status;
};

// What the run knows when it decides the payout.
struct PayoutInput {
  std::string day;
  bool reconciled = false;
  bool dry_run = false;
  std::int64_t day_net = 0;  // the report's net (gross - refunds)
  bool balance_known = false;
  std::int64_t balance = 0;
  std::string external_id;  // "" = PayoutExternalId(settings.store, day)
  Words withheld_why;       // when !reconciled: why, for the report (empty = this lane's day)
};

// Sends (or finds, or withholds) the day's payout. Errors only for a bank that cannot be
// asked or refused the transfer: the run fails before its record, and runs again.
StatusOr<Payout> RunPayout(const api::Bank& bank, const PayoutSettings& settings, const PayoutInput& input);

// The installments of `purchase_ids` (the day's card purchases) created in [from, to) and
// after, by due date.
StatusOr<std::vector<Receivable>> ReadReceivables(const api::Bank& bank, const std::vector<std::string>& purchase_ids,
                                                  UnixMicros from);

// The report JSON with "payout" and "receivables" added, and the lines the text report ends with.
// The payout's reasons are said in `lang`, as the text report and the printed slip say them.
std::string WithMoneyOut(const std::string& report_json, const Payout& payout,
                         const std::vector<Receivable>& receivables, Lang lang = Lang::kEnUs);
// The payout alone: a JSON object (the report's "payout") and its lines of text.
std::string PayoutJson(const Payout& payout, Lang lang = Lang::kEnUs);
std::string PayoutText(const Payout& payout, Lang lang = Lang::kEnUs);
std::string MoneyOutText(const Payout& payout, const std::vector<Receivable>& receivables, Lang lang = Lang::kEnUs);
// The payout and receivables of a report JSON into the end-of-day summary's data.
void AddMoneyOutToSummary(const std::string& report_json, printer::DaySummary& summary);

}  // namespace balcao::settlement
