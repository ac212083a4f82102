// Value types shared by the checkout's states, events and effects: store settings,
// the customer of an invoice, references to bank entities and the sale's money ledger.
// Money is int64 cents. No card number or security code appears in any of these types.
// Thread-safety: plain values.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/time.h"

namespace balcao::checkout {

using Cents = std::int64_t;

// Opens every state, event and effect: its name as the journal, the docs and the logs spell it
// (`T::kName`, read by StateName(), EventToJson() and Describe()), and member-wise comparison.
#define BALCAO_CHECKOUT_RECORD(Name)          \
  static constexpr const char* kName = #Name; \
  auto operator<=>(const Name&) const = default

enum class Method { kCard, kPix, kInvoice };
enum class FundingType { kCredit, kDebit };
// Purchase statuses as the bank spells them (API documentation, part 2, "Merchant Purchase";
// docs/wire.md, "Statuses and log types").
enum class PurchaseStatus {
  kCreated,
  kPending,
  kApproved,
  kConfirmed,
  kPaid,
  kDenied,
  kFailed,
  kCanceled,
  kVoided,
  kReversed
};
enum class InvoiceStatus { kCreated, kOverdue, kPaid, kCredited, kCanceled, kExpired };
// The bank entities a sale creates or receives.
enum class EntityKind { kSession, kPurchase, kBrcode, kDeposit, kInvoice };
// The bank calls whose failures come back as CallFailed events.
enum class Call {
  kCreateSession,
  kCreatePurchase,
  kCreateBrcode,
  kCreateInvoice,
  kLookup,
  kPoll,
  kCancelInvoice,
  kReversal,
  kLateReturn
};
// How a failed call failed (docs/style.md S2, S3): the bank refused it (it did not happen),
// it never left the box (it did not happen), or the answer was lost (it may have happened).
enum class Failure { kRejected, kNotSent, kOutcomeUnknown };
enum class Timer { kPoll, kSessionExpiry, kBrcodeExpiry, kLookupRetry };
// Whether money the bank received for the sale is the sale's payment or money to give back.
enum class MoneyRole { kPayment, kLate };

inline constexpr std::array kMethodNames{"card", "pix", "invoice"};
inline constexpr std::array kFundingTypeNames{"credit", "debit"};
inline constexpr std::array kPurchaseStatusNames{"created", "pending", "approved", "confirmed", "paid",
                                                 "denied",  "failed",  "canceled", "voided",    "reversed"};
inline constexpr std::array kInvoiceStatusNames{"created", "overdue", "paid", "credited", "canceled", "expired"};
inline constexpr std::array kEntityKindNames{"session", "purchase", "brcode", "deposit", "invoice"};
inline constexpr std::array kCallNames{"create-session", "create-purchase", "create-brcode", "create-invoice", "lookup",
                                       "poll",           "cancel-invoice",  "reversal",      "late-return"};
inline constexpr std::array kFailureNames{"rejected", "not-sent", "outcome-unknown"};
inline constexpr std::array kTimerNames{"poll", "session-expiry", "brcode-expiry", "lookup-retry"};
inline constexpr std::array kMoneyRoleNames{"payment", "late"};

constexpr const auto& NamesOf(Method) { return kMethodNames; }
constexpr const auto& NamesOf(FundingType) { return kFundingTypeNames; }
constexpr const auto& NamesOf(PurchaseStatus) { return kPurchaseStatusNames; }
constexpr const auto& NamesOf(InvoiceStatus) { return kInvoiceStatusNames; }
constexpr const auto& NamesOf(EntityKind) { return kEntityKindNames; }
constexpr const auto& NamesOf(Call) { return kCallNames; }
constexpr const auto& NamesOf(Failure) { return kFailureNames; }
constexpr const auto& NamesOf(Timer) { return kTimerNames; }
constexpr const auto& NamesOf(MoneyRole) { return kMoneyRoleNames; }

// "card", "approved", "outcome-unknown"...
template <typename E>
constexpr const char* Name(E value) {
  return NamesOf(value)[static_cast<std::size_t>(value)];
}
// The inverse of Name(); false when `text` names no value.
template <typename E>
bool ParseName(std::string_view text, E& out) {
  const auto& names = NamesOf(E{});
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (text == names[i]) {
      out = static_cast<E>(i);
      return true;
    }
  }
  return false;
}

// A purchase status that means the card was charged (money is, or will be, ours).
constexpr bool IsCharged(PurchaseStatus s) {
  return s == PurchaseStatus::kApproved || s == PurchaseStatus::kConfirmed || s == PurchaseStatus::kPaid;
}
// A purchase status that means no charge was made by this purchase.
constexpr bool IsRefused(PurchaseStatus s) { return s == PurchaseStatus::kDenied || s == PurchaseStatus::kFailed; }
constexpr bool IsPaid(InvoiceStatus s) { return s == InvoiceStatus::kPaid || s == InvoiceStatus::kCredited; }
constexpr bool IsOpen(InvoiceStatus s) { return s == InvoiceStatus::kCreated || s == InvoiceStatus::kOverdue; }

// How the store wants installments offered: 1..max_count, each at least min_installment.
struct InstallmentPolicy {
  int max_count = 1;
  Cents min_installment = 500;
  auto operator<=>(const InstallmentPolicy&) const = default;
};

