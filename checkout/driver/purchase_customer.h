// The customer's part of a card purchase (holder e-mail and phone, billing address, the
// device's 3-D Secure metadata), only what was given: what a purchase adds to the card
// (checkout/driver/bank_calls.cc), and what a card sealed offline keeps for its forward
// (terminal/service/offline_cards.cc, offline/card_forwarder.h). Pure.
#pragma once

#include "api/models.h"
#include "checkout/driver/driver.h"

namespace balcao::checkout {

api::MerchantPurchase PurchaseCustomer(const CardData& card, const BrowserData& browser);

}  // namespace balcao::checkout
