#include "api/crypto.h"

#include <fcntl.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <secp256k1.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "api/internal/crypto_encoding.h"

namespace balcao::api {
namespace {

using internal::Scalar;

// One context for the process: created and randomised (side-channel blinding) on first
// use; afterwards only read, which libsecp256k1 allows from any number of threads.
const secp256k1_context* Context() {
  static const secp256k1_context* const ctx = [] {
    secp256k1_context* c = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
    unsigned char seed[32];
    // Randomisation only hardens against side channels; a failure leaves a working context.
    if (RAND_bytes(seed, sizeof seed) == 1 && secp256k1_context_randomize(c, seed) != 1) {
      std::fprintf(stderr, "balcao: secp256k1 context randomisation failed (signing still works)\n");
    }
    OPENSSL_cleanse(seed, sizeof seed);
    return c;
  }();
  return ctx;
}

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;

// Wipes a string holding secret bytes (PEM text, DER of a private key) when it goes away.
struct WipeOnExit {
  std::string& s;
  ~WipeOnExit() { OPENSSL_cleanse(s.data(), s.size()); }
};

std::string Describe(const std::string& where, const std::string& what) { return where + ": " + what; }

// The key must be EC on secp256k1 (named curve). OpenSSL reports other curves by name.
Status CheckSecp256k1(EVP_PKEY* pkey, const std::string& where) {
  if (!EVP_PKEY_is_a(pkey, "EC")) {
    const char* type = EVP_PKEY_get0_type_name(pkey);
    return InvalidArgumentError(
        Describe(where, std::string("key type ") + (type ? type : "unknown") + ", expected an EC key on secp256k1"));
  }
  char group[80] = {0};
  std::size_t len = 0;
  if (EVP_PKEY_get_utf8_string_param(pkey, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group, &len) != 1) {
    ERR_clear_error();
    return InvalidArgumentError(Describe(where,
                                         "the curve is not named (explicit parameters are not supported); "
                                         "expected secp256k1"));
  }
  if (std::string_view(group, len) != "secp256k1") {
    return InvalidArgumentError(
        Describe(where, "curve " + std::string(group, len) + ", expected secp256k1 (the bank signs with secp256k1)"));
  }
  return OkStatus();
}

// The public point OpenSSL holds for pkey (any SEC1 form), or empty.
std::string EncodedPoint(EVP_PKEY* pkey) {
  unsigned char buf[133];
  std::size_t len = 0;
  if (EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, buf, sizeof buf, &len) != 1) {
    ERR_clear_error();
    return {};
  }
  return std::string(reinterpret_cast<const char*>(buf), len);
}

// The single block labelled `want`; refuses PEMs that hold something else, with a hint.
StatusOr<internal::PemBlock> FindBlock(std::string_view pem, std::string_view want, const std::string& where) {
  auto blocks = internal::ParsePem(pem);
  if (!blocks.ok()) return InvalidArgumentError(Describe(where, blocks.status().message()));
  const internal::PemBlock* found = nullptr;
  std::string labels;
  for (const auto& block : *blocks) {
    if (block.label == "PRIVATE KEY" || block.label == "ENCRYPTED PRIVATE KEY") {
      return InvalidArgumentError(
          Describe(where, "PKCS#8 key (BEGIN " + block.label + ") is not accepted (the bank's SDKs refuse it too); " +
                              "convert it to SEC1 with `openssl ec -in KEY.pem -out KEY-sec1.pem`"));
    }
    if (block.label == want) {
      if (found) return InvalidArgumentError(Describe(where, "more than one BEGIN " + std::string(want) + " block"));
      found = &block;
    } else if (block.label != "EC PARAMETERS") {
      labels += (labels.empty() ? "" : ", ") + block.label;
    }
  }
  if (!found) {
    return InvalidArgumentError(Describe(where, "expected a BEGIN " + std::string(want) + " block, found " +
                                                    (labels.empty() ? std::string("none") : "BEGIN " + labels)));
  }
  internal::PemBlock result = *found;
  for (auto& block : *blocks) OPENSSL_cleanse(block.der.data(), block.der.size());  // may hold a secret
  return result;
}

Scalar ToScalar(const std::array<std::uint8_t, 64>& compact, std::size_t offset) {
  Scalar out;
  std::memcpy(out.data(), compact.data() + offset, out.size());
  return out;
}

}  // namespace

