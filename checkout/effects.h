// What the driver must do after a transition: bank calls, the screen to show, slips to
// print, timers to set or cancel, and operator flags. Effects are derived, never journaled:
// replaying the journal's events recomputes them.
// Thread-safety: plain values.
#pragma once

#include <compare>
#include <string>
#include <variant>
#include <vector>

#include "checkout/types.h"

namespace balcao::checkout {

// --- bank calls (one per API request; creates carry the sale and attempt tags) ---
struct AllowedInstallment {
  Cents total_amount = 0;
  int count = 1;
  auto operator<=>(const AllowedInstallment&) const = default;
};
// POST /v2/merchant-session
struct CreateSession {
  int attempt = 0;
  std::vector<std::string> tags;
  std::vector<FundingType> funding_types;
  std::vector<AllowedInstallment> installments;
  std::int64_t expiration_s = 0;
  bool challenge_enabled = true;
  BALCAO_CHECKOUT_RECORD(CreateSession);
};
// POST /v2/merchant-session/{uuid}/purchase; the driver fills the card from card_ref.
struct CreatePurchase {
  int attempt = 0;
  std::string session_uuid;
  std::string card_ref;
  FundingType funding = FundingType::kCredit;
  int installments = 1;
  Cents amount = 0;
  BALCAO_CHECKOUT_RECORD(CreatePurchase);
};
// GET /v2/merchant-purchase/{id}; answered by PurchaseSeen.
struct GetPurchase {
  int attempt = 0;
  std::string purchase_id;
  BALCAO_CHECKOUT_RECORD(GetPurchase);
};
// POST /v2/dynamic-brcode
struct CreateBrcode {
  int attempt = 0;
  std::vector<std::string> tags;
  Cents amount = 0;
  std::int64_t expiration_s = 0;
  BALCAO_CHECKOUT_RECORD(CreateBrcode);
};
// GET /v2/deposit?tags=dynamic-brcode/<uuid>; answered by DepositSeen or NothingFound{deposit}.
struct FindDeposit {
  int attempt = 0;
  std::string tag;
  BALCAO_CHECKOUT_RECORD(FindDeposit);
};
// POST /v2/invoice
struct CreateInvoice {
  int attempt = 0;
  std::vector<std::string> tags;
  Cents amount = 0;
  Customer customer;
  UnixMicros due = 0;
  std::int64_t expiration_s = 0;
  BALCAO_CHECKOUT_RECORD(CreateInvoice);
};
// GET /v2/invoice/{id}; answered by InvoiceSeen.
struct GetInvoice {
  std::string invoice_id;
  BALCAO_CHECKOUT_RECORD(GetInvoice);
};
// The lookup after an outcome unknown (docs/style.md S3): list `kind` filtered by the attempt tag.
// Answered by the matching *Created / PurchaseSeen event, or NothingFound{kind, attempt}.
struct FindByTag {
  EntityKind kind = EntityKind::kSession;
  int attempt = 0;
  std::string tag;
  BALCAO_CHECKOUT_RECORD(FindByTag);
};
// PATCH /v2/invoice/{id} {"status":"canceled"}; answered by InvoiceSeen.
struct CancelInvoice {
  std::string invoice_id;
  BALCAO_CHECKOUT_RECORD(CancelInvoice);
};
// PATCH of a purchase, deposit or invoice down to `new_amount` (idempotent: the target is
// absolute). Purchase: status "canceled" with amount 0 when not yet confirmed, status
// "reversed" otherwise. Answered by Reversed{entity_id, net_amount}.
struct ReduceAmount {
  EntityKind kind = EntityKind::kPurchase;
  std::string entity_id;
  Cents new_amount = 0;
  bool cancel_authorization = false;  // purchase approved but not confirmed
  bool late_money = false;            // returning flagged late money, not the payment
  BALCAO_CHECKOUT_RECORD(ReduceAmount);
};
using BankCall = std::variant<CreateSession, CreatePurchase, GetPurchase, CreateBrcode, FindDeposit, CreateInvoice,
                              GetInvoice, FindByTag, CancelInvoice, ReduceAmount>;

// --- the counter ---
enum class Screen {
  kChooseMethod,
  kWorking,
  kEnterCard,
  kChallengeQr,
  kPixQr,
  kInvoiceQr,
  kVerifying,
  kPaid,
  kRefunded,
  kVoided,
  kPayLater,
  kQueued  // waiting for the bank: the request is in the outbox
};
inline constexpr std::array kScreenNames{"choose-method", "working",    "enter-card", "challenge-qr",
                                         "pix-qr",        "invoice-qr", "verifying",  "paid",
                                         "refunded",      "voided",     "pay-later",  "queued"};
constexpr const auto& NamesOf(Screen) { return kScreenNames; }

struct Show {
  Screen screen = Screen::kChooseMethod;
  std::string message;
  std::string qr;  // text to draw as a QR (brcode, challenge URL)
  std::string link;
  UnixMicros deadline = 0;  // countdown target, 0 when none
  BALCAO_CHECKOUT_RECORD(Show);
};
// kProvisionalReceipt: the customer leaves before the bank has the invoice; it carries the
// sale id (`reference`) and the amount, and says the invoice will follow.
enum class Slip { kSaleReceipt, kRefundReceipt, kPixCode, kInvoiceSlip, kProvisionalReceipt };
inline constexpr std::array kSlipNames{"sale-receipt", "refund-receipt", "pix-code", "invoice-slip",
                                       "provisional-receipt"};
constexpr const auto& NamesOf(Slip) { return kSlipNames; }
struct Print {
  Slip slip = Slip::kSaleReceipt;
  Cents amount = 0;
  std::string reference;  // bank id of what the slip is about
  std::string qr;
  std::string card_mask;
  BALCAO_CHECKOUT_RECORD(Print);
};
struct SetTimer {
  Timer timer = Timer::kPoll;
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(SetTimer);
};
struct CancelTimer {
  Timer timer = Timer::kPoll;
  BALCAO_CHECKOUT_RECORD(CancelTimer);
};
// Someone must act: money to give back, or something the bank did outside Balcão.
struct FlagOperator {
  std::string entity_id;
  Cents amount = 0;
  std::string reason;
  BALCAO_CHECKOUT_RECORD(FlagOperator);
};

using Effect = std::variant<BankCall, Show, Print, SetTimer, CancelTimer, FlagOperator>;

// "CreateSession", "Show(pix-qr)", "SetTimer(poll)"... for logs and tests.
std::string Describe(const Effect& effect);

}  // namespace balcao::checkout
