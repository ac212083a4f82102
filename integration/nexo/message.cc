#include "integration/nexo/message.h"

#include <cctype>
#include <ctime>
#include <nlohmann/json.hpp>
#include <set>

namespace balcao::integration::nexo {
namespace {

using nlohmann::json;

constexpr int kMaxDepth = 16;

// Builds the tree like nlohmann's own DOM parser, with three differences: a number with a
// fraction or an exponent keeps its text (as a binary value, which JSON text cannot produce),
// a key given twice and nesting deeper than kMaxDepth stop the parse.
class TextNumberBuilder {
 public:
  explicit TextNumberBuilder(json& root) : root_(root) {}
  bool null() { return Put(json(nullptr)); }
  bool boolean(bool value) { return Put(json(value)); }
  bool number_integer(json::number_integer_t value) { return Put(json(value)); }
  bool number_unsigned(json::number_unsigned_t value) { return Put(json(value)); }
  bool number_float(json::number_float_t, const json::string_t& text) {
    return Put(json::binary(std::vector<std::uint8_t>(text.begin(), text.end())));
  }
  bool string(json::string_t& value) { return Put(json(value)); }
  bool binary(json::binary_t&) { return Fail("no binary values"); }
  bool start_object(std::size_t) { return Open(json::object()); }
  bool key(json::string_t& name) {
    if (!keys_.back().insert(name).second) return Fail("a JSON object without a key given twice ('" + name + "')");
    key_ = name;
    return true;
  }
  bool end_object() {
    keys_.pop_back();
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) { return Open(json::array()); }
  bool end_array() {
    keys_.pop_back();
    stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    return Fail("a JSON object");
  }
  const std::string& error() const { return error_; }

 private:
  bool Fail(std::string why) {
    if (error_.empty()) error_ = std::move(why);
    return false;
  }
  json* Place(json value) {
    if (stack_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    json& parent = *stack_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    return &(parent[key_] = std::move(value));
  }
  bool Put(json value) {
    if (stack_.empty()) return Fail("a JSON object");
    Place(std::move(value));
    return true;
  }
  bool Open(json value) {
    if (static_cast<int>(stack_.size()) >= kMaxDepth)
      return Fail("a JSON object nested at most " + std::to_string(kMaxDepth) + " deep");
    stack_.push_back(Place(std::move(value)));
    keys_.emplace_back();
    return true;
  }

  json& root_;
  std::vector<json*> stack_;
  std::vector<std::set<std::string>> keys_;
  std::string key_;
  std::string error_;
};

// A field reader that names the path of what it refuses.
struct Fields {
  const json& object;
  std::string path;

