// The store's cash registers (docs/integration.md): each register's key versions (kept as the
// derived key material; the passphrase is shown once by `balcao pos add` and never stored),
// the message nonces already seen, and every request with its identity and, once finished, its
// outcome. Protocol-neutral: the key material and the request text are opaque here.
// Thread-safety: as Store.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "offline/store.h"

namespace balcao::offline {

struct PosKey {
  std::string register_id;
  std::string key_identifier;
  int key_version = 0;
  std::string derived_keys;  // opaque key material
  std::int64_t created_at_ms = 0;
  std::int64_t retired_at_ms = 0;  // 0: the current version
  bool disabled = false;
};

struct RegisterRequestRow {
  std::string register_id, service_id, transaction_id;
  std::string kind;  // "payment" or "reversal"
  std::string sale_id;
  std::string request;
  std::string outcome;  // "" while running
  std::int64_t created_at_ms = 0;
};

class CashRegisters {
 public:
  explicit CashRegisters(Store& store) : store_(store) {}

  // A new register's first key (version 1). kAlreadyExists when the register has keys.
  Status AddRegister(const PosKey& key);
  // A new version for the register: the current one is retired now (still accepted for the
  // grace period the caller enforces). kNotFound for an unknown register.
  StatusOr<PosKey> Rotate(const std::string& register_id, const std::string& derived_keys);
  // Every version of `register_id` refused from now on. kNotFound.
  Status Disable(const std::string& register_id);
  StatusOr<std::vector<PosKey>> List();
  StatusOr<PosKey> FindKey(const std::string& key_identifier, int key_version);  // kNotFound
  // Remembers a nonce; kAlreadyExists when this key saw it before (a replay).
  Status RememberNonce(const std::string& key_identifier, const std::string& nonce);

  // Records a new request. kAlreadyExists (with nothing written) when its (register_id,
  // service_id) was seen before: read it with FindRequest.
  Status BeginRequest(const RegisterRequestRow& row);
  StatusOr<RegisterRequestRow> FindRequest(const std::string& register_id, const std::string& service_id);
  // The payment request that started sale `sale_id` (kNotFound).
  StatusOr<RegisterRequestRow> FindPaymentOfSale(const std::string& sale_id);
  Status SetSale(const std::string& register_id, const std::string& service_id, const std::string& sale_id);
  Status Finish(const std::string& register_id, const std::string& service_id, const std::string& outcome);
  // Requests of `kind` without an outcome, oldest first (at start: watched again).
  StatusOr<std::vector<RegisterRequestRow>> Running(const std::string& kind);

 private:
  Store& store_;
};

}  // namespace balcao::offline