// ---- Signature ----

StatusOr<Signature> Signature::FromDer(std::string_view der) {
  Signature sig;
  BALCAO_RETURN_IF_ERROR(internal::ParseDerSignature(der, sig.r_, sig.s_));
  return sig;
}

StatusOr<Signature> Signature::FromBase64(std::string_view text) {
  if (text.empty()) return InvalidArgumentError("signature: empty");
  auto der = Base64Decode(text);
  if (!der.ok()) return InvalidArgumentError("signature: " + der.status().message());
  return FromDer(*der);
}

std::string Signature::ToDer() const { return internal::EncodeDerSignature(r_, s_); }
std::string Signature::ToBase64() const { return Base64Encode(ToDer()); }
bool Signature::IsLowS() const { return internal::CompareScalars(s_, internal::kHalfCurveOrder) <= 0; }

// ---- PublicKey ----

StatusOr<PublicKey> PublicKey::FromPoint(std::string_view sec1_point) {
  secp256k1_pubkey parsed;
  if (secp256k1_ec_pubkey_parse(Context(), &parsed, reinterpret_cast<const unsigned char*>(sec1_point.data()),
                                sec1_point.size()) != 1) {
    return InvalidArgumentError("public key: not a point on secp256k1 (" + std::to_string(sec1_point.size()) +
                                " bytes)");
  }
  PublicKey key;
  std::size_t len = key.point_.size();
  secp256k1_ec_pubkey_serialize(Context(), key.point_.data(), &len, &parsed, SECP256K1_EC_UNCOMPRESSED);
  return key;
}

StatusOr<PublicKey> PublicKey::FromPem(std::string_view pem) {
  const std::string where = "public key PEM";
  BALCAO_ASSIGN_OR_RETURN(internal::PemBlock block, FindBlock(pem, "PUBLIC KEY", where));
  const auto* p = reinterpret_cast<const unsigned char*>(block.der.data());
  PkeyPtr pkey(d2i_PUBKEY(nullptr, &p, static_cast<long>(block.der.size())));
  if (!pkey) {
    ERR_clear_error();
    return InvalidArgumentError(Describe(where, "the PUBLIC KEY block is not a valid SubjectPublicKeyInfo"));
  }
  if (p != reinterpret_cast<const unsigned char*>(block.der.data()) + block.der.size()) {
    return InvalidArgumentError(Describe(where, "bytes after the SubjectPublicKeyInfo"));
  }
  BALCAO_RETURN_IF_ERROR(CheckSecp256k1(pkey.get(), where));
  return FromPoint(EncodedPoint(pkey.get()));
}

std::string PublicKey::ToPem() const {
  return internal::EncodePem("PUBLIC KEY", internal::EncodeSubjectPublicKeyInfo(point_));
}

bool PublicKey::Verify(std::string_view message, std::string_view signature_b64) const {
  auto sig = Signature::FromBase64(signature_b64);
  return sig.ok() && Verify(message, *sig);
}

bool PublicKey::Verify(std::string_view message, const Signature& signature) const {
  secp256k1_pubkey pub;
  if (secp256k1_ec_pubkey_parse(Context(), &pub, point_.data(), point_.size()) != 1) return false;
  unsigned char compact[64];
  std::memcpy(compact, signature.r().data(), 32);
  std::memcpy(compact + 32, signature.s().data(), 32);
  secp256k1_ecdsa_signature sig;
  if (secp256k1_ecdsa_signature_parse_compact(Context(), &sig, compact) != 1) return false;
  // libsecp256k1 verifies only low-S; the bank's older SDKs sent high-S, which is equally
  // valid ECDSA, so normalise first.
  secp256k1_ecdsa_signature_normalize(Context(), &sig, &sig);
  const auto hash = Sha256(message);
  return secp256k1_ecdsa_verify(Context(), &sig, hash.data(), &pub) == 1;
}

// ---- PrivateKey ----

