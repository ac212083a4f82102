#include "integration/nexo/protection.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <memory>

#include "common/hex.h"

namespace balcao::integration::nexo {
namespace {

struct CipherCtxFree {
  void operator()(EVP_CIPHER_CTX* ctx) const { EVP_CIPHER_CTX_free(ctx); }
};

std::array<unsigned char, 16> MixedIv(const DerivedKeys& keys, const unsigned char* nonce) {
  std::array<unsigned char, 16> iv{};
  for (std::size_t i = 0; i < iv.size(); ++i) iv[i] = keys.iv[i] ^ nonce[i];
  return iv;
}

StatusOr<std::string> Crypt(std::string_view in, const DerivedKeys& keys, const std::array<unsigned char, 16>& iv,
                            bool encrypt) {
  std::unique_ptr<EVP_CIPHER_CTX, CipherCtxFree> ctx(EVP_CIPHER_CTX_new());
  if (!ctx ||
      EVP_CipherInit_ex(ctx.get(), EVP_aes_256_cbc(), nullptr, keys.cipher_key.data(), iv.data(), encrypt ? 1 : 0) != 1)
    return InternalError("AES-256-CBC could not start");
  std::string out(in.size() + 16, '\0');
  int written = 0, last = 0;
  auto* dst = reinterpret_cast<unsigned char*>(out.data());
  if (EVP_CipherUpdate(ctx.get(), dst, &written, reinterpret_cast<const unsigned char*>(in.data()),
                       static_cast<int>(in.size())) != 1 ||
      EVP_CipherFinal_ex(ctx.get(), dst + written, &last) != 1)
    return PermissionDeniedError("NexoBlob: does not decrypt with this key (bad padding)");
  out.resize(static_cast<std::size_t>(written + last));
  return out;
}

std::string Hmac(std::string_view data, const DerivedKeys& keys) {
  unsigned char mac[32];
  unsigned int length = 0;
  HMAC(EVP_sha256(), keys.hmac_key.data(), static_cast<int>(keys.hmac_key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &length);
  return std::string(reinterpret_cast<const char*>(mac), length);
}

}  // namespace

std::string DerivedKeys::ToHex() const {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const auto* part : {hmac_key.data(), cipher_key.data()})
    for (std::size_t i = 0; i < 32; ++i) (out += kHex[part[i] >> 4]) += kHex[part[i] & 15];
  for (unsigned char b : iv) (out += kHex[b >> 4]) += kHex[b & 15];
  return out;
}

namespace {

// The 80 bytes of key material split into the HMAC key, the AES key and the IV; `bytes` is
// wiped.
DerivedKeys SplitAndWipe(unsigned char (&bytes)[80]) {
  DerivedKeys keys;
  std::copy(bytes, bytes + 32, keys.hmac_key.begin());
  std::copy(bytes + 32, bytes + 64, keys.cipher_key.begin());
  std::copy(bytes + 64, bytes + 80, keys.iv.begin());
  OPENSSL_cleanse(bytes, sizeof bytes);
  return keys;
}

}  // namespace

StatusOr<DerivedKeys> DerivedKeys::FromHex(std::string_view hex) {
  if (hex.size() != 160) return InvalidArgumentError("derived keys: 160 hex digits");
  unsigned char bytes[80];
  for (std::size_t i = 0; i < 80; ++i) {
    int value = 0;
    for (char c : hex.substr(2 * i, 2)) {
      const int digit = c >= 'A' && c <= 'F' ? -1 : HexValue(c);  // ToHex writes lowercase only
      if (digit < 0) {
        OPENSSL_cleanse(bytes, sizeof bytes);
        return InvalidArgumentError("derived keys: 160 lowercase hex digits");
      }
      value = value * 16 + digit;
    }
    bytes[i] = static_cast<unsigned char>(value);
  }
  return SplitAndWipe(bytes);
}

DerivedKeys DeriveKeys(std::string_view passphrase) {
  unsigned char bytes[80];
  PKCS5_PBKDF2_HMAC(passphrase.data(), static_cast<int>(passphrase.size()),
                    reinterpret_cast<const unsigned char*>(kKeySalt.data()), static_cast<int>(kKeySalt.size()),
                    kKeyIterations, EVP_sha1(), sizeof bytes, bytes);
  return SplitAndWipe(bytes);
}

StatusOr<Protected> ProtectWithNonce(std::string_view plaintext, const DerivedKeys& keys,
                                     const std::string& key_identifier, int key_version,
                                     const std::array<unsigned char, 16>& nonce) {
  BALCAO_ASSIGN_OR_RETURN(const std::string cipher, Crypt(plaintext, keys, MixedIv(keys, nonce.data()), true));
  Protected out;
  out.blob = Base64(cipher);
  out.trailer.key_identifier = key_identifier;
  out.trailer.key_version = key_version;
  out.trailer.nonce = Base64(std::string_view(reinterpret_cast<const char*>(nonce.data()), nonce.size()));
  out.trailer.hmac = Base64(Hmac(plaintext, keys));
  return out;
}

StatusOr<Protected> Protect(std::string_view plaintext, const DerivedKeys& keys, const std::string& key_identifier,
                            int key_version) {
  std::array<unsigned char, 16> nonce{};
  if (RAND_bytes(nonce.data(), static_cast<int>(nonce.size())) != 1) return InternalError("no random nonce");
  return ProtectWithNonce(plaintext, keys, key_identifier, key_version, nonce);
}

StatusOr<std::string> Unprotect(std::string_view blob, const SecurityTrailer& trailer, const DerivedKeys& keys) {
  BALCAO_ASSIGN_OR_RETURN(const std::string nonce, FromBase64(trailer.nonce));
  if (nonce.size() != 16) return InvalidArgumentError("SecurityTrailer.Nonce: base64 of 16 bytes");
  BALCAO_ASSIGN_OR_RETURN(const std::string mac, FromBase64(trailer.hmac));
  if (mac.size() != 32) return InvalidArgumentError("SecurityTrailer.Hmac: base64 of 32 bytes");
  BALCAO_ASSIGN_OR_RETURN(const std::string cipher, FromBase64(blob));
  if (cipher.empty() || cipher.size() % 16 != 0)
    return InvalidArgumentError("NexoBlob: base64 of a whole number of 16-byte blocks");
  auto plain = Crypt(cipher, keys, MixedIv(keys, reinterpret_cast<const unsigned char*>(nonce.data())), false);
  if (!plain.ok()) return plain.status();
  const std::string expected = Hmac(*plain, keys);
  if (CRYPTO_memcmp(expected.data(), mac.data(), 32) != 0)
    return PermissionDeniedError("SecurityTrailer.Hmac: does not match the message");
  return plain;
}

std::string Base64(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

StatusOr<std::string> FromBase64(std::string_view text) {
  if (text.size() % 4 != 0) return InvalidArgumentError("base64: a multiple of 4 characters");
  std::string out(3 * text.size() / 4 + 1, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0) return InvalidArgumentError("base64: not valid base64");
  std::size_t size = static_cast<std::size_t>(n);
  // EVP_DecodeBlock counts the padding as zero bytes.
  if (!text.empty() && text.back() == '=') --size;
  if (text.size() >= 2 && text[text.size() - 2] == '=') --size;
  out.resize(size);
  return out;
}

std::string RandomBytes(std::size_t count) {
  std::string out(count, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(count)) != 1) out.clear();
  return out;
}

}  // namespace balcao::integration::nexo
