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

// The request bodies and answer events shared with the outbox path (queued_calls.cc), so a
// queued request is byte for byte what the direct call would have sent.
api::Invoice InvoiceToCreate(const CreateInvoice& call);
api::Invoice CancelChange();
api::MerchantPurchase PurchaseChange(const ReduceAmount& call);
api::Deposit DepositChange(const ReduceAmount& call);
api::Invoice InvoiceChange(const ReduceAmount& call);
Event InvoiceCreatedEvent(const api::Invoice& invoice, int attempt, UnixMicros now);
Event InvoiceEvent(const api::Invoice& invoice, UnixMicros now);
// The bank's view of a purchase (attempt from its tags, else `attempt`); also what the event
// intake (checkout/driver/intake.h) feeds for a merchant-purchase event.
Event PurchaseEvent(const Sale& sale, const api::MerchantPurchase& purchase, int attempt, UnixMicros now);

// `card`/`browser`: the card held for a CreatePurchase (null when no longer in memory).
Event ExecuteBankCall(const api::Bank& bank, const Sale& sale, const BankCall& call, UnixMicros now,
                      const CardData* card, const BrowserData* browser);

}  // namespace balcao::checkout::internal
