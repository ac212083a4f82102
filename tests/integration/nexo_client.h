// A cash register for tests: builds nexo SaleToPOIRequest messages, protects them with a
// registered register's passphrase (integration/nexo/protection.h, as Adyen's local integration
// does), posts them over HTTPS verifying the box's certificate, and opens the protected answers.
// Thread-safety: one client per thread (Send may run on several threads at once).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "integration/nexo/protection.h"

namespace balcao::integration::testing {

using Json = nlohmann::json;

struct NexoAnswer {
  long http_status = 0;  // 0: no answer (timed out)
  std::string body;      // as received
  Json message;          // the answer's plaintext: {"SaleToPOIResponse":...} or a reject {"SaleToPOIRequest":...}
  bool was_protected = false;
  std::string error;  // why `message` is empty
};

class NexoClient {
 public:
  // `key` is what `balcao pos add` printed: saleId, poiId, keyIdentifier, keyVersion, passphrase.
  NexoClient(std::string url, std::string ca_file, const Json& key);

  // The plaintext of a PaymentRequest; `amount` is the number's text ("12.34").
  std::string Payment(const std::string& service_id, const std::string& transaction_id, const std::string& amount,
                      const std::string& acquirer_data = "", int installments = 0) const;
  std::string TransactionStatus(const std::string& service_id, const std::string& payment_service_id) const;
  std::string Abort(const std::string& service_id, const std::string& payment_service_id) const;
  std::string Reversal(const std::string& service_id, const std::string& poi_transaction_id) const;

  // Protects `plaintext` with a fresh nonce, posts it and opens the answer.
  NexoAnswer Send(const std::string& plaintext, long timeout_s = 60) const;
  // The protected request text, to send as is (again: a replay) with Post.
  std::string Protect(const std::string& plaintext) const;
  NexoAnswer Post(const std::string& body, long timeout_s = 60) const;

  const std::string& sale_id() const { return sale_id_; }
  const std::string& poi_id() const { return poi_id_; }
  std::string key_identifier;
  int key_version = 1;
  nexo::DerivedKeys keys;

 private:
  Json Header(const std::string& category, const std::string& service_id) const;
  std::string url_, ca_file_, sale_id_, poi_id_;
};

// The PaymentResponse (or TransactionStatusResponse...) body of an answer; null when absent.
Json Body(const NexoAnswer& answer, const std::string& name);

}  // namespace balcao::integration::testing
