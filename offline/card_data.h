// Card data in memory, for the one call that needs it: never copied, wiped
// (OPENSSL_cleanse) when destroyed or moved from. Never logged, never journaled.
// Thread-safety: a value owned by one thread.
#pragma once

#include <string>

#include "common/status.h"

namespace balcao::offline {

struct CardData {
  std::string number;         // 13-19 digits
  std::string security_code;  // 3-4 digits
  std::string expiration;     // "YYYY-MM"
  std::string holder_name;
  std::string funding_type = "credit";  // "credit" or "debit"
  int installments = 1;
  // What the forward carries besides the card, captured when it was sealed (one line of JSON,
  // card_forwarder.h; "" for a record sealed before): the sale's tags, whether the store asks
  // for the 3-D Secure challenge, the holder's contact and billing address, the device data.
  std::string forward;

  CardData() = default;
  ~CardData();
  CardData(CardData&& other) noexcept;
  CardData& operator=(CardData&& other) noexcept;
  CardData(const CardData&) = delete;
  CardData& operator=(const CardData&) = delete;

  // BIN (first 6) + last 4, the rest as '*': what a receipt or the operator may see.
  std::string Masked() const;
  // Checks every field (Luhn, lengths, YYYY-MM not before `today_yyyy_mm`); the error
  // names the field and never echoes its value.
  Status Validate(const std::string& today_yyyy_mm) const;
  void Wipe();
};

// Overwrites the bytes of `s` (its whole capacity) and empties it.
void WipeString(std::string& s);

}  // namespace balcao::offline
