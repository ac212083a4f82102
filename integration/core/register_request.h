// What a store's cash register asks of the box and what it gets back, whatever protocol carried
// it (nexo Sale-to-POI in integration/nexo/, TEF Dial beside it): a payment with its identity,
// method, amount in cents and installments; its outcome; an abort; a reversal; a status lookup.
// A protocol adapter turns its messages into these values and these values back into its
// answers; terminal/ runs them as sales of the checkout machine (docs/integration.md).
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace balcao::integration {

using Cents = std::int64_t;

// The identity of one request: who sent it and the sender's own ids for it. The pair
// (register_id, service_id) names the message; transaction_id names the register's sale.
// The box keeps these with the sale so a request seen again never starts a second one.
struct RequestIdentity {
  std::string register_id;     // the cash register (nexo SaleID)
  std::string service_id;      // the register's id of this message (nexo ServiceID)
  std::string transaction_id;  // the register's id of its sale (nexo SaleTransactionID.TransactionID)
  bool operator==(const RequestIdentity&) const = default;
};

// How the customer pays; kAsk lets the box's screen ask.
enum class PayMethod { kAsk, kCard, kPix, kInvoice };
enum class CardFunding { kAny, kCredit, kDebit };
const char* PayMethodName(PayMethod method);  // "ask", "card", "pix", "invoice"
bool ParsePayMethod(std::string_view text, PayMethod& out);

struct PaymentRequest {
  RequestIdentity identity;
  Cents amount = 0;  // from 1
  PayMethod method = PayMethod::kAsk;
  CardFunding funding = CardFunding::kAny;
  int installments = 1;       // credit in installments when > 1
  std::string register_name;  // shown on the box's screen ("Caixa 2"); register_id when empty
  std::string message_text;   // the request as its protocol carried it (kept to answer a status lookup)
};

// How a request ended, in words every protocol maps to its own codes.
enum class Result {
  kApproved,     // the money is collected (or, for a reversal, given back)
  kRefused,      // the bank or the customer said no (declined card, Pix expired unpaid)
  kAborted,      // the register (or the cashier) stopped it before approval
  kBusy,         // another payment runs on this box now
  kNotAllowed,   // the request is not allowed (method off, reversal of another register's sale)
  kUnavailable,  // the bank could not be reached and the method needs it now
  kInProgress,   // still running when the answer was due; find it later by its identity
  kNotFound,     // a lookup or reversal names nothing this box knows
  kInvalid,      // the request itself is malformed (the reason names the field and the rule)
};
const char* ResultName(Result result);  // "approved", "refused", ...
bool ParseResult(std::string_view text, Result& out);

// The outcome of a payment: everything a register needs for its own receipt and the NFC-e
// payment group (docs/integration.md, "NFC-e").
struct PaymentOutcome {
  Result result = Result::kInProgress;
  std::string reason;        // why, for a result other than kApproved
  std::string sale_id;       // the box's sale (nexo POITransactionID.TransactionID); "" when none started
  std::int64_t time_ms = 0;  // when the outcome was known (Unix ms)
  Cents amount = 0;          // the amount collected (0 unless approved)
  PayMethod method = PayMethod::kAsk;
  CardFunding funding = CardFunding::kAny;
  int installments = 1;
  std::string card_mask;  // first 6 and last 4 digits at most ("411111******1111")
  // How the card was entered: false, the customer's own phone posted it to the bank (the
  // default flow, docs/adr/0009); true, typed on the touchscreen ("digitado").
  bool keyed = false;
  std::string card_brand;                     // "visa", "mastercard", ... ("" for Pix and invoices)
  std::string authorization_code;             // the bank's id of the payment: card purchase, Pix deposit, invoice
  std::string pix_end_to_end_id;              // the Pix transfer's end-to-end id (E...), when the bank gives it
  std::string institution_cnpj;               // the payment institution's CNPJ, 14 digits (NFC-e card.CNPJ)
  std::vector<std::string> cashier_receipt;   // text lines, as the box prints them
  std::vector<std::string> customer_receipt;  // text lines, as the box prints them
  bool operator==(const PaymentOutcome&) const = default;
};

// Stop the payment the register sent as `target_service_id`, if it is not approved yet.
struct AbortRequest {
  RequestIdentity identity;
  std::string target_service_id;
  std::string reason;
};

// Give back the money of the box's sale `sale_id` (from its outcome), in full when amount is 0.
struct ReversalRequest {
  RequestIdentity identity;
  std::string sale_id;
  Cents amount = 0;
  std::string reason;
};
struct ReversalOutcome {
  Result result = Result::kInProgress;  // kApproved: the money went (or is queued to go) back
  std::string reason;
  std::string sale_id;
  Cents amount = 0;                         // given back
  bool queued = false;                      // the bank was unreachable: the outbox gives it back
  std::vector<std::string> refund_receipt;  // the refund slip's text lines, as the box prints it
};

// What the box knows of an earlier payment request, by its identity.
struct StatusLookup {
  Result result = Result::kNotFound;      // kNotFound, kInProgress, or the finished outcome's result
  std::optional<PaymentOutcome> outcome;  // when finished
  std::string message_text;               // the request's PaymentRequest::message_text
};

// The outcome as JSON text, and back: how the box keeps it beside the request's identity so
// that a repeated request or a lookup answers with exactly the first outcome.
std::string OutcomeToJson(const PaymentOutcome& outcome);
StatusOr<PaymentOutcome> OutcomeFromJson(std::string_view text);

}  // namespace balcao::integration
