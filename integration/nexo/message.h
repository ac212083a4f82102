// nexo Sale-to-POI messages as Adyen's Terminal API spells them (field names and casing of the
// public protocol; docs/integration.md lists every field read and written): parse and validate a
// SaleToPOIRequest, read the requests this box takes (Payment, TransactionStatus, Abort,
// Reversal) into the protocol-neutral values of integration/core, and build the answers.
// Amounts are read as the JSON text of the number ("12.34" -> 1234 cents), never as a double.
// Written in message.cc (the values: names, amounts, times), message_request.cc (the requests),
// message_answers.cc (the answers) and message_protected.cc (the protected envelope), over
// internal/json_text.h.
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "integration/core/register_request.h"
#include "integration/nexo/protection.h"

namespace balcao::integration::nexo {

enum class Category { kPayment, kTransactionStatus, kAbort, kReversal };
const char* CategoryName(Category category);  // "Payment", "TransactionStatus", "Abort", "Reversal"

struct MessageHeader {
  std::string protocol_version;  // "3.0"
  std::string message_class;     // "Service"
  std::string message_category;  // "Payment", ...
  std::string message_type;      // "Request"
  std::string service_id;
  std::string sale_id;
  std::string poi_id;
};

// MessageReference: the earlier message a TransactionStatus or Abort names.
struct MessageReference {
  std::string message_category;
  std::string service_id;
  std::string sale_id;
  std::string poi_id;
};

// One SaleToPOIRequest. Protected: only `header`, `blob` and `trailer` (decrypt the blob with
// Unprotect, then ParseRequest the plaintext). Plain: the category's fields.
struct Request {
  MessageHeader header;
  bool is_protected = false;
  std::string blob;
  SecurityTrailer trailer;

  Category category = Category::kPayment;
  PaymentRequest payment;      // kPayment (identity from the header and SaleTransactionID)
  std::string sale_timestamp;  // kPayment: SaleTransactionID.TimeStamp, echoed back
  MessageReference reference;  // kTransactionStatus, kAbort
  std::string abort_reason;    // kAbort: AbortReason
  ReversalRequest reversal;    // kReversal (sale_id = OriginalPOITransaction.POITransactionID.TransactionID)
};

// "12.34" -> 1234: digits, at most two decimals, from 0.01; no sign, exponent, NaN or Infinity.
// kInvalidArgument naming "RequestedAmount" and the rule.
StatusOr<Cents> ParseAmount(std::string_view text, std::string_view field = "RequestedAmount");
// 1234 -> "12.34", as a JSON number's text.
std::string FormatAmount(Cents cents);

// Parses a SaleToPOIRequest (the outer message, or the plaintext of its NexoBlob). Refused with
// kInvalidArgument naming the field and the rule: not JSON, nested deeper than 16, a key given
// twice, a missing or malformed MessageHeader, a category this box does not take, a bad amount.
StatusOr<Request> ParseRequest(std::string_view text);

// The answers, as the text of {"SaleToPOIResponse": {...}}. `now` is an ISO-8601 UTC time.
std::string PaymentResponse(const Request& request, const PaymentOutcome& outcome, const std::string& now);
// Found: the original PaymentResponse in RepeatedMessageResponse; in progress or not found:
// Failure with ErrorCondition InProgress or NotFound.
std::string TransactionStatusResponse(const Request& request, const StatusLookup& lookup,
                                      const std::optional<Request>& original, const std::string& now);
std::string ReversalResponse(const Request& request, const ReversalOutcome& outcome, const std::string& now);
// A Failure answer of the request's own category (Busy, NotAllowed, MessageFormat...).
std::string FailureResponse(const Request& request, const std::string& error_condition, const std::string& reason,
                            const std::string& now);
// The nexo reject: {"SaleToPOIRequest": {MessageHeader (category Event, type Notification),
// EventNotification {EventToNotify "Reject", EventDetails "message=...", RejectedMessage}}}.
std::string RejectNotification(const MessageHeader& header, const std::string& reason,
                               std::string_view rejected_message, const std::string& now);
// {"SaleToPOIResponse": {MessageHeader, NexoBlob, SecurityTrailer}} around `plaintext` (an
// answer above), with the header read back from it.
StatusOr<std::string> ProtectResponse(const std::string& plaintext, const DerivedKeys& keys,
                                      const std::string& key_identifier, int key_version);
// The other way, for cash registers (the test client): the plaintext of a protected
// SaleToPOIResponse, HMAC checked.
StatusOr<std::string> UnprotectResponse(std::string_view text, const DerivedKeys& keys);
// A SaleToPOIRequest's plaintext wrapped the same way (the test client's requests).
StatusOr<std::string> ProtectRequest(const std::string& plaintext, const DerivedKeys& keys,
                                     const std::string& key_identifier, int key_version);

// The nexo ErrorCondition of a core result ("Refusal", "Aborted", ...; "" for kApproved).
const char* ErrorConditionOf(Result result);
// What goes into Response.AdditionalResponse for the NFC-e (docs/integration.md, "NFC-e"):
// key=value pairs joined by '&', values percent-encoded.
std::string AdditionalResponse(const PaymentOutcome& outcome);
// ISO-8601 UTC with milliseconds ("2026-11-26T01:02:03.456Z") of Unix ms.
std::string IsoTime(std::int64_t unix_ms);

}  // namespace balcao::integration::nexo
