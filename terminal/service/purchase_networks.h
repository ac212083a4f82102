// The card network the bank recorded for a purchase (GET /v2/merchant-purchase/{id}'s
// `network`), asked once per purchase: the receipts and a cash register's answer name the brand
// the bank saw, not the BIN table's guess (docs/terminal.md, "Receipts").
// Owns: the answers so far (a failed lookup is not kept: asked again next time). Calls: the bank.
// Thread-safety: the driver's thread only.
#pragma once

#include <map>
#include <string>

#include "api/bank.h"

namespace balcao::terminal::service {

class PurchaseNetworks {
 public:
  explicit PurchaseNetworks(const api::Bank& bank) : bank_(bank) {}
  // The network, "" when the bank gives none or cannot be asked (then logged).
  std::string Of(const std::string& purchase_id);

 private:
  const api::Bank& bank_;
  std::map<std::string, std::string> known_;  // purchase id -> the bank's network
};

}  // namespace balcao::terminal::service
