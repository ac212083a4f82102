// The answers: SaleToPOIResponse texts for payments, status lookups, reversals and failures,
// and the Reject notification, spelled as Adyen's libraries read them (docs/integration.md
// lists every field written).
#include <cctype>
#include <cstdio>
#include <ctime>

#include "integration/nexo/internal/json_text.h"
#include "integration/nexo/message.h"

namespace balcao::integration::nexo {
namespace {

using internal::Dump;
using nlohmann::json;

json HeaderJson(const MessageHeader& h, const std::string& category, const std::string& type) {
  return {{"ProtocolVersion", h.protocol_version.empty() ? "3.0" : h.protocol_version},
          {"MessageClass", "Service"},
          {"MessageCategory", category},
          {"MessageType", type},
          {"ServiceID", h.service_id},
          {"SaleID", h.sale_id},
          {"POIID", h.poi_id}};
}

json ResponseJson(Result result, const std::string& reason, const std::string& additional) {
  json response = {{"Result", result == Result::kApproved ? "Success" : "Failure"}};
  if (result != Result::kApproved) response["ErrorCondition"] = ErrorConditionOf(result);
  std::string extra = additional;
  if (!reason.empty() && result != Result::kApproved) {
    std::string encoded;
    for (unsigned char c : reason) {
      if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
        encoded += static_cast<char>(c);
      } else {
        char hex[4];
        std::snprintf(hex, sizeof hex, "%%%02X", c);
        encoded += hex;
      }
    }
    extra += (extra.empty() ? "" : "&") + std::string("message=") + encoded;
  }
  if (!extra.empty()) response["AdditionalResponse"] = extra;
  return response;
}

json Receipt(const char* qualifier, const std::vector<std::string>& lines) {
  json text = json::array();
  for (const std::string& line : lines) text.push_back({{"Text", line}});
  return {{"DocumentQualifier", qualifier},
          {"RequiredSignatureFlag", false},
          {"OutputContent", {{"OutputFormat", "Text"}, {"OutputText", text}}}};
}

json AmountNumber(Cents cents) { return json::parse(FormatAmount(cents)); }

json PaymentBody(const Request& request, const PaymentOutcome& o, const std::string& now) {
  json body = {{"Response", ResponseJson(o.result, o.reason, AdditionalResponse(o))},
               {"SaleData",
                {{"SaleTransactionID",
                  {{"TransactionID", request.payment.identity.transaction_id},
                   {"TimeStamp", request.sale_timestamp.empty() ? now : request.sale_timestamp}}}}}};
  if (o.sale_id.empty()) return body;
  const std::string when = o.time_ms > 0 ? IsoTime(o.time_ms) : now;
  body["POIData"] = {{"POITransactionID", {{"TransactionID", o.sale_id}, {"TimeStamp", when}}}};
  if (o.result != Result::kApproved) return body;
  json result = {{"PaymentType", "Normal"},
                 {"AmountsResp", {{"Currency", "BRL"}, {"AuthorizedAmount", AmountNumber(o.amount)}}}};
  if (o.method == PayMethod::kCard) {
    // Spelled as Adyen's libraries read them (their CardData model has MaskedPan, not MaskedPAN).
    json card = {{"MaskedPan", o.card_mask}, {"EntryMode", json::array({o.keyed ? "Keyed" : "Mobile"})}};
    if (!o.card_brand.empty()) card["PaymentBrand"] = o.card_brand;
    result["PaymentInstrumentData"] = {{"PaymentInstrumentType", "Card"}, {"CardData", card}};
    // No ApprovalCode: the bank's purchase record has none (docs/integration.md). The purchase's
    // id is the acquirer's transaction id, which it is.
    result["PaymentAcquirerData"] = {
        {"AcquirerPOIID", request.header.poi_id},
        {"AcquirerTransactionID", {{"TransactionID", o.authorization_code}, {"TimeStamp", when}}}};
    // Adyen's PaymentResult model holds the Instalment object under "InstalmentType" (its
    // PaymentData, in the request, under "Instalment"): spelled as the register reads it.
    if (o.installments > 1)
      result["InstalmentType"] = {{"InstalmentType", json::array({"EqualInstalments"})},
                                  {"TotalNbOfPayments", o.installments}};
  } else {
    const char* type = o.method == PayMethod::kPix ? "Mobile" : "Check";
    result["PaymentInstrumentData"] = {{"PaymentInstrumentType", type}};
    const std::string reference = o.authorization_code.empty() ? o.pix_end_to_end_id : o.authorization_code;
    result["PaymentAcquirerData"] = {{"AcquirerPOIID", request.header.poi_id},
                                     {"AcquirerTransactionID", {{"TransactionID", reference}, {"TimeStamp", when}}}};
  }
  body["PaymentResult"] = result;
  json receipts = json::array();
  if (!o.cashier_receipt.empty()) receipts.push_back(Receipt("CashierReceipt", o.cashier_receipt));
  if (!o.customer_receipt.empty()) receipts.push_back(Receipt("CustomerReceipt", o.customer_receipt));
  if (!receipts.empty()) body["PaymentReceipt"] = receipts;
  return body;
}

}  // namespace