  const json* Find(const char* key) const {
    if (!object.is_object()) return nullptr;
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  }
  std::string Path(const char* key) const { return path.empty() ? key : path + "." + key; }
  StatusOr<std::string> Text(const char* key, bool required = true, std::size_t max = 64) const {
    const json* value = Find(key);
    if (value == nullptr) {
      if (required) return InvalidArgumentError(Path(key) + ": required");
      return std::string();
    }
    if (!value->is_string()) return InvalidArgumentError(Path(key) + ": a string");
    const auto& text = value->get_ref<const std::string&>();
    if (text.size() > max) return InvalidArgumentError(Path(key) + ": at most " + std::to_string(max) + " characters");
    for (unsigned char c : text)
      if (c < 0x20) return InvalidArgumentError(Path(key) + ": no control characters");
    if (required && text.empty()) return InvalidArgumentError(Path(key) + ": not empty");
    return text;
  }
  StatusOr<Fields> Object(const char* key) const {
    const json* value = Find(key);
    if (value == nullptr) return InvalidArgumentError(Path(key) + ": required");
    if (!value->is_object()) return InvalidArgumentError(Path(key) + ": an object");
    return Fields{*value, Path(key)};
  }
  // The text of a number (an integer, or the kept text of a fraction).
  StatusOr<std::string> NumberText(const char* key) const {
    const json* value = Find(key);
    if (value == nullptr) return InvalidArgumentError(Path(key) + ": required");
    if (value->is_binary()) return std::string(value->get_binary().begin(), value->get_binary().end());
    if (value->is_number_integer()) return value->dump();
    return InvalidArgumentError(Path(key) + ": a number");
  }
};

#define NEXO_TRY(lhs, expr) BALCAO_ASSIGN_OR_RETURN(lhs, expr)

StatusOr<MessageHeader> ReadHeader(const Fields& top) {
  NEXO_TRY(const Fields h, top.Object("MessageHeader"));
  MessageHeader header;
  NEXO_TRY(header.protocol_version, h.Text("ProtocolVersion", false, 8));
  NEXO_TRY(header.message_class, h.Text("MessageClass"));
  NEXO_TRY(header.message_category, h.Text("MessageCategory"));
  NEXO_TRY(header.message_type, h.Text("MessageType"));
  NEXO_TRY(header.service_id, h.Text("ServiceID", true, 10));
  NEXO_TRY(header.sale_id, h.Text("SaleID"));
  NEXO_TRY(header.poi_id, h.Text("POIID"));
  if (header.message_class != "Service")
    return InvalidArgumentError("MessageHeader.MessageClass: \"Service\" (the requests this box takes)");
  if (header.message_type != "Request") return InvalidArgumentError("MessageHeader.MessageType: \"Request\"");
  return header;
}

StatusOr<MessageReference> ReadReference(const Fields& body) {
  NEXO_TRY(const Fields r, body.Object("MessageReference"));
  MessageReference ref;
  NEXO_TRY(ref.message_category, r.Text("MessageCategory", false));
  NEXO_TRY(ref.service_id, r.Text("ServiceID", true, 10));
  NEXO_TRY(ref.sale_id, r.Text("SaleID", false));
  NEXO_TRY(ref.poi_id, r.Text("POIID", false));
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
  NEXO_TRY(const Fields sale_data, body.Object("SaleData"));
  NEXO_TRY(const Fields sale_tx, sale_data.Object("SaleTransactionID"));
  PaymentRequest& p = out.payment;
  NEXO_TRY(p.identity.transaction_id, sale_tx.Text("TransactionID"));
  NEXO_TRY(out.sale_timestamp, sale_tx.Text("TimeStamp", false));
  NEXO_TRY(const std::string acquirer_data, sale_data.Text("SaleToAcquirerData", false, 1024));
  NEXO_TRY(p.method, ReadMethod(acquirer_data, sale_data.Path("SaleToAcquirerData")));
  NEXO_TRY(p.register_name, sale_data.Text("OperatorID", false, 40));
  NEXO_TRY(const Fields tx, body.Object("PaymentTransaction"));
  NEXO_TRY(const Fields amounts, tx.Object("AmountsReq"));
  NEXO_TRY(const std::string currency, amounts.Text("Currency"));
  if (currency != "BRL") return InvalidArgumentError(amounts.Path("Currency") + ": \"BRL\"");
  NEXO_TRY(const std::string amount_text, amounts.NumberText("RequestedAmount"));
  NEXO_TRY(p.amount, ParseAmount(amount_text, amounts.Path("RequestedAmount")));
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

std::string Dump(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

StatusOr<std::string> Wrap(const char* top, const std::string& plaintext, const DerivedKeys& keys,
                           const std::string& key_identifier, int key_version) {
  const json parsed = json::parse(plaintext, nullptr, false);
  if (!parsed.is_object() || !parsed.contains(top) || !parsed[top].contains("MessageHeader"))
    return InvalidArgumentError(std::string(top) + ": a message with a MessageHeader");
  BALCAO_ASSIGN_OR_RETURN(const Protected sealed, Protect(plaintext, keys, key_identifier, key_version));
  const json trailer = {{"AdyenCryptoVersion", sealed.trailer.crypto_version},
                        {"KeyIdentifier", sealed.trailer.key_identifier},
                        {"KeyVersion", sealed.trailer.key_version},
                        {"Nonce", sealed.trailer.nonce},
                        {"Hmac", sealed.trailer.hmac}};
  return Dump(
      {{top,
        {{"MessageHeader", parsed[top]["MessageHeader"]}, {"NexoBlob", sealed.blob}, {"SecurityTrailer", trailer}}}});
}

}  // namespace

const char* CategoryName(Category category) {
  switch (category) {
    case Category::kPayment:
      return "Payment";
    case Category::kTransactionStatus:
      return "TransactionStatus";
    case Category::kAbort:
      return "Abort";
    case Category::kReversal:
      return "Reversal";
  }
  return "";
}

StatusOr<Cents> ParseAmount(std::string_view text, std::string_view field) {
  const std::string rule = std::string(field) + ": a decimal amount in BRL from 0.01, at most two decimals (\"12.34\")";
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  auto digits = [](std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (!digits(whole) || whole.size() > 9 ||
      (dot != std::string_view::npos && (!digits(fraction) || fraction.size() > 2)))
    return InvalidArgumentError(rule);
  Cents cents = 0;
  for (char c : whole) cents = cents * 10 + (c - '0');
  cents *= 100;
  if (!fraction.empty()) cents += (fraction[0] - '0') * 10 + (fraction.size() > 1 ? fraction[1] - '0' : 0);
  if (cents < 1) return InvalidArgumentError(rule);
  return cents;
}

std::string FormatAmount(Cents cents) {
  char text[32];
  std::snprintf(text, sizeof text, "%lld.%02lld", static_cast<long long>(cents / 100),
                static_cast<long long>(cents % 100));
  return text;
}

std::string IsoTime(std::int64_t unix_ms) {
  const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[96];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(unix_ms % 1000));
  return text;
}

StatusOr<Request> ParseRequest(std::string_view text) {
  json root;
  TextNumberBuilder builder(root);
  const bool parsed = json::sax_parse(text, &builder, json::input_format_t::json, /*strict=*/true);
  if (!parsed || !builder.error().empty())
    return InvalidArgumentError("body: " + (builder.error().empty() ? std::string("a JSON object") : builder.error()));
  if (!root.is_object()) return InvalidArgumentError("body: a JSON object");
  const Fields outer{root, ""};
  NEXO_TRY(const Fields top, outer.Object("SaleToPOIRequest"));
  Request request;
  NEXO_TRY(request.header, ReadHeader(top));
  if (top.Find("NexoBlob") != nullptr) {
    request.is_protected = true;
    NEXO_TRY(request.blob, top.Text("NexoBlob", true, 96 << 10));
    NEXO_TRY(const Fields trailer, top.Object("SecurityTrailer"));
    NEXO_TRY(request.trailer.key_identifier, trailer.Text("KeyIdentifier"));
    NEXO_TRY(request.trailer.nonce, trailer.Text("Nonce"));
    NEXO_TRY(request.trailer.hmac, trailer.Text("Hmac"));
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
  NEXO_TRY(const Fields body, top.Object(body_name.c_str()));
  request.payment.identity = {request.header.sale_id, request.header.service_id, ""};
  if (category == "Payment") {
    request.category = Category::kPayment;
    BALCAO_RETURN_IF_ERROR(ReadPayment(body, request));
  } else if (category == "TransactionStatus") {
    request.category = Category::kTransactionStatus;
    NEXO_TRY(request.reference, ReadReference(body));
  } else if (category == "Abort") {
    request.category = Category::kAbort;
    NEXO_TRY(request.reference, ReadReference(body));
    NEXO_TRY(request.abort_reason, body.Text("AbortReason", false, 200));
  } else if (category == "Reversal") {
    request.category = Category::kReversal;
    NEXO_TRY(const Fields original, body.Object("OriginalPOITransaction"));
    NEXO_TRY(const Fields poi_tx, original.Object("POITransactionID"));
    request.reversal.identity = request.payment.identity;
    NEXO_TRY(request.reversal.sale_id, poi_tx.Text("TransactionID"));
    NEXO_TRY(request.reversal.reason, body.Text("ReversalReason", false, 40));
    if (body.Find("ReversedAmount") != nullptr) {
      NEXO_TRY(const std::string amount, body.NumberText("ReversedAmount"));
      NEXO_TRY(request.reversal.amount, ParseAmount(amount, body.Path("ReversedAmount")));
    }
  } else {
    return InvalidArgumentError("MessageHeader.MessageCategory: Payment, TransactionStatus, Abort or Reversal");
  }
  return request;
}

const char* ErrorConditionOf(Result result) {
  switch (result) {
    case Result::kApproved:
      return "";
    case Result::kRefused:
      return "Refusal";
    case Result::kAborted:
      return "Aborted";
    case Result::kBusy:
      return "Busy";
    case Result::kNotAllowed:
      return "NotAllowed";
    case Result::kUnavailable:
      return "UnavailableService";
    case Result::kInProgress:
      return "InProgress";
    case Result::kNotFound:
      return "NotFound";
    case Result::kInvalid:
      return "MessageFormat";
  }
  return "";
}

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

StatusOr<std::string> ProtectResponse(const std::string& plaintext, const DerivedKeys& keys,
                                      const std::string& key_identifier, int key_version) {
  return Wrap("SaleToPOIResponse", plaintext, keys, key_identifier, key_version);
}

StatusOr<std::string> ProtectRequest(const std::string& plaintext, const DerivedKeys& keys,
                                     const std::string& key_identifier, int key_version) {
  return Wrap("SaleToPOIRequest", plaintext, keys, key_identifier, key_version);
}

StatusOr<std::string> UnprotectResponse(std::string_view text, const DerivedKeys& keys) {
  const json parsed = json::parse(text, nullptr, false);
  if (!parsed.is_object() || !parsed.contains("SaleToPOIResponse") || !parsed["SaleToPOIResponse"].is_object())
    return InvalidArgumentError("SaleToPOIResponse: required");
  const json& top = parsed["SaleToPOIResponse"];
  if (!top.contains("NexoBlob") || !top["NexoBlob"].is_string() || !top.contains("SecurityTrailer") ||
      !top["SecurityTrailer"].is_object())
    return InvalidArgumentError("SaleToPOIResponse: NexoBlob and SecurityTrailer");
  const json& t = top["SecurityTrailer"];
  SecurityTrailer trailer;
  trailer.nonce = t.value("Nonce", "");
  trailer.hmac = t.value("Hmac", "");
  trailer.key_identifier = t.value("KeyIdentifier", "");
  trailer.key_version = t.value("KeyVersion", 0);
  return Unprotect(top["NexoBlob"].get<std::string>(), trailer, keys);
}

}  // namespace balcao::integration::nexo