PrivateKey::PrivateKey(const PrivateKey&) = default;
PrivateKey& PrivateKey::operator=(const PrivateKey& other) {
  if (this != &other) {
    secret_ = other.secret_;
    public_ = other.public_;
  }
  return *this;
}
PrivateKey::~PrivateKey() { OPENSSL_cleanse(secret_.data(), secret_.size()); }

StatusOr<PrivateKey> PrivateKey::FromSecret(std::string_view secret32) {
  if (secret32.size() != 32) {
    return InvalidArgumentError("private key: the secret must be 32 bytes, got " + std::to_string(secret32.size()));
  }
  PrivateKey key;
  std::memcpy(key.secret_.data(), secret32.data(), 32);
  secp256k1_pubkey pub;
  if (secp256k1_ec_seckey_verify(Context(), key.secret_.data()) != 1 ||
      secp256k1_ec_pubkey_create(Context(), &pub, key.secret_.data()) != 1) {
    return InvalidArgumentError("private key: the secret is 0 or not below the curve order");
  }
  std::size_t len = key.public_.point_.size();
  secp256k1_ec_pubkey_serialize(Context(), key.public_.point_.data(), &len, &pub, SECP256K1_EC_UNCOMPRESSED);
  return key;
}

PrivateKey PrivateKey::Generate() {
  for (;;) {
    unsigned char secret[32];
    if (RAND_priv_bytes(secret, sizeof secret) != 1) {
      // No entropy means no safe key; there is nothing sensible to return.
      std::fprintf(stderr, "balcao: the system random generator failed; cannot create a key\n");
      std::abort();
    }
    auto key = FromSecret(std::string_view(reinterpret_cast<const char*>(secret), sizeof secret));
    OPENSSL_cleanse(secret, sizeof secret);
    if (key.ok()) return std::move(key).value();
  }
}

StatusOr<PrivateKey> PrivateKey::FromPem(std::string_view pem) {
  const std::string where = "private key PEM";
  BALCAO_ASSIGN_OR_RETURN(internal::PemBlock block, FindBlock(pem, "EC PRIVATE KEY", where));
  WipeOnExit wipe_der{block.der};
  const auto* p = reinterpret_cast<const unsigned char*>(block.der.data());
  PkeyPtr pkey(d2i_PrivateKey(EVP_PKEY_EC, nullptr, &p, static_cast<long>(block.der.size())));
  if (!pkey || p != reinterpret_cast<const unsigned char*>(block.der.data()) + block.der.size()) {
    ERR_clear_error();
    return InvalidArgumentError(Describe(where, "the EC PRIVATE KEY block is not a valid SEC1 ECPrivateKey"));
  }
  BALCAO_RETURN_IF_ERROR(CheckSecp256k1(pkey.get(), where));
  BIGNUM* bn = nullptr;
  if (EVP_PKEY_get_bn_param(pkey.get(), OSSL_PKEY_PARAM_PRIV_KEY, &bn) != 1) {
    ERR_clear_error();
    return InvalidArgumentError(Describe(where, "no private scalar in the key"));
  }
  std::string secret(32, '\0');
  WipeOnExit wipe_secret{secret};
  const int written = BN_bn2binpad(bn, reinterpret_cast<unsigned char*>(secret.data()), 32);
  BN_clear_free(bn);
  if (written != 32) return InvalidArgumentError(Describe(where, "the private scalar is longer than 32 bytes"));
  auto key = FromSecret(secret);
  if (!key.ok()) return InvalidArgumentError(Describe(where, key.status().message()));
  // A key file whose public field belongs to another key is corrupt or tampered with.
  const std::string stored = EncodedPoint(pkey.get());
  if (!stored.empty()) {
    auto stored_key = PublicKey::FromPoint(stored);
    if (!stored_key.ok() || !(*stored_key == key->public_key())) {
      return InvalidArgumentError(Describe(where, "the public key stored in the file does not match its private key"));
    }
  }
  return key;
}

