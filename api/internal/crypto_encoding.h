// Byte encodings under api/crypto.h: PEM framing, the DER shapes of ECDSA signatures, and
// the fixed SEC1 / SubjectPublicKeyInfo layouts of secp256k1 keys. Pure functions, no
// shared state; thread-safe. Buffers that may hold a private key are wiped.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace balcao::api::internal {

using Scalar = std::array<std::uint8_t, 32>;

// secp256k1 group order n and n/2 (big-endian).
extern const Scalar kCurveOrder;
extern const Scalar kHalfCurveOrder;
// -1, 0, 1 as a is below, equal to or above b (both big-endian, same length).
int CompareScalars(const Scalar& a, const Scalar& b);

// One "-----BEGIN <label>-----" ... "-----END <label>-----" block, body Base64-decoded.
struct PemBlock {
  std::string label;
  std::string der;
};
// Every block of a PEM text, in order. Tolerates text between blocks, CRLF line ends and
// trailing spaces; refuses a block with headers (e.g. an encrypted key's Proc-Type), a
// missing END line or bad Base64 (kInvalidArgument naming the label).
StatusOr<std::vector<PemBlock>> ParsePem(std::string_view text);
// 64-column PEM of der under label, newline-terminated.
std::string EncodePem(std::string_view label, std::string_view der);

// ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }, strict DER; see Signature::FromDer.
Status ParseDerSignature(std::string_view der, Scalar& r, Scalar& s);
std::string EncodeDerSignature(const Scalar& r, const Scalar& s);

// RFC 5915 ECPrivateKey with the secp256k1 OID and the uncompressed public point, as
// `openssl ecparam -name secp256k1 -genkey` writes it.
std::string EncodeSec1PrivateKey(const Scalar& secret, const std::array<std::uint8_t, 65>& point);
// SubjectPublicKeyInfo (id-ecPublicKey, secp256k1) of the uncompressed point.
std::string EncodeSubjectPublicKeyInfo(const std::array<std::uint8_t, 65>& point);

}  // namespace balcao::api::internal
