// nexo message protection as Adyen's Terminal API local integration does it (docs/integration.md,
// "Message protection"): from a cash register's passphrase, PBKDF2-HMAC-SHA1 with the salt
// "AdyenNexoV1Salt" and 4,000 iterations gives 80 bytes, split into an HMAC key (32), an AES-256
// key (32) and an IV (16). Each message draws a 16-byte nonce, XORed into the IV; the JSON text is
// encrypted with AES-256-CBC and PKCS#7 padding (NexoBlob, base64) and authenticated by
// HMAC-SHA256 over the plaintext (SecurityTrailer.Hmac, base64). OpenSSL 3 EVP only.
// Thread-safety: pure functions.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace balcao::integration::nexo {

inline constexpr std::string_view kKeySalt = "AdyenNexoV1Salt";
inline constexpr int kKeyIterations = 4000;
inline constexpr int kCryptoVersion = 1;  // SecurityTrailer.AdyenCryptoVersion

struct DerivedKeys {
  std::array<unsigned char, 32> hmac_key{};
  std::array<unsigned char, 32> cipher_key{};
  std::array<unsigned char, 16> iv{};
  // The 80 bytes as 160 lowercase hex digits (how the store keeps them), and back.
  std::string ToHex() const;
  static StatusOr<DerivedKeys> FromHex(std::string_view hex);
};

DerivedKeys DeriveKeys(std::string_view passphrase);

// The SecurityTrailer of one message.
struct SecurityTrailer {
  std::string key_identifier;
  int key_version = 0;
  std::string nonce;  // base64 of 16 bytes
  std::string hmac;   // base64 of 32 bytes
  int crypto_version = kCryptoVersion;
};

struct Protected {
  std::string blob;  // NexoBlob: base64 of the ciphertext
  SecurityTrailer trailer;
};

// Encrypts and authenticates `plaintext` with a fresh random nonce.
StatusOr<Protected> Protect(std::string_view plaintext, const DerivedKeys& keys, const std::string& key_identifier,
                            int key_version);
// The same with a given 16-byte nonce (tests: known vectors).
StatusOr<Protected> ProtectWithNonce(std::string_view plaintext, const DerivedKeys& keys,
                                     const std::string& key_identifier, int key_version,
                                     const std::array<unsigned char, 16>& nonce);
// Decrypts NexoBlob and checks the HMAC. kPermissionDenied when the blob, nonce or HMAC is not
// what `keys` made (a wrong key fails here, as a tampered message does); kInvalidArgument when
// the base64 or the lengths are malformed.
StatusOr<std::string> Unprotect(std::string_view blob, const SecurityTrailer& trailer, const DerivedKeys& keys);

std::string Base64(std::string_view bytes);
StatusOr<std::string> FromBase64(std::string_view text);
// `count` random bytes from OpenSSL's CSPRNG.
std::string RandomBytes(std::size_t count);

}  // namespace balcao::integration::nexo
