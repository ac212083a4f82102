// The states of one sale: a std::variant of structs, each carrying only what is valid in
// that state (docs/style.md S8). The sale-wide facts (id, amount, settings, what exists at
// the bank, the money ledger) live in checkout::Sale beside the state.
// Thread-safety: plain values.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <variant>

#include "checkout/types.h"

namespace balcao::checkout {

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
// What the sale kept as its payment: the entity whose money is the sale's.
struct Payment {
  Method method = Method::kCard;
  EntityRef kept;
  bool confirmed = false;  // card: the purchase was captured (confirmed); cancel no longer applies
  auto operator<=>(const Payment&) const = default;
};
struct ReversalRequest {
  Cents amount = 0;
  std::string operator_id;
  std::string reason;
  auto operator<=>(const ReversalRequest&) const = default;
};

#define BALCAO_CHECKOUT_STATE(Name)           \
  static constexpr const char* kName = #Name; \
  auto operator<=>(const Name&) const = default

// Sale id minted, nothing started.
struct NotStarted {
  BALCAO_CHECKOUT_STATE(NotStarted);
};
// The cashier picks card, Pix or invoice. Nothing for this sale can charge the customer now.
struct ChoosingMethod {
  std::string notice;                 // why we are back here ("denied: ...", "Pix expired"), empty at first
  std::optional<Method> last_method;  // the previous attempt's method, for Retry
  BALCAO_CHECKOUT_STATE(ChoosingMethod);
};
struct CreatingSession {
  int attempt = 0;
  BALCAO_CHECKOUT_STATE(CreatingSession);
};
// The create answer was lost: asking the bank by the attempt tag before anything else.
struct VerifyingSession {
  int attempt = 0;
  bool waiting = false;  // a lookup failed; nothing in flight until the retry timer
  BALCAO_CHECKOUT_STATE(VerifyingSession);
};
struct AwaitingCard {
  int attempt = 0;
  CardSession session;
  std::string notice;
  BALCAO_CHECKOUT_STATE(AwaitingCard);
};
struct Charging {
  int attempt = 0;
  CardSession session;
  std::string card_mask;  // first 6 + last 4 at most, for the receipt
  BALCAO_CHECKOUT_STATE(Charging);
};
struct VerifyingPurchase {
  int attempt = 0;
  CardSession session;
  std::string card_mask;
  bool waiting = false;  // the last call failed; nothing in flight until the retry timer
  BALCAO_CHECKOUT_STATE(VerifyingPurchase);
};
// 3-D Secure: the customer completes the challenge on their phone; we poll.
struct Challenge {
  int attempt = 0;
  CardSession session;
  std::string purchase_id;
  std::string challenge_url;
  std::string card_mask;
  bool on_phone = false;  // the customer's phone made the purchase and opened the challenge itself
  BALCAO_CHECKOUT_STATE(Challenge);
};
// The session expired during the challenge: one last read of the purchase decides.
struct ClosingChallenge {
  int attempt = 0;
  std::string purchase_id;
  std::string card_mask;
  bool waiting = false;  // the last call failed; nothing in flight until the retry timer
  BALCAO_CHECKOUT_STATE(ClosingChallenge);
};
struct CreatingBrcode {
  int attempt = 0;
  BALCAO_CHECKOUT_STATE(CreatingBrcode);
};
struct VerifyingBrcode {
  int attempt = 0;
  bool waiting = false;  // a lookup failed; nothing in flight until the retry timer
  BALCAO_CHECKOUT_STATE(VerifyingBrcode);
};
struct ShowingPix {
  int attempt = 0;
  Brcode brcode;
  BALCAO_CHECKOUT_STATE(ShowingPix);
};
// The countdown ended: one last search for the deposit before retry/fallback is offered.
struct ClosingPix {
  int attempt = 0;
  Brcode brcode;
  bool waiting = false;  // the last call failed; nothing in flight until the retry timer
  BALCAO_CHECKOUT_STATE(ClosingPix);
};
struct CreatingInvoice {
  int attempt = 0;
  Customer customer;
  BALCAO_CHECKOUT_STATE(CreatingInvoice);
};
struct VerifyingInvoice {
  int attempt = 0;
  Customer customer;
  bool waiting = false;  // the last call failed; nothing in flight until the retry timer
  BALCAO_CHECKOUT_STATE(VerifyingInvoice);
};
// The bank could not be reached: the invoice create waits in the outbox under `key` and the
// customer left with a provisional receipt carrying the sale id. The outbox's answer decides.
struct InvoiceQueued {
  int attempt = 0;
  Customer customer;
  std::string key;
  std::string cancel_operator;  // a cancel asked for meanwhile: applied once the invoice exists
  std::string cancel_reason;
  BALCAO_CHECKOUT_STATE(InvoiceQueued);
};
// The bank could not be reached and the store takes cards offline: the card is sealed in the
// store-and-forward (offline/sealed_cards.h) under the sale's id and the customer left with a
// provisional receipt. The forwarder's answer (CardForwarded) decides.
struct CardHeld {
  std::string card_mask;
  BALCAO_CHECKOUT_STATE(CardHeld);
};
struct ShowingInvoice {
  int attempt = 0;
  InvoiceInfo invoice;
  BALCAO_CHECKOUT_STATE(ShowingInvoice);
};
// The customer left with the invoice; invoice events (or the nightly settlement) close it.
struct PayLater {
  int attempt = 0;
  InvoiceInfo invoice;
  BALCAO_CHECKOUT_STATE(PayLater);
};
struct CancelingInvoice {
  int attempt = 0;
  InvoiceInfo invoice;
  std::string operator_id;
  std::string reason;
  bool waiting = false;    // the last call failed; nothing in flight until the retry timer
  std::string queued_key;  // the PATCH waits in the outbox under this key ("" when not queued)
  BALCAO_CHECKOUT_STATE(CancelingInvoice);
};
// Done: the ledger's payment line holds the amounts.
struct Paid {
  Payment payment;
  BALCAO_CHECKOUT_STATE(Paid);
};
struct Reversing {
  Payment payment;
  ReversalRequest request;
  bool waiting = false;    // the last call failed; nothing in flight until the retry timer
  std::string queued_key;  // the PATCH waits in the outbox under this key ("" when not queued)
  BALCAO_CHECKOUT_STATE(Reversing);
};
// Done: the payment went back in full.
struct Refunded {
  Payment payment;
  BALCAO_CHECKOUT_STATE(Refunded);
};
// Done: nothing was kept (canceled, expired unpaid).
struct Voided {
  std::string reason;
  std::string operator_id;
  BALCAO_CHECKOUT_STATE(Voided);
};

#undef BALCAO_CHECKOUT_STATE

using State = std::variant<NotStarted, ChoosingMethod, CreatingSession, VerifyingSession, AwaitingCard, Charging,
                           VerifyingPurchase, Challenge, ClosingChallenge, CreatingBrcode, VerifyingBrcode, ShowingPix,
                           ClosingPix, CreatingInvoice, VerifyingInvoice, InvoiceQueued, CardHeld, ShowingInvoice,
                           PayLater, CancelingInvoice, Paid, Reversing, Refunded, Voided>;

// Paid, Refunded and Voided: the sale is over. Only the refund path (Reverse from Paid)
// leaves one of them; late money is recorded without leaving.
bool IsTerminal(const State& state);

}  // namespace balcao::checkout