// Store settings in force for one sale (copied into the sale when it starts, so a
// settings change never alters a sale in progress or its replay).
struct Settings {
  InstallmentPolicy installments;
  bool allow_credit = true;
  bool allow_debit = true;
  bool challenge_enabled = true;  // merchant session challengeMode (3-D Secure)
  std::int64_t card_session_expiration_s = 600;
  std::int64_t pix_expiration_s = 600;          // default 10 minutes
  std::int64_t invoice_due_s = 2 * 86400;       // due = start of the invoice + this
  std::int64_t invoice_expiration_s = 5097600;  // seconds after due (bank default, 59 days)
  std::int64_t poll_interval_s = 3;             // status polls while the customer pays
  std::int64_t lookup_retry_s = 5;              // wait before asking the bank again after a failed lookup
  // The lane that opened the sale, as the root of its tags: "store/<store>/lane/<terminal>"
  // (LaneRoot). "" for a sale opened before lanes existed: its tags keep the old "sale/<id>".
  std::string lane;
  auto operator<=>(const Settings&) const = default;
};

// The payer of an invoice. The tax id is a CPF or CNPJ, formatted or digits only.
struct Customer {
  std::string name;
  std::string tax_id;
  auto operator<=>(const Customer&) const = default;
};

// What the bank made for one attempt, as the sale keeps it: the answer to its create
// (checkout/events.h, Created) and the state that shows it carry the same value.
// A merchant session the bank created for one card attempt.
struct CardSession {
  std::string id;
  std::string uuid;
  UnixMicros expires_at = 0;
  auto operator<=>(const CardSession&) const = default;
};
// A dynamic brcode shown as the Pix QR.
struct Brcode {
  std::string uuid;
  std::string text;
  UnixMicros expires_at = 0;
  auto operator<=>(const Brcode&) const = default;
};
struct InvoiceInfo {
  std::string id;
  std::string brcode;
  std::string link;
  UnixMicros due = 0;
  auto operator<=>(const InvoiceInfo&) const = default;
};

// A bank entity that exists for the sale. `attempt` is the sale attempt that created it
// (0 for deposits, which the bank creates).
struct EntityRef {
  EntityKind kind = EntityKind::kSession;
  std::string id;
  int attempt = 0;
  auto operator<=>(const EntityRef&) const = default;
};

// One line of the sale's money ledger: what the bank received through one entity and how
// much of it went back. Exactly one line may have the kPayment role.
struct Money {
  EntityRef ref;
  Cents received = 0;
  Cents returned = 0;
  MoneyRole role = MoneyRole::kPayment;
  bool flagged = false;    // an operator was told to return it (late money)
  bool returning = false;  // a return was requested and the bank has not confirmed it yet
  // What the bank took back outside Balcão (a deposit lowered or reversed at the dashboard), as
  // the box last saw it: not in net(), which stays what the box collected (the night flags
  // the difference); the screen shows it ("estornado no banco").
  Cents bank_lowered = 0;
  UnixMicros bank_lowered_at = 0;  // when the box saw bank_lowered change (0: never)
  Cents net() const { return received - returned; }
  auto operator<=>(const Money&) const = default;
};

// Tags every bank entity of a sale carries (lowercase, as the bank stores them), in the
// layout of docs/stores.md. A sale of a lane (Settings::lane set) is tagged
//   store/<store>                                the store's entities (`settle --store`)
//   store/<store>/lane/<terminal>                the lane's entities
//   store/<store>/lane/<terminal>/sale/<id>      "what exists for this sale?"
//   store/<store>/lane/<terminal>/sale/<id>/a<n> one attempt (the idempotency lookup)
// and a sale from before lanes "sale/<id>" and "sale/<id>/a<n>" only. The bank's `tags`
// filter is an exact match, hence one tag per level rather than one long tag.
inline constexpr std::string_view kStoreTagPrefix = "store/";
inline constexpr std::string_view kLaneTagInfix = "/lane/";
// "store/<store>/lane/<terminal>"; ids as LaneIdRule allows.
std::string LaneRoot(std::string_view store_id, std::string_view terminal_id);
// The tags of a sale under `lane` (a LaneRoot, or "" for the old layout).
std::string SaleTag(std::string_view lane, std::string_view sale_id);
std::string AttemptTag(std::string_view lane, std::string_view sale_id, int attempt);
// The old layout ("sale/<id>", "sale/<id>/a<n>"): sales opened before lanes.
std::string SaleTag(std::string_view sale_id);
std::string AttemptTag(std::string_view sale_id, int attempt);
// Every tag an entity of `lane`'s sale carries for `attempt` (the list above).
std::vector<std::string> EntityTags(std::string_view lane, std::string_view sale_id, int attempt);
// A store or terminal id: 1 to 24 of a-z, 0-9 and '-', starting with a letter or digit
// (the bank lowercases tags and '/' separates their levels); "" when valid, else the rule.
std::string LaneIdRule(std::string_view id);

// Whose sale a tag list names: the lane ("" for the old layout) and the sale id.
struct TaggedSale {
  std::string store;  // "" for the old layout
  std::string terminal;
  std::string sale_id;  // "" when no tag names a sale
  std::string lane() const { return store.empty() ? std::string() : LaneRoot(store, terminal); }
};
TaggedSale SaleOfTags(const std::vector<std::string>& tags);
// "dynamic-brcode/<uuid>": the tag the bank puts on the deposit that pays a dynamic brcode.
std::string BrcodeDepositTag(std::string_view uuid);

}  // namespace balcao::checkout
