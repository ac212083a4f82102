// ECDSA over secp256k1 with SHA-256, as the bank signs requests and webhooks (docs/wire.md,
// "Signing" and "Webhooks").
// libsecp256k1 does the curve math (sign ~30 µs, verify ~30 µs); OpenSSL parses PEM/DER
// and hashes. Signatures are DER, then standard Base64. Signing uses RFC 6979 nonces and
// produces low-S; verification accepts high-S and low-S.
// Secret key bytes are wiped on destruction. Thread-safety: keys are immutable after
// construction and may be shared across threads.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace balcao::api {

// An ECDSA signature (r, s), each a 32-byte big-endian integer.
// Value type; immutable; thread-compatible.
class Signature {
 public:
  // Strict DER: SEQUENCE { INTEGER r, INTEGER s } with minimal definite lengths, minimal
  // positive integers, nothing after the sequence. r and s must be in [1, n-1]; high-S is
  // accepted (older SDKs did not normalise). kInvalidArgument names the rule broken.
  static StatusOr<Signature> FromDer(std::string_view der);
  // Strict Base64 (see Base64Decode) of DER, e.g. a Digital-Signature header.
  static StatusOr<Signature> FromBase64(std::string_view text);

  std::string ToDer() const;
  std::string ToBase64() const;
  bool IsLowS() const;  // s <= n/2
  const std::array<std::uint8_t, 32>& r() const { return r_; }
  const std::array<std::uint8_t, 32>& s() const { return s_; }
  bool operator==(const Signature&) const = default;

 private:
  Signature() = default;
  std::array<std::uint8_t, 32> r_{};
  std::array<std::uint8_t, 32> s_{};
  friend class PrivateKey;
};

class PublicKey {
 public:
  // SubjectPublicKeyInfo PEM ("BEGIN PUBLIC KEY", id-ecPublicKey + secp256k1).
  // kInvalidArgument names what is wrong (not PEM, not EC, wrong curve...).
  static StatusOr<PublicKey> FromPem(std::string_view pem);
  // A 65-byte uncompressed (04 x y) or 33-byte compressed SEC1 point on secp256k1.
  static StatusOr<PublicKey> FromPoint(std::string_view sec1_point);
  std::string ToPem() const;  // ends with a newline
  // True when signature_b64 (Base64 of DER) is a valid signature of SHA-256(message).
  bool Verify(std::string_view message, std::string_view signature_b64) const;
  bool Verify(std::string_view message, const Signature& signature) const;
  const std::array<std::uint8_t, 65>& uncompressed() const { return point_; }
  bool operator==(const PublicKey&) const = default;

 private:
  std::array<std::uint8_t, 65> point_{};
  friend class PrivateKey;
};

class PrivateKey {
 public:
  // SEC1 PEM ("BEGIN EC PRIVATE KEY", secp256k1); an "EC PARAMETERS" block before it is
  // tolerated. PKCS#8 ("BEGIN PRIVATE KEY") and other curves are refused.
  static StatusOr<PrivateKey> FromPem(std::string_view pem);
  // Reads a key file; refuses (kPermissionDenied) a file readable by group or others.
  // kNotFound when it does not exist; kInvalidArgument (naming the file) when it is not a
  // usable key.
  static StatusOr<PrivateKey> FromFile(const std::string& path);
  // The 32-byte big-endian secret scalar, in [1, n-1]; kInvalidArgument otherwise.
  static StatusOr<PrivateKey> FromSecret(std::string_view secret32);
  static PrivateKey Generate();

  PrivateKey(const PrivateKey&);
  PrivateKey& operator=(const PrivateKey&);
  ~PrivateKey();

  std::string ToPem() const;  // SEC1 PEM with the public key field, newline-terminated
  // Writes ToPem() to a new file created with mode 0600 (never readable by others, not
  // even briefly). kAlreadyExists when the file exists and !overwrite; an existing file
  // is replaced atomically (rename) when overwrite. Other I/O failures: kInternal.
  Status WriteFile(const std::string& path, bool overwrite) const;
  const PublicKey& public_key() const { return public_; }
  // Base64(DER(ECDSA(SHA-256(message)))), RFC 6979, low-S.
  std::string Sign(std::string_view message) const;
  Signature SignToSignature(std::string_view message) const;

 private:
  PrivateKey() = default;
  std::array<std::uint8_t, 32> secret_{};
  PublicKey public_;
};

std::array<std::uint8_t, 32> Sha256(std::string_view data);
std::string Base64Encode(std::string_view bytes);
// Strict standard Base64 (padding required, no whitespace, unused trailing bits zero);
// kInvalidArgument otherwise.
StatusOr<std::string> Base64Decode(std::string_view text);

}  // namespace balcao::api
