// Everything that can happen to a sale: cashier actions, answers to bank calls, bank events
// (webhooks or polls), timer expiries. Each event carries its own time (`at`) and ids, so
// the checkout never reads a clock. Events are what the sale journal stores (to_json in
// checkout/journal_codec.h): none of them carries a card number or security code — the
// card is a non-sensitive reference (`card_ref`) whose data the driver holds in memory
// for the single purchase call.
// Thread-safety: plain values.
#pragma once

#include <compare>
#include <string>
#include <string_view>
#include <variant>

#include "checkout/types.h"

namespace balcao::checkout {

// --- cashier actions ---
// Opens the sale. The id was minted by the caller before any byte left the box.
struct Start {
  std::string sale_id;  // lowercase [a-z0-9-], it goes into bank tags
  Cents amount = 0;
  Settings settings;
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(Start);
};
struct ChooseMethod {
  Method method = Method::kCard;
  Customer customer;  // invoice only
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(ChooseMethod);
};
// The touchscreen collected the card. Only a reference and the 6+4 mask travel here.
struct SubmitCard {
  std::string card_ref;
  std::string card_mask;
  FundingType funding = FundingType::kCredit;
  int installments = 1;
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(SubmitCard);
};
struct Cancel {
  std::string operator_id;  // who asked
  std::string reason;
  UnixMicros at = 0;
  std::string approved_by;  // the supervisor who approved money going back; "" when none was needed
  BALCAO_CHECKOUT_RECORD(Cancel);
};
// Try the previous method again (after a decline or an expired Pix).
struct Retry {
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(Retry);
};
// After a failed Pix or card attempt: charge the customer by invoice instead.
struct FallbackToInvoice {
  Customer customer;
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(FallbackToInvoice);
};
// The customer takes the invoice and pays later; the counter is freed.
struct KeepOpen {
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(KeepOpen);
};
// Print the Pix QR or the invoice slip (again).
struct PrintCode {
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(PrintCode);
};
// Give back `amount` of the sale's payment (partial or full).
struct Reverse {
  Cents amount = 0;
  std::string operator_id;  // who asked
  std::string reason;
  UnixMicros at = 0;
  std::string approved_by;  // the supervisor who approved
  BALCAO_CHECKOUT_RECORD(Reverse);
};
// Give back late money (flagged) received through `entity_id`.
struct ReturnLateMoney {
  std::string entity_id;
  std::string operator_id;
  std::string reason;
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(ReturnLateMoney);
};

// --- answers to bank calls, and what lookups found ("found X" is the X event) ---
// The answer to a create, or what the lookup after its lost answer found: the attempt whose tag
// the entity carries, and the entity as the sale keeps it (checkout/types.h). The journal keeps
// the entity's fields flat beside `attempt` and `at` (checkout/journal_codec.cc).
template <typename Entity>
inline constexpr const char* kCreatedName = nullptr;
template <>
inline constexpr const char* kCreatedName<CardSession> = "SessionCreated";
template <>
inline constexpr const char* kCreatedName<Brcode> = "BrcodeCreated";
template <>
inline constexpr const char* kCreatedName<InvoiceInfo> = "InvoiceCreated";
template <typename Entity>
struct Created {
  int attempt = 0;
  Entity entity;
  UnixMicros at = 0;
  static constexpr const char* kName = kCreatedName<Entity>;
  auto operator<=>(const Created&) const = default;
};
using SessionCreated = Created<CardSession>;
using BrcodeCreated = Created<Brcode>;
using InvoiceCreated = Created<InvoiceInfo>;
// A lookup (by attempt tag, or a poll) found nothing of `kind` for `attempt`.
struct NothingFound {
  EntityKind kind = EntityKind::kSession;
  int attempt = 0;
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(NothingFound);
};
struct CallFailed {
  Call call = Call::kCreateSession;
  Failure failure = Failure::kRejected;
  std::string message;
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(CallFailed);
};
// The start of CallFailed::message when the bank refused the request for the box's clock (its
// Access-Time): classified kNotSent, as the bank did nothing with it.
inline constexpr std::string_view kClockRefusedPrefix = "clock: ";
// The answer to a reversal/cancel PATCH: the entity's amount is now `net_amount`.
struct Reversed {
  std::string entity_id;
  Cents net_amount = 0;
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(Reversed);
};

// --- the bank's view of an entity: a create answer, a webhook event or a poll ---
struct PurchaseSeen {
  int attempt = 0;  // from the purchase's tags (the session's tags carry over)
  std::string purchase_id;
  PurchaseStatus status = PurchaseStatus::kCreated;
  Cents amount = 0;
  std::string challenge_url;
  std::string reason;  // denial reason when the bank gives one
  UnixMicros at = 0;
  // What the purchase says of the card (for a purchase the customer's phone made, the box never
  // saw the card): "**** 4242" (last 4 only), and the funding type and installments chosen.
  std::string card_mask;
  std::string card_network;  // "visa", "mastercard"... as the bank names it
  int installments = 0;      // 0: not said
  FundingType funding = FundingType::kCredit;
  BALCAO_CHECKOUT_RECORD(PurchaseSeen);
};
// A deposit tagged dynamic-brcode/<uuid> arrived.
struct DepositSeen {
  std::string deposit_id;
  std::string brcode_uuid;
  Cents amount = 0;
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(DepositSeen);
};
struct InvoiceSeen {
  std::string invoice_id;
  InvoiceStatus status = InvoiceStatus::kCreated;
  Cents amount = 0;  // after payment: the amount actually paid (fine and interest included)
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(InvoiceSeen);
};

// --- the outbox (offline/outbox.h) ---
// The bank could not be reached (the box is offline, or the call was not sent), so the driver
// put the request in the outbox under `key`, durably, before feeding this. Only the outbox
// sends it from now on; its outcome comes back as the call's usual answer (InvoiceCreated,
// InvoiceSeen, Reversed) or as CallFailed when the bank refused it.
struct Queued {
  Call call = Call::kCreateInvoice;
  int attempt = 0;  // the create's attempt (0 for a cancel or reversal)
  std::string key;  // the outbox key (one key, one intent)
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(Queued);
};

// --- card store-and-forward (offline/sealed_cards.h) ---
// The box is offline and the store takes cards offline: the card was sealed under the sale's
// id (within the store-and-forward's caps) before this was fed; only the mask travels here.
struct CardHeldOffline {
  std::string card_mask;
  FundingType funding = FundingType::kCredit;
  int installments = 1;
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(CardHeldOffline);
};
// What became of the sealed card once the bank was reachable: the purchase that charged it,
// or the decline (by the bank, or locally: too old), with the reason.
struct CardForwarded {
  bool approved = false;
  std::string purchase_id;
  Cents amount = 0;
  std::string reason;
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(CardForwarded);
};

// --- time ---
struct TimerFired {
  Timer timer = Timer::kPoll;
  UnixMicros at = 0;
  BALCAO_CHECKOUT_RECORD(TimerFired);
};

using Event =
    std::variant<Start, ChooseMethod, SubmitCard, Cancel, Retry, FallbackToInvoice, KeepOpen, PrintCode, Reverse,
                 ReturnLateMoney, SessionCreated, BrcodeCreated, InvoiceCreated, NothingFound, CallFailed, Reversed,
                 PurchaseSeen, DepositSeen, InvoiceSeen, TimerFired, Queued, CardHeldOffline, CardForwarded>;

UnixMicros TimeOf(const Event& event);

}  // namespace balcao::checkout
