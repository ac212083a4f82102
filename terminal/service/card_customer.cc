#include "terminal/service/card_customer.h"

#include <algorithm>
#include <cctype>

namespace balcao::terminal::service {
namespace {

using nlohmann::json;

std::string TextAt(const json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

bool Printable(const std::string& text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x20; });
}

std::optional<FieldError> Text(const json& object, const char* key, const std::string& field, std::size_t min,
                               std::size_t max, bool required, std::string& out) {
  out = TextAt(object, key);
  if (out.empty() && (!required || min == 0)) return std::nullopt;
  if (out.size() < min || out.size() > max || !Printable(out))
    return FieldError{field, std::to_string(min) + " to " + std::to_string(max) + " characters"};
  return std::nullopt;
}

}  // namespace

std::optional<FieldError> ReadCardCustomer(const json& body, const http::HttpRequest& request, bool required,
                                           checkout::CardData& card, checkout::BrowserData& browser) {
  card.holder_email = TextAt(body, "holder_email");
  if (!card.holder_email.empty() || required) {
    const auto at = card.holder_email.find('@');
    if (card.holder_email.size() > 120 || at == std::string::npos || at == 0 ||
        card.holder_email.find('.', at) == std::string::npos || !Printable(card.holder_email) ||
        card.holder_email.find(' ') != std::string::npos)
      return FieldError{"holder_email", "an e-mail address"};
  }
  card.holder_phone = TextAt(body, "holder_phone");
  if (!card.holder_phone.empty() || required) {
    std::string digits;
    for (char c : card.holder_phone)
      if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
    if (digits.size() < 10 || digits.size() > 15 || card.holder_phone.size() > 24)
      return FieldError{"holder_phone", "a phone number with area code (10 to 15 digits)"};
  }

  const json billing = body.contains("billing") ? body["billing"] : json();
  if (!billing.is_null() && !billing.is_object()) return FieldError{"billing", "an object"};
  const bool address = required || !billing.is_null();
  checkout::BillingAddress& a = card.billing;
  if (auto bad = Text(billing, "street_line1", "billing.street_line1", 3, 120, address, a.street_line1)) return bad;
  if (auto bad = Text(billing, "street_line2", "billing.street_line2", 0, 120, address, a.street_line2)) return bad;
  if (auto bad = Text(billing, "city", "billing.city", 2, 60, address, a.city)) return bad;
  a.state_code = TextAt(billing, "state_code");
  if (address && (a.state_code.size() != 2 || !std::all_of(a.state_code.begin(), a.state_code.end(), ::isupper)))
    return FieldError{"billing.state_code", "2 capital letters (SP)"};
  a.zip_code = TextAt(billing, "zip_code");
  std::string zip_digits;
  for (char c : a.zip_code)
    if (std::isdigit(static_cast<unsigned char>(c))) zip_digits += c;
  if (address && (zip_digits.size() != 8 || a.zip_code.size() > 9))
    return FieldError{"billing.zip_code", "a CEP of 8 digits (01310-100)"};
  if (address) a.zip_code = zip_digits.substr(0, 5) + "-" + zip_digits.substr(5);
  a.country_code = TextAt(billing, "country_code");
  if (address && (a.country_code.size() != 3 || !std::all_of(a.country_code.begin(), a.country_code.end(), ::isupper)))
    return FieldError{"billing.country_code", "3 capital letters (BRA)"};

  // The device: what the service sees of the request, and what the page reported.
  const json reported = body.contains("browser") ? body["browser"] : json();
  if (!reported.is_null() && !reported.is_object()) return FieldError{"browser", "an object"};
  browser.user_agent = std::string(request.Header("user-agent"));
  browser.user_ip = request.remote_address;
  browser.language = TextAt(reported, "language");
  browser.screen = TextAt(reported, "screen");
  const bool device = required || !reported.is_null();
  if (device && (browser.user_agent.empty() || browser.user_agent.size() > 400 || !Printable(browser.user_agent)))
    return FieldError{"user-agent", "the browser's User-Agent header (up to 400 characters)"};
  if (device && (browser.language.size() < 2 || browser.language.size() > 35 || !Printable(browser.language)))
    return FieldError{"browser.language", "the browser's language (navigator.language, e.g. pt-BR)"};
  if (browser.screen.size() > 20 || !Printable(browser.screen)) return FieldError{"browser.screen", "WIDTHxHEIGHT"};
  const json offset =
      reported.is_object() && reported.contains("timezone_offset") ? reported["timezone_offset"] : json();
  if (device) {
    if (!offset.is_number_integer() || offset.get<long long>() < -840 || offset.get<long long>() > 720)
      return FieldError{"browser.timezone_offset", "minutes from -840 to 720 (Date.getTimezoneOffset())"};
    browser.timezone_offset_minutes = offset.get<int>();
  }
  if (!device) browser = {};
  return std::nullopt;
}

}  // namespace balcao::terminal::service