std::string AdditionalResponse(const PaymentOutcome& o) {
  if (o.result != Result::kApproved) return "";
  std::string tpag, tband;
  if (o.method == PayMethod::kPix) {
    tpag = "17";
  } else if (o.method == PayMethod::kInvoice) {
    tpag = "15";
  } else {
    tpag = o.funding == CardFunding::kDebit ? "04" : "03";
    static const std::pair<const char*, const char*> kBrands[] = {
        {"visa", "01"}, {"mastercard", "02"}, {"amex", "03"}, {"diners", "05"}, {"elo", "06"}, {"hipercard", "07"}};
    tband = "99";
    for (const auto& [name, code] : kBrands)
      if (o.card_brand == name) tband = code;
  }
  std::string out = "tPag=" + tpag + "&tpIntegra=1";
  if (!tband.empty()) out += "&tBand=" + tband;
  if (o.method == PayMethod::kCard && o.funding != CardFunding::kAny)
    out += std::string("&fundingSource=") + (o.funding == CardFunding::kDebit ? "DEBIT" : "CREDIT");
  if (!o.institution_cnpj.empty()) out += "&CNPJ=" + o.institution_cnpj;
  const std::string aut = o.authorization_code.empty() ? o.pix_end_to_end_id : o.authorization_code;
  if (!aut.empty()) out += "&cAut=" + aut;
  if (!o.pix_end_to_end_id.empty()) out += "&endToEndId=" + o.pix_end_to_end_id;
  out += "&vPag=" + FormatAmount(o.amount);
  return out;
}

std::string PaymentResponse(const Request& request, const PaymentOutcome& outcome, const std::string& now) {
  return Dump({{"SaleToPOIResponse",
                {{"MessageHeader", HeaderJson(request.header, "Payment", "Response")},
                 {"PaymentResponse", PaymentBody(request, outcome, now)}}}});
}

std::string TransactionStatusResponse(const Request& request, const StatusLookup& lookup,
                                      const std::optional<Request>& original, const std::string& now) {
  json body;
  const json reference = {
      {"MessageCategory", "Payment"},
      {"ServiceID", request.reference.service_id},
      {"SaleID", request.reference.sale_id.empty() ? request.header.sale_id : request.reference.sale_id}};
  if (lookup.outcome && original) {
    body = {{"Response", {{"Result", "Success"}}},
            {"MessageReference", reference},
            {"RepeatedMessageResponse",
             {{"MessageHeader", HeaderJson(original->header, "Payment", "Response")},
              {"RepeatedResponseMessageBody", {{"PaymentResponse", PaymentBody(*original, *lookup.outcome, now)}}}}}};
  } else {
    const Result result = lookup.result == Result::kInProgress ? Result::kInProgress : Result::kNotFound;
    body = {{"Response", ResponseJson(result,
                                      lookup.result == Result::kInProgress ? "the payment is in progress"
                                                                           : "no such payment on this box",
                                      "")},
            {"MessageReference", reference}};
  }
  return Dump({{"SaleToPOIResponse",
                {{"MessageHeader", HeaderJson(request.header, "TransactionStatus", "Response")},
                 {"TransactionStatusResponse", body}}}});
}

std::string ReversalResponse(const Request& request, const ReversalOutcome& o, const std::string& now) {
  json body = {{"Response", ResponseJson(o.result, o.reason, o.queued ? "queued=true" : "")},
               {"POIData", {{"POITransactionID", {{"TransactionID", o.sale_id}, {"TimeStamp", now}}}}}};
  if (o.result == Result::kApproved) body["ReversedAmount"] = AmountNumber(o.amount);
  // The refund slip, the one copy there is: the customer's, and the merchant keeps the same.
  if (!o.refund_receipt.empty())
    body["PaymentReceipt"] = {Receipt("CashierReceipt", o.refund_receipt),
                              Receipt("CustomerReceipt", o.refund_receipt)};
  return Dump({{"SaleToPOIResponse",
                {{"MessageHeader", HeaderJson(request.header, "Reversal", "Response")}, {"ReversalResponse", body}}}});
}

std::string FailureResponse(const Request& request, const std::string& error_condition, const std::string& reason,
                            const std::string& now) {
  const char* category = CategoryName(request.category);
  json response = {{"Result", "Failure"}, {"ErrorCondition", error_condition}};
  if (!reason.empty()) response["AdditionalResponse"] = "message=" + reason;
  json body = {{"Response", response}};
  if (request.category == Category::kPayment)
    body["SaleData"] = {{"SaleTransactionID",
                         {{"TransactionID", request.payment.identity.transaction_id},
                          {"TimeStamp", request.sale_timestamp.empty() ? now : request.sale_timestamp}}}};
  return Dump({{"SaleToPOIResponse",
                {{"MessageHeader", HeaderJson(request.header, category, "Response")},
                 {std::string(category) + "Response", body}}}});
}

std::string RejectNotification(const MessageHeader& header, const std::string& reason,
                               std::string_view rejected_message, const std::string& now) {
  json h = HeaderJson(header, "Event", "Notification");
  h["MessageClass"] = "Event";
  return Dump({{"SaleToPOIRequest",
                {{"MessageHeader", h},
                 {"EventNotification",
                  {{"TimeStamp", now},
                   {"EventToNotify", "Reject"},
                   {"EventDetails", "message=" + reason},
                   {"RejectedMessage", Base64(rejected_message.substr(0, 4096))}}}}}});
}

}  // namespace balcao::integration::nexo
