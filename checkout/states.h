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

// What every state of one payment attempt carries: the attempt, whose tag the bank's entities
// carry and whose answers the state takes (checkout/internal/rules.h, ForAttempt). A state that
// also holds `waiting` re-sends its call after a failure: waiting is true from the failure until
// the retry timer fires, and nothing is in flight meanwhile.
struct OfAttempt {
  int attempt = 0;
  auto operator<=>(const OfAttempt&) const = default;
};
// An invoice attempt: the customer the invoice is for travels with the attempt, from the
// create to its lookup, its re-send and the outbox.
struct OfInvoiceAttempt : OfAttempt {
  Customer customer;
  auto operator<=>(const OfInvoiceAttempt&) const = default;
};

// The lookup by the attempt's tag after a create's answer was lost (docs/style.md S3): what
// the create was asked with, and `waiting`.
template <typename Asked>
struct LookingUp : Asked {
  bool waiting = false;
  auto operator<=>(const LookingUp&) const = default;
};

// Sale id minted, nothing started.
struct NotStarted {
  BALCAO_CHECKOUT_RECORD(NotStarted);
};
// The cashier picks card, Pix or invoice. Nothing for this sale can charge the customer now.
struct ChoosingMethod {
  std::string notice;                 // why we are back here ("denied: ...", "Pix expired"), empty at first
  std::optional<Method> last_method;  // the previous attempt's method, for Retry
  BALCAO_CHECKOUT_RECORD(ChoosingMethod);
};
struct CreatingSession : OfAttempt {
  BALCAO_CHECKOUT_RECORD(CreatingSession);
};
// The create answer was lost: asking the bank by the attempt tag before anything else.
struct VerifyingSession : LookingUp<OfAttempt> {
  BALCAO_CHECKOUT_RECORD(VerifyingSession);
};
struct AwaitingCard : OfAttempt {
  CardSession session;
  std::string notice;
  BALCAO_CHECKOUT_RECORD(AwaitingCard);
};
struct Charging : OfAttempt {
  CardSession session;
  std::string card_mask;  // first 6 + last 4 at most, for the receipt
  BALCAO_CHECKOUT_RECORD(Charging);
};
struct VerifyingPurchase : OfAttempt {
  CardSession session;
  std::string card_mask;
  bool waiting = false;
  BALCAO_CHECKOUT_RECORD(VerifyingPurchase);
};
// 3-D Secure: the customer completes the challenge on their phone; we poll.
struct Challenge : OfAttempt {
  CardSession session;
  std::string purchase_id;
  std::string challenge_url;
  std::string card_mask;
  bool on_phone = false;  // the customer's phone made the purchase and opened the challenge itself
  BALCAO_CHECKOUT_RECORD(Challenge);
};
// The session expired during the challenge: one last read of the purchase decides.
struct ClosingChallenge : OfAttempt {
  std::string purchase_id;
  std::string card_mask;
  bool waiting = false;
  BALCAO_CHECKOUT_RECORD(ClosingChallenge);
};
struct CreatingBrcode : OfAttempt {
  BALCAO_CHECKOUT_RECORD(CreatingBrcode);
};
struct VerifyingBrcode : LookingUp<OfAttempt> {
  BALCAO_CHECKOUT_RECORD(VerifyingBrcode);
};
struct ShowingPix : OfAttempt {
  Brcode brcode;
  BALCAO_CHECKOUT_RECORD(ShowingPix);
};
// The countdown ended: one last search for the deposit before retry/fallback is offered.
struct ClosingPix : OfAttempt {
  Brcode brcode;
  bool waiting = false;
  BALCAO_CHECKOUT_RECORD(ClosingPix);
};
struct CreatingInvoice : OfInvoiceAttempt {
  BALCAO_CHECKOUT_RECORD(CreatingInvoice);
};
struct VerifyingInvoice : LookingUp<OfInvoiceAttempt> {
  BALCAO_CHECKOUT_RECORD(VerifyingInvoice);
};
// The bank could not be reached: the invoice create waits in the outbox under `key` and the
// customer left with a provisional receipt carrying the sale id. The outbox's answer decides.
struct InvoiceQueued : OfInvoiceAttempt {
  std::string key;
  std::string cancel_operator;  // a cancel asked for meanwhile: applied once the invoice exists
  std::string cancel_reason;
  BALCAO_CHECKOUT_RECORD(InvoiceQueued);
};
// The bank could not be reached and the store takes cards offline: the card is sealed in the
// store-and-forward (offline/sealed_cards.h) under the sale's id and the customer left with a
// provisional receipt. The forwarder's answer (CardForwarded) decides.
struct CardHeld {
  std::string card_mask;
  BALCAO_CHECKOUT_RECORD(CardHeld);
};
struct ShowingInvoice : OfAttempt {
  InvoiceInfo invoice;
  BALCAO_CHECKOUT_RECORD(ShowingInvoice);
};
// The customer left with the invoice; invoice events (or the nightly settlement) close it.
struct PayLater : OfAttempt {
  InvoiceInfo invoice;
  BALCAO_CHECKOUT_RECORD(PayLater);
};
// CancelingInvoice and Reversing send a PATCH: `waiting` as above, and `queued_key` the outbox
// key the PATCH waits under while the bank cannot be reached ("" when not queued).
struct CancelingInvoice : OfAttempt {
  InvoiceInfo invoice;
  std::string operator_id;
  std::string reason;
  bool waiting = false;
  std::string queued_key;
  BALCAO_CHECKOUT_RECORD(CancelingInvoice);
};
// Done: the ledger's payment line holds the amounts.
struct Paid {
  Payment payment;
  BALCAO_CHECKOUT_RECORD(Paid);
};
// Not of an attempt: a refund of the kept payment.
struct Reversing {
  Payment payment;
  ReversalRequest request;
  bool waiting = false;
  std::string queued_key;
  BALCAO_CHECKOUT_RECORD(Reversing);
};
// Done: the payment went back in full.
struct Refunded {
  Payment payment;
  BALCAO_CHECKOUT_RECORD(Refunded);
};
// Done: nothing was kept (canceled, expired unpaid).
struct Voided {
  std::string reason;
  std::string operator_id;
  BALCAO_CHECKOUT_RECORD(Voided);
};

using State = std::variant<NotStarted, ChoosingMethod, CreatingSession, VerifyingSession, AwaitingCard, Charging,
                           VerifyingPurchase, Challenge, ClosingChallenge, CreatingBrcode, VerifyingBrcode, ShowingPix,
                           ClosingPix, CreatingInvoice, VerifyingInvoice, InvoiceQueued, CardHeld, ShowingInvoice,
                           PayLater, CancelingInvoice, Paid, Reversing, Refunded, Voided>;

// Paid, Refunded and Voided: the sale is over. Only the refund path (Reverse from Paid)
// leaves one of them; late money is recorded without leaving.
bool IsTerminal(const State& state);

}  // namespace balcao::checkout
