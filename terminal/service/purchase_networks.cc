#include "terminal/service/purchase_networks.h"

#include "common/log.h"

namespace balcao::terminal::service {

std::string PurchaseNetworks::Of(const std::string& purchase_id) {
  if (auto known = known_.find(purchase_id); known != known_.end()) return known->second;
  auto purchase = bank_.merchant_purchase().Get(purchase_id);
  if (!purchase.ok()) {
    logging::Warn("serve", "purchase's network not read: the BIN table names the brand",
                  {{"purchase", purchase_id}, {"reason", purchase.status().message()}});
    return "";  // not kept: asked again next time
  }
  return known_[purchase_id] = purchase->network.value_or("");
}

}  // namespace balcao::terminal::service
