// Card data wiping and validation.
#include "offline/card_data.h"

#include <openssl/crypto.h>

#include <algorithm>

#include "offline/card_scan.h"

namespace balcao::offline {
namespace {

bool AllDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

void WipeString(std::string& s) {
  if (s.capacity() > 0) OPENSSL_cleanse(s.data(), s.capacity());
  s.clear();
}

void CardData::Wipe() {
  WipeString(number);
  WipeString(security_code);
  WipeString(expiration);
  WipeString(holder_name);
  WipeString(forward);
}

CardData::~CardData() { Wipe(); }

CardData::CardData(CardData&& other) noexcept { *this = std::move(other); }

CardData& CardData::operator=(CardData&& other) noexcept {
  if (this == &other) return *this;
  Wipe();
  // Copy, then wipe the source: a moved-from short string keeps its bytes otherwise.
  number.assign(other.number);
  security_code.assign(other.security_code);
  expiration.assign(other.expiration);
  holder_name.assign(other.holder_name);
  funding_type = other.funding_type;
  installments = other.installments;
  forward.assign(other.forward);
  other.Wipe();
  return *this;
}

std::string CardData::Masked() const {
  if (number.size() < 10) return std::string(number.size(), '*');
  return number.substr(0, 6) + std::string(number.size() - 10, '*') + number.substr(number.size() - 4);
}

Status CardData::Validate(const std::string& today_yyyy_mm) const {
  if (!AllDigits(number) || number.size() < 13 || number.size() > 19)
    return InvalidArgumentError("card number: must be 13 to 19 digits");
  if (!PassesLuhn(number)) return InvalidArgumentError("card number: check digit is wrong (Luhn)");
  if (!AllDigits(security_code) || security_code.size() < 3 || security_code.size() > 4)
    return InvalidArgumentError("card security code: must be 3 or 4 digits");
  const bool shape = expiration.size() == 7 && expiration[4] == '-' && AllDigits(expiration.substr(0, 4)) &&
                     AllDigits(expiration.substr(5, 2));
  if (!shape || expiration.substr(5, 2) < "01" || expiration.substr(5, 2) > "12")
    return InvalidArgumentError("card expiration: must be YYYY-MM");
  if (expiration < today_yyyy_mm) return InvalidArgumentError("card expiration: the card has expired");
  if (holder_name.find_first_not_of(' ') == std::string::npos)
    return InvalidArgumentError("card holder name: must not be empty");
  if (funding_type != "credit" && funding_type != "debit")
    return InvalidArgumentError("card funding type: must be credit or debit");
  if (installments < 1 || installments > 12) return InvalidArgumentError("card installments: must be 1 to 12");
  return OkStatus();
}

}  // namespace balcao::offline
