// AES-256-GCM with OpenSSL EVP for sealed card records.
#include "offline/internal/card_crypto.h"

#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "common/hex.h"
#include "offline/card_data.h"

namespace balcao::offline::internal {
namespace {

constexpr int kNonce = 12;
constexpr int kTag = 16;

using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

}  // namespace

SecretKey::SecretKey() {
  std::memset(bytes_, 0, sizeof bytes_);
  ::mlock(bytes_, sizeof bytes_);  // best effort: keep it out of swap
}

SecretKey::~SecretKey() {
  OPENSSL_cleanse(bytes_, sizeof bytes_);
  ::munlock(bytes_, sizeof bytes_);
}

Status LoadKek(const std::string& path, SecretKey& kek) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return FailedPreconditionError("key-encryption key " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return FailedPreconditionError("key-encryption key " + path + ": must be a regular file");
  }
  if ((st.st_mode & 077) != 0) {
    ::close(fd);
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return PermissionDeniedError("key-encryption key " + path + ": mode " + mode +
                                 " lets others read it; it must be 0600 or 0400");
  }
  if (st.st_uid != ::geteuid()) {
    ::close(fd);
    return PermissionDeniedError("key-encryption key " + path + ": must be owned by the user running balcao");
  }
  std::string content(256, '\0');
  const ssize_t n = ::read(fd, content.data(), content.size());
  ::close(fd);
  if (n < 0) return FailedPreconditionError("key-encryption key " + path + ": cannot read it");
  content.resize(static_cast<std::size_t>(n));
  Status result = OkStatus();
  std::string trimmed = content;
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == '\r')) trimmed.pop_back();
  if (content.size() == SecretKey::kSize) {
    std::memcpy(kek.data(), content.data(), SecretKey::kSize);
  } else if (trimmed.size() == 2 * SecretKey::kSize) {
    for (int i = 0; i < SecretKey::kSize && result.ok(); ++i) {
      const int hi = HexValue(trimmed[2 * i]);
      const int lo = HexValue(trimmed[2 * i + 1]);
      if (hi < 0 || lo < 0) result = InvalidArgumentError("key-encryption key " + path + ": not hex");
      kek.data()[i] = static_cast<unsigned char>(hi * 16 + lo);
    }
  } else {
    result = InvalidArgumentError("key-encryption key " + path + ": must hold 32 raw bytes or 64 hex digits");
  }
  WipeString(content);
  WipeString(trimmed);
  return result;
}

Status RandomKey(SecretKey& key) {
  if (RAND_bytes(key.data(), SecretKey::kSize) != 1) return InternalError("random data key: RAND_bytes failed");
  return OkStatus();
}

StatusOr<std::string> SealBytes(const SecretKey& key, const std::string& aad, const std::string& plaintext) {
  std::string out(kNonce + plaintext.size() + kTag, '\0');
  auto* bytes = reinterpret_cast<unsigned char*>(out.data());
  if (RAND_bytes(bytes, kNonce) != 1) return InternalError("seal: RAND_bytes failed");
  CipherCtx ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
  int len = 0;
  bool ok = ctx && EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, key.data(), bytes) == 1 &&
            EVP_EncryptUpdate(ctx.get(), nullptr, &len, reinterpret_cast<const unsigned char*>(aad.data()),
                              static_cast<int>(aad.size())) == 1 &&
            EVP_EncryptUpdate(ctx.get(), bytes + kNonce, &len, reinterpret_cast<const unsigned char*>(plaintext.data()),
                              static_cast<int>(plaintext.size())) == 1;
  int final_len = 0;
  ok = ok && EVP_EncryptFinal_ex(ctx.get(), bytes + kNonce + len, &final_len) == 1 &&
       EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTag, bytes + kNonce + plaintext.size()) == 1;
  if (!ok) return InternalError("seal: AES-256-GCM encryption failed");
  return out;
}

Status OpenBytes(const SecretKey& key, const std::string& aad, const std::string& blob, std::string& plaintext) {
  if (blob.size() < static_cast<std::size_t>(kNonce + kTag)) return DataLossError("sealed blob is truncated");
  const auto* bytes = reinterpret_cast<const unsigned char*>(blob.data());
  const std::size_t body = blob.size() - kNonce - kTag;
  plaintext.assign(body, '\0');
  ::mlock(plaintext.data(), plaintext.size());
  CipherCtx ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
  int len = 0;
  int final_len = 0;
  const bool ok =
      ctx && EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, key.data(), bytes) == 1 &&
      EVP_DecryptUpdate(ctx.get(), nullptr, &len, reinterpret_cast<const unsigned char*>(aad.data()),
                        static_cast<int>(aad.size())) == 1 &&
      EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(plaintext.data()), &len, bytes + kNonce,
                        static_cast<int>(body)) == 1 &&
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTag, const_cast<unsigned char*>(bytes + kNonce + body)) ==
          1 &&
      EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(plaintext.data()) + len, &final_len) == 1;
  if (!ok) {
    WipeString(plaintext);
    return DataLossError("sealed blob does not open: wrong key or tampered record");
  }
  return OkStatus();
}

}  // namespace balcao::offline::internal