StatusOr<PrivateKey> PrivateKey::FromFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    const std::string why = "private key file " + path + ": " + std::strerror(err);
    if (err == ENOENT) return NotFoundError(why);
    if (err == EACCES) return PermissionDeniedError(why);
    return InternalError(why);
  }
  std::unique_ptr<int, void (*)(int*)> closer(new int(fd), [](int* f) {
    ::close(*f);
    delete f;
  });
  struct stat st;
  if (::fstat(fd, &st) != 0) return InternalError("private key file " + path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return InvalidArgumentError("private key file " + path + ": not a regular file");
  if (st.st_mode & 077) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return PermissionDeniedError("private key file " + path + " has mode " + mode +
                                 ": a private key must not be accessible by group or others; run `chmod 600 " + path +
                                 "`");
  }
  constexpr off_t kMaxKeyFile = 64 * 1024;
  if (st.st_size > kMaxKeyFile) {
    return InvalidArgumentError("private key file " + path + ": " + std::to_string(st.st_size) +
                                " bytes is too large for a key file");
  }
  std::string pem(static_cast<std::size_t>(st.st_size), '\0');
  WipeOnExit wipe{pem};
  std::size_t got = 0;
  while (got < pem.size()) {
    const ssize_t n = ::read(fd, pem.data() + got, pem.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return InternalError("private key file " + path + ": " + std::strerror(errno));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  auto key = FromPem(std::string_view(pem.data(), got));
  if (!key.ok()) return InvalidArgumentError("private key file " + path + ": " + key.status().message());
  return key;
}

std::string PrivateKey::ToPem() const {
  std::string der = internal::EncodeSec1PrivateKey(secret_, public_.point_);
  WipeOnExit wipe{der};
  return internal::EncodePem("EC PRIVATE KEY", der);
}

Status PrivateKey::WriteFile(const std::string& path, bool overwrite) const {
  auto fail = [&](const std::string& what) {
    return InternalError("writing private key file " + path + ": " + what + ": " + std::strerror(errno));
  };
  // Written to a fresh 0600 temporary beside the target, then moved into place, so the
  // target is never readable by others and never half-written.
  std::string tmp = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return fail("cannot create a temporary file");
  std::string pem = ToPem();
  WipeOnExit wipe{pem};
  std::size_t done = 0;
  while (done < pem.size()) {
    const ssize_t n = ::write(fd, pem.data() + done, pem.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      Status st = fail("write");
      ::close(fd);
      ::unlink(tmp.c_str());
      return st;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fchmod(fd, 0600) != 0 || ::fsync(fd) != 0) {
    Status st = fail("fsync");
    ::close(fd);
    ::unlink(tmp.c_str());
    return st;
  }
  ::close(fd);
  if (overwrite) {
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
      Status st = fail("rename");
      ::unlink(tmp.c_str());
      return st;
    }
    return OkStatus();
  }
  // link() fails with EEXIST instead of replacing: no overwrite, even against a race.
  if (::link(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    if (err == EEXIST) {
      return AlreadyExistsError("private key file " + path + " already exists (use --force to replace it)");
    }
    errno = err;
    return fail("link");
  }
  ::unlink(tmp.c_str());
  return OkStatus();
}

Signature PrivateKey::SignToSignature(std::string_view message) const {
  const auto hash = Sha256(message);
  secp256k1_ecdsa_signature sig;
  // nullptr nonce function = RFC 6979 (HMAC-SHA256); libsecp256k1 always returns low-S.
  if (secp256k1_ecdsa_sign(Context(), &sig, hash.data(), secret_.data(), nullptr, nullptr) != 1) {
    // Only possible for an invalid secret, which FromSecret already refused.
    std::fprintf(stderr, "balcao: ECDSA signing failed with a validated key\n");
    std::abort();
  }
  std::array<std::uint8_t, 64> compact;
  secp256k1_ecdsa_signature_serialize_compact(Context(), compact.data(), &sig);
  Signature out;
  out.r_ = ToScalar(compact, 0);
  out.s_ = ToScalar(compact, 32);
  return out;
}

std::string PrivateKey::Sign(std::string_view message) const { return SignToSignature(message).ToBase64(); }

std::array<std::uint8_t, 32> Sha256(std::string_view data) {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);  // fetched once
  std::array<std::uint8_t, 32> out{};
  unsigned int len = 0;
  if (md == nullptr || EVP_Digest(data.data(), data.size(), out.data(), &len, md, nullptr) != 1) {
    std::fprintf(stderr, "balcao: SHA-256 is unavailable in OpenSSL\n");
    std::abort();
  }
  return out;
}

}  // namespace balcao::api
