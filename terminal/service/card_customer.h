// What a card purchase carries about the customer besides the card (docs/terminal.md, "3-D
// Secure"): the holder's e-mail and phone and the billing address from the touchscreen's
// customer form, and the device data of the browser the card was typed on (its User-Agent
// header and address as this service sees them; language, screen and timezone as its page
// reports them). Required when the store's sessions ask for the 3-D Secure challenge; never
// filled with stand-ins. Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "checkout/driver/driver.h"
#include "http/server.h"

namespace balcao::terminal::service {

// A refusal: the field (dotted, as in the body) and the rule it broke.
struct FieldError {
  std::string field;
  std::string rule;
};

// Reads "holder_email", "holder_phone", "billing" {street_line1, street_line2, city,
// state_code, zip_code, country_code} into `card` and "browser" {language, screen,
// timezone_offset} plus the request's User-Agent and peer address into `browser`.
// `required`: the session's challenge mode is on, so all of them must be there.
std::optional<FieldError> ReadCardCustomer(const nlohmann::json& body, const http::HttpRequest& request, bool required,
                                           checkout::CardData& card, checkout::BrowserData& browser);

}  // namespace balcao::terminal::service
