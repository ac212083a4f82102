// The keys of the store's cash registers (`balcao pos`, docs/integration.md): a register's id
// as nexo's SaleID, its KeyIdentifier, a fresh passphrase, and how long a rotated key still works.
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"

namespace balcao::terminal::service {

// A retired key version (a newer one was made by `pos rotate`) is accepted this long after.
inline constexpr std::int64_t kRetiredKeyGraceMs = 24LL * 3600 * 1000;
// The nexo port once a register is registered and neither --nexo-port nor nexo.port is given.
inline constexpr unsigned short kDefaultNexoPort = 8443;

// 1 to 40 letters, digits, '.', '_' or '-'. kInvalidArgument naming "SALE_ID".
Status CheckRegisterId(const std::string& register_id);
// "pos-<register_id>".
std::string KeyIdentifierOf(const std::string& register_id);
// 32 characters of base64url: 192 bits from OpenSSL's CSPRNG.
std::string NewPassphrase();

}  // namespace balcao::terminal::service
