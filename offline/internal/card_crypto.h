// AES-256-GCM envelope encryption of card records (OpenSSL EVP): each record has a
// fresh random data key; the data key is wrapped by the key-encryption key (KEK),
// which is read from a file with mode 0600 and never stored in the database.
// Blobs are nonce(12) || ciphertext || tag(16); the sale id is the associated data,
// so a blob cannot be moved to another sale's row.
#pragma once

#include <string>

#include "common/status.h"

namespace balcao::offline::internal {

// 32 secret bytes held in mlock'ed memory, wiped on destruction.
class SecretKey {
 public:
  SecretKey();  // zeroes
  ~SecretKey();
  SecretKey(const SecretKey&) = delete;
  SecretKey& operator=(const SecretKey&) = delete;
  static constexpr int kSize = 32;
  unsigned char* data() { return bytes_; }
  const unsigned char* data() const { return bytes_; }

 private:
  alignas(64) unsigned char bytes_[kSize];
};

// Reads the KEK: a regular file owned by this user, no group/other permission bits
// (0600 or 0400), holding 32 raw bytes or 64 hex digits (a trailing newline allowed).
Status LoadKek(const std::string& path, SecretKey& kek);

Status RandomKey(SecretKey& key);
// Encrypts `plaintext` under `key`; the result is nonce || ciphertext || tag.
StatusOr<std::string> SealBytes(const SecretKey& key, const std::string& aad, const std::string& plaintext);
// Decrypts into `plaintext` (the caller wipes it); kDataLoss when the tag does not match.
Status OpenBytes(const SecretKey& key, const std::string& aad, const std::string& blob, std::string& plaintext);

}  // namespace balcao::offline::internal
