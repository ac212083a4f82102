// Runs one BankCall effect through api::Bank and turns the bank's answer (or failure) into
// the checkout event that reports it. The only place that maps checkout effects to API
// requests and API models back to events.
#pragma once

#include <string>

#include "api/bank.h"
#include "checkout/checkout.h"

namespace balcao::checkout {
struct CardData;
struct BrowserData;
}  // namespace balcao::checkout

namespace balcao::checkout::internal {

// `card`/`browser`: the card held for a CreatePurchase (null when no longer in memory).
Event ExecuteBankCall(const api::Bank& bank, const Sale& sale, const BankCall& call, UnixMicros now,
                      const CardData* card, const BrowserData* browser);

}  // namespace balcao::checkout::internal
