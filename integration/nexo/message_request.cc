// The requests: a SaleToPOIRequest read into message.h's Request (docs/integration.md lists
// every field read), amounts read as the JSON text of the number.
#include <algorithm>

#include "integration/nexo/internal/json_text.h"
#include "integration/nexo/message.h"

namespace balcao::integration::nexo {
namespace {

using internal::Fields;
using nlohmann::json;

StatusOr<MessageHeader> ReadHeader(const Fields& top) {
  BALCAO_ASSIGN_OR_RETURN(const Fields h, top.Object("MessageHeader"));
  MessageHeader header;
  BALCAO_ASSIGN_OR_RETURN(header.protocol_version, h.Text("ProtocolVersion", false, 8));
  BALCAO_ASSIGN_OR_RETURN(header.message_class, h.Text("MessageClass"));
  BALCAO_ASSIGN_OR_RETURN(header.message_category, h.Text("MessageCategory"));
  BALCAO_ASSIGN_OR_RETURN(header.message_type, h.Text("MessageType"));
  BALCAO_ASSIGN_OR_RETURN(header.service_id, h.Text("ServiceID", true, 10));
  BALCAO_ASSIGN_OR_RETURN(header.sale_id, h.Text("SaleID"));
  BALCAO_ASSIGN_OR_RETURN(header.poi_id, h.Text("POIID"));
  if (header.message_class != "Service")
    return InvalidArgumentError("MessageHeader.MessageClass: \"Service\" (the requests this box takes)");
  if (header.message_type != "Request") return InvalidArgumentError("MessageHeader.MessageType: \"Request\"");
  return header;
}

StatusOr<MessageReference> ReadReference(const Fields& body) {
  BALCAO_ASSIGN_OR_RETURN(const Fields r, body.Object("MessageReference"));
  MessageReference ref;
  BALCAO_ASSIGN_OR_RETURN(ref.message_category, r.Text("MessageCategory", false));
  BALCAO_ASSIGN_OR_RETURN(ref.service_id, r.Text("ServiceID", true, 10));
  BALCAO_ASSIGN_OR_RETURN(ref.sale_id, r.Text("SaleID", false));
  BALCAO_ASSIGN_OR_RETURN(ref.poi_id, r.Text("POIID", false));
  if (!ref.message_category.empty() && ref.message_category != "Payment")
    return InvalidArgumentError(r.Path("MessageCategory") + ": \"Payment\"");
  return ref;
}

// SaleToAcquirerData "method=pix&x=y": the method, if named.
StatusOr<PayMethod> ReadMethod(const std::string& data, const std::string& path) {
  PayMethod method = PayMethod::kAsk;
  std::size_t start = 0;
  while (start <= data.size()) {
    const std::size_t end = std::min(data.find('&', start), data.size());
    const std::string pair = data.substr(start, end - start);
    if (pair.rfind("method=", 0) == 0) {
      const std::string name = pair.substr(7);
      if (name != "pix" && name != "card" && name != "invoice")
        return InvalidArgumentError(path + ": method=pix, method=card or method=invoice");
      ParsePayMethod(name, method);
    }
    start = end + 1;
  }
  return method;
}

Status ReadPayment(const Fields& body, Request& out) {
  BALCAO_ASSIGN_OR_RETURN(const Fields sale_data, body.Object("SaleData"));
  BALCAO_ASSIGN_OR_RETURN(const Fields sale_tx, sale_data.Object("SaleTransactionID"));
  PaymentRequest& p = out.payment;
  BALCAO_ASSIGN_OR_RETURN(p.identity.transaction_id, sale_tx.Text("TransactionID"));
  BALCAO_ASSIGN_OR_RETURN(out.sale_timestamp, sale_tx.Text("TimeStamp", false));
  BALCAO_ASSIGN_OR_RETURN(const std::string acquirer_data, sale_data.Text("SaleToAcquirerData", false, 1024));
  BALCAO_ASSIGN_OR_RETURN(p.method, ReadMethod(acquirer_data, sale_data.Path("SaleToAcquirerData")));
  BALCAO_ASSIGN_OR_RETURN(p.register_name, sale_data.Text("OperatorID", false, 40));
  BALCAO_ASSIGN_OR_RETURN(const Fields tx, body.Object("PaymentTransaction"));
  BALCAO_ASSIGN_OR_RETURN(const Fields amounts, tx.Object("AmountsReq"));
  BALCAO_ASSIGN_OR_RETURN(const std::string currency, amounts.Text("Currency"));
  if (currency != "BRL") return InvalidArgumentError(amounts.Path("Currency") + ": \"BRL\"");
  BALCAO_ASSIGN_OR_RETURN(const std::string amount_text, amounts.NumberText("RequestedAmount"));
  BALCAO_ASSIGN_OR_RETURN(p.amount, ParseAmount(amount_text, amounts.Path("RequestedAmount")));
  if (const json* data = body.Find("PaymentData")) {
    const Fields payment_data{*data, body.Path("PaymentData")};
    if (!data->is_object()) return InvalidArgumentError(payment_data.path + ": an object");
    if (const json* inst = payment_data.Find("Instalment")) {
      const Fields instalment{*inst, payment_data.Path("Instalment")};
      const json* count = instalment.Find("TotalNbOfPayments");
      if (!inst->is_object() || count == nullptr || !count->is_number_integer() || count->get<long long>() < 1 ||
          count->get<long long>() > 99)
        return InvalidArgumentError(instalment.Path("TotalNbOfPayments") + ": a whole number from 1 to 99");
      p.installments = count->get<int>();
      if (p.installments > 1) p.funding = CardFunding::kCredit;
    }
  }
  if (p.installments > 1 && p.method != PayMethod::kCard && p.method != PayMethod::kAsk)
    return InvalidArgumentError(body.Path("PaymentData.Instalment") + ": installments only with method=card");
  return OkStatus();
}

}  // namespace

StatusOr<Request> ParseRequest(std::string_view text) {
  BALCAO_ASSIGN_OR_RETURN(const json root, internal::ParseStrictObject(text));
  const Fields outer{root, ""};
  BALCAO_ASSIGN_OR_RETURN(const Fields top, outer.Object("SaleToPOIRequest"));
  Request request;
  BALCAO_ASSIGN_OR_RETURN(request.header, ReadHeader(top));
  if (top.Find("NexoBlob") != nullptr) {
    request.is_protected = true;
    BALCAO_ASSIGN_OR_RETURN(request.blob, top.Text("NexoBlob", true, 96 << 10));
    BALCAO_ASSIGN_OR_RETURN(const Fields trailer, top.Object("SecurityTrailer"));
    BALCAO_ASSIGN_OR_RETURN(request.trailer.key_identifier, trailer.Text("KeyIdentifier"));
    BALCAO_ASSIGN_OR_RETURN(request.trailer.nonce, trailer.Text("Nonce"));
    BALCAO_ASSIGN_OR_RETURN(request.trailer.hmac, trailer.Text("Hmac"));
    const json* version = trailer.Find("KeyVersion");
    if (version == nullptr || !version->is_number_integer() || version->get<long long>() < 1 ||
        version->get<long long>() > 1'000'000)
      return InvalidArgumentError("SaleToPOIRequest.SecurityTrailer.KeyVersion: a whole number from 1");
    request.trailer.key_version = version->get<int>();
    const json* crypto = trailer.Find("AdyenCryptoVersion");
    if (crypto != nullptr && (!crypto->is_number_integer() || crypto->get<long long>() != kCryptoVersion))
      return InvalidArgumentError("SaleToPOIRequest.SecurityTrailer.AdyenCryptoVersion: 1");
    return request;
  }
  const std::string& category = request.header.message_category;
  const std::string body_name = category + "Request";
  BALCAO_ASSIGN_OR_RETURN(const Fields body, top.Object(body_name.c_str()));
  request.payment.identity = {request.header.sale_id, request.header.service_id, ""};
  if (category == "Payment") {
    request.category = Category::kPayment;
    BALCAO_RETURN_IF_ERROR(ReadPayment(body, request));
  } else if (category == "TransactionStatus") {
    request.category = Category::kTransactionStatus;
    BALCAO_ASSIGN_OR_RETURN(request.reference, ReadReference(body));
  } else if (category == "Abort") {
    request.category = Category::kAbort;
    BALCAO_ASSIGN_OR_RETURN(request.reference, ReadReference(body));
    BALCAO_ASSIGN_OR_RETURN(request.abort_reason, body.Text("AbortReason", false, 200));
  } else if (category == "Reversal") {
    request.category = Category::kReversal;
    BALCAO_ASSIGN_OR_RETURN(const Fields original, body.Object("OriginalPOITransaction"));
    BALCAO_ASSIGN_OR_RETURN(const Fields poi_tx, original.Object("POITransactionID"));
    request.reversal.identity = request.payment.identity;
    BALCAO_ASSIGN_OR_RETURN(request.reversal.sale_id, poi_tx.Text("TransactionID"));
    BALCAO_ASSIGN_OR_RETURN(request.reversal.reason, body.Text("ReversalReason", false, 40));
    if (body.Find("ReversedAmount") != nullptr) {
      BALCAO_ASSIGN_OR_RETURN(const std::string amount, body.NumberText("ReversedAmount"));
      BALCAO_ASSIGN_OR_RETURN(request.reversal.amount, ParseAmount(amount, body.Path("ReversedAmount")));
    }
  } else {
    return InvalidArgumentError("MessageHeader.MessageCategory: Payment, TransactionStatus, Abort or Reversal");
  }
  return request;
}

}  // namespace balcao::integration::nexo
