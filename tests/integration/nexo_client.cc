#include "tests/integration/nexo_client.h"

#include <curl/curl.h>

#include "integration/nexo/message.h"

namespace balcao::integration::testing {
namespace {

size_t Collect(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

// A JSON value's place filled with raw number text ("12.34" as a number, as a register sends it).
std::string WithAmount(const Json& message, const std::string& amount) {
  std::string text = message.dump();
  const std::string marker = "\"__AMOUNT__\"";
  if (auto at = text.find(marker); at != std::string::npos) text.replace(at, marker.size(), amount);
  return text;
}

}  // namespace

NexoClient::NexoClient(std::string url, std::string ca_file, const Json& key)
    : url_(std::move(url)),
      ca_file_(std::move(ca_file)),
      sale_id_(key.value("saleId", "")),
      poi_id_(key.value("poiId", "")) {
  key_identifier = key.value("keyIdentifier", "");
  key_version = key.value("keyVersion", 1);
  keys = nexo::DeriveKeys(key.value("passphrase", ""));
}

Json NexoClient::Header(const std::string& category, const std::string& service_id) const {
  return {{"ProtocolVersion", "3.0"}, {"MessageClass", "Service"}, {"MessageCategory", category},
          {"MessageType", "Request"}, {"ServiceID", service_id},   {"SaleID", sale_id_},
          {"POIID", poi_id_}};
}

std::string NexoClient::Payment(const std::string& service_id, const std::string& transaction_id,
                                const std::string& amount, const std::string& acquirer_data, int installments) const {
  Json sale_data = {{"SaleTransactionID", {{"TransactionID", transaction_id}, {"TimeStamp", "2026-11-26T10:00:00Z"}}}};
  if (!acquirer_data.empty()) sale_data["SaleToAcquirerData"] = acquirer_data;
  Json request = {{"SaleData", sale_data},
                  {"PaymentTransaction", {{"AmountsReq", {{"Currency", "BRL"}, {"RequestedAmount", "__AMOUNT__"}}}}}};
  if (installments > 0)
    request["PaymentData"] = {
        {"Instalment", {{"InstalmentType", {"EqualInstalments"}}, {"TotalNbOfPayments", installments}}}};
  return WithAmount(
      {{"SaleToPOIRequest", {{"MessageHeader", Header("Payment", service_id)}, {"PaymentRequest", request}}}}, amount);
}

std::string NexoClient::TransactionStatus(const std::string& service_id, const std::string& payment_service_id) const {
  const Json body = {
      {"MessageReference", {{"MessageCategory", "Payment"}, {"ServiceID", payment_service_id}, {"SaleID", sale_id_}}},
      {"DocumentQualifier", {"CashierReceipt", "CustomerReceipt"}}};
  return Json{{"SaleToPOIRequest",
               {{"MessageHeader", Header("TransactionStatus", service_id)}, {"TransactionStatusRequest", body}}}}
      .dump();
}

std::string NexoClient::Abort(const std::string& service_id, const std::string& payment_service_id) const {
  const Json body = {
      {"AbortReason", "MerchantAbort"},
      {"MessageReference", {{"MessageCategory", "Payment"}, {"ServiceID", payment_service_id}, {"SaleID", sale_id_}}}};
  return Json{{"SaleToPOIRequest", {{"MessageHeader", Header("Abort", service_id)}, {"AbortRequest", body}}}}.dump();
}

std::string NexoClient::Reversal(const std::string& service_id, const std::string& poi_transaction_id) const {
  const Json body = {
      {"OriginalPOITransaction",
       {{"POITransactionID", {{"TransactionID", poi_transaction_id}, {"TimeStamp", "2026-11-26T10:00:00Z"}}}}},
      {"ReversalReason", "MerchantCancel"}};
  return Json{{"SaleToPOIRequest", {{"MessageHeader", Header("Reversal", service_id)}, {"ReversalRequest", body}}}}
      .dump();
}

std::string NexoClient::Protect(const std::string& plaintext) const {
  auto wrapped = nexo::ProtectRequest(plaintext, keys, key_identifier, key_version);
  return wrapped.ok() ? *wrapped : "";
}

NexoAnswer NexoClient::Send(const std::string& plaintext, long timeout_s) const {
  return Post(Protect(plaintext), timeout_s);
}

NexoAnswer NexoClient::Post(const std::string& body, long timeout_s) const {
  NexoAnswer answer;
  CURL* curl = curl_easy_init();
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  curl_easy_setopt(curl, CURLOPT_URL, url_.c_str());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_CAINFO, ca_file_.c_str());
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, timeout_s);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, Collect);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &answer.body);
  const CURLcode code = curl_easy_perform(curl);
  if (code == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &answer.http_status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  if (code != CURLE_OK) {
    answer.error = curl_easy_strerror(code);
    return answer;
  }
  const Json outer = Json::parse(answer.body, nullptr, false);
  if (outer.is_object() && outer.contains("SaleToPOIResponse") && outer["SaleToPOIResponse"].contains("NexoBlob")) {
    auto plain = nexo::UnprotectResponse(answer.body, keys);
    if (!plain.ok()) {
      answer.error = plain.status().message();
      return answer;
    }
    answer.was_protected = true;
    answer.message = Json::parse(*plain, nullptr, false);
  } else {
    answer.message = outer;
  }
  return answer;
}

Json Body(const NexoAnswer& answer, const std::string& name) {
  if (!answer.message.is_object() || !answer.message.contains("SaleToPOIResponse")) return Json();
  const Json& top = answer.message["SaleToPOIResponse"];
  return top.contains(name) ? top[name] : Json();
}

}  // namespace balcao::integration::testing
