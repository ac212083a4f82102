// Defense in depth against card data reaching the disk: anything written to the
// journal or the outbox is scanned first. A payload is refused when it carries a
// security-code or card-number field, or a 13-19 digit run (single spaces or dashes
// between groups allowed) that starts like a card (2-6) and passes Luhn, outside
// id-like fields and bank-generated text (links, BR Code payloads). The error names the field, never the digits.
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "common/card_digits.h"
#include "common/status.h"

namespace balcao::offline {

// Luhn check over a string of digits (false for any non-digit): common/card_digits.h.
using ::balcao::PassesLuhn;

// Scans free text (a log line, a receipt) for digit runs that look like card numbers
// (common/card_digits.h; runs glued to letters are exempt).
bool ContainsCardNumber(std::string_view text);

// Scans a JSON document; `what` names it in the error ("journal payload"). Invalid
// JSON is kInvalidArgument too: nothing half-understood is stored.
Status RejectCardData(std::string_view json, std::string_view what);

}  // namespace balcao::offline
