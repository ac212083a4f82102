// A sale's journaled events, decoded: what the receipts read the card's terms from
// (CardTermsOf) and what the service replays a sale from when the driver does not hold it.
// Thread-safety: as offline::Journal (one connection, one thread at a time).
#pragma once

#include <string>
#include <vector>

#include "checkout/checkout.h"
#include "common/status.h"
#include "offline/journal.h"
#include "terminal/internal/receipts.h"

namespace balcao::terminal {

// Every event of the sale, oldest first; kNotFound when the journal has none.
StatusOr<std::vector<checkout::Event>> ReadSaleEvents(offline::Journal& journal, const std::string& sale_id);
// CardTermsOf(the sale's events); the defaults when they cannot be read.
CardTerms ReadCardTerms(offline::Journal& journal, const std::string& sale_id);

}  // namespace balcao::terminal
