// Wiring between the checkout and the printer: turns a sale's Print effect into the
// receipt document the customer or the merchant gets. Card data never reaches here: the
// sale only carries the 6+4 mask the checkout kept.
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>

#include "checkout/checkout.h"
#include "common/time.h"
#include "printer/receipt.h"
#include "printer/templates.h"

namespace balcao::terminal {

struct StoreIdentity {
  printer::Merchant merchant;
  printer::ReceiptOptions options;
};

// The document for `print` in `sale` at time `now`; nullopt for slips with nothing to show.
// `installments` is what the customer chose at the card reader (card sale receipts).
std::optional<printer::Document> ReceiptFor(const checkout::Sale& sale, const checkout::Print& print,
                                            const StoreIdentity& store, UnixMicros now, int installments = 1);

}  // namespace balcao::terminal
