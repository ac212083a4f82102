#include "http/tls_cert.h"

#include <fcntl.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>

namespace balcao::http {
namespace {

template <typename T, void (*F)(T*)>
struct Deleter {
  void operator()(T* p) const { F(p); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using X509Ptr = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using BioPtr = std::unique_ptr<BIO, Deleter<BIO, BIO_free_all>>;
using BnPtr = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>>;
using ExtPtr = std::unique_ptr<X509_EXTENSION, Deleter<X509_EXTENSION, X509_EXTENSION_free>>;
void FreeNames(GENERAL_NAMES* names) { GENERAL_NAMES_free(names); }
using NamesPtr = std::unique_ptr<GENERAL_NAMES, Deleter<GENERAL_NAMES, FreeNames>>;

// A certificate renewed this close to its end would expire under a running service.
constexpr long kRenewBeforeSeconds = 30L * 86400;

std::string BioText(BIO* bio) {
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<std::size_t>(n));
}

bool ReadFile(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

X509Ptr ParseCert(const std::string& pem) {
  BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  return X509Ptr(bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr);
}

PkeyPtr ParseKey(const std::string& pem) {
  BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  return PkeyPtr(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr);
}

// subjectAltName built entry by entry: a name is never parsed as OpenSSL's "DNS:a,IP:b" text.
Status AddSubjectAltNames(X509* cert, const SelfSignedOptions& options) {
  NamesPtr names(sk_GENERAL_NAME_new_null());
  if (!names) return InternalError("OpenSSL: cannot allocate subjectAltName");
  for (const std::string& dns : options.dns_names) {
    ASN1_IA5STRING* text = ASN1_IA5STRING_new();
    GENERAL_NAME* name = GENERAL_NAME_new();
    if (text == nullptr || name == nullptr || ASN1_STRING_set(text, dns.data(), static_cast<int>(dns.size())) != 1) {
      ASN1_IA5STRING_free(text);
      GENERAL_NAME_free(name);
      return InternalError("OpenSSL: cannot build the subjectAltName " + dns);
    }
    GENERAL_NAME_set0_value(name, GEN_DNS, text);
    sk_GENERAL_NAME_push(names.get(), name);
  }
  for (const std::string& ip : options.ip_addresses) {
    ASN1_OCTET_STRING* bytes = a2i_IPADDRESS(ip.c_str());
    if (bytes == nullptr) return InvalidArgumentError("not an IP address for the certificate: " + ip);
    GENERAL_NAME* name = GENERAL_NAME_new();
    if (name == nullptr) {
      ASN1_OCTET_STRING_free(bytes);
      return InternalError("OpenSSL: cannot build the subjectAltName " + ip);
    }
    GENERAL_NAME_set0_value(name, GEN_IPADD, bytes);
    sk_GENERAL_NAME_push(names.get(), name);
  }
  if (sk_GENERAL_NAME_num(names.get()) == 0) return OkStatus();
  if (X509_add1_ext_i2d(cert, NID_subject_alt_name, names.get(), 0, X509V3_ADD_DEFAULT) != 1)
    return InternalError("OpenSSL: cannot add subjectAltName");
  return OkStatus();
}

Status AddExtension(X509* cert, int nid, const char* value) {
  X509V3_CTX v3;
  X509V3_set_ctx_nodb(&v3);
  X509V3_set_ctx(&v3, cert, cert, nullptr, nullptr, 0);
  ExtPtr ext(X509V3_EXT_conf_nid(nullptr, &v3, nid, value));
  if (!ext || X509_add_ext(cert, ext.get(), -1) != 1)
    return InternalError(std::string("OpenSSL: cannot add ") + OBJ_nid2sn(nid));
  return OkStatus();
}

// Whether `cert` (paired with `key`) names every entry of `options` and outlives the renewal margin.
bool StillFits(const TlsCertificate& files, const SelfSignedOptions& options) {
  X509Ptr cert = ParseCert(files.cert_pem);
  PkeyPtr key = ParseKey(files.key_pem);
  if (!cert || !key || X509_check_private_key(cert.get(), key.get()) != 1) return false;
  std::time_t horizon = std::time(nullptr) + kRenewBeforeSeconds;
  if (X509_cmp_time(X509_get0_notAfter(cert.get()), &horizon) <= 0) return false;
  for (const std::string& dns : options.dns_names)
    if (X509_check_host(cert.get(), dns.data(), dns.size(), X509_CHECK_FLAG_NO_WILDCARDS, nullptr) != 1) return false;
  for (const std::string& ip : options.ip_addresses)
    if (X509_check_ip_asc(cert.get(), ip.c_str(), 0) != 1) return false;
  // The subject's common name as asked (a configured one may change).
  char common_name[256] = {};
  if (X509_NAME_get_text_by_NID(X509_get_subject_name(cert.get()), NID_commonName, common_name, sizeof common_name) < 0)
    return false;
  return options.common_name == common_name;
}

// Writes `text` to `path` through a temporary file renamed over it, created with `mode`.
Status WriteAtomically(const std::string& path, const std::string& text, mode_t mode) {
  const std::string temp = path + ".new";
  ::unlink(temp.c_str());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
  if (fd < 0) return UnavailableError("cannot create " + temp + ": " + std::strerror(errno));
  bool ok = ::fchmod(fd, mode) == 0;  // the umask may have taken bits the mode asked for
  for (std::size_t done = 0; ok && done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<std::size_t>(n);
  }
  ok = ok && ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!ok || std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(ok ? errno : saved);
    ::unlink(temp.c_str());
    return UnavailableError("cannot write " + path + ": " + reason);
  }
  return OkStatus();
}

}  // namespace

StatusOr<TlsCertificate> CreateSelfSigned(const SelfSignedOptions& options) {
  PkeyPtr key(EVP_EC_gen("P-256"));
  X509Ptr cert(X509_new());
  if (!key || !cert) return InternalError("OpenSSL: cannot create a TLS key");
  // A random 127-bit serial: two certificates of the same box never share one.
  unsigned char serial_bytes[16];
  if (RAND_bytes(serial_bytes, sizeof serial_bytes) != 1) return InternalError("OpenSSL: no random serial");
  serial_bytes[0] &= 0x7f;
  BnPtr serial(BN_bin2bn(serial_bytes, sizeof serial_bytes, nullptr));
  if (!serial || BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(cert.get())) == nullptr)
    return InternalError("OpenSSL: cannot set the serial number");
  X509_set_version(cert.get(), X509_VERSION_3);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);  // a clock a little behind still accepts it
  X509_time_adj_ex(X509_getm_notAfter(cert.get()), options.valid_days, 0, nullptr);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                             reinterpret_cast<const unsigned char*>(options.common_name.c_str()), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  BALCAO_RETURN_IF_ERROR(AddSubjectAltNames(cert.get(), options));
  BALCAO_RETURN_IF_ERROR(AddExtension(cert.get(), NID_basic_constraints, "critical,CA:FALSE"));
  BALCAO_RETURN_IF_ERROR(AddExtension(cert.get(), NID_key_usage, "critical,digitalSignature"));
  BALCAO_RETURN_IF_ERROR(AddExtension(cert.get(), NID_ext_key_usage, "serverAuth"));
  BALCAO_RETURN_IF_ERROR(AddExtension(cert.get(), NID_subject_key_identifier, "hash"));
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) return InternalError("OpenSSL: cannot sign certificate");
  BioPtr cert_bio(BIO_new(BIO_s_mem())), key_bio(BIO_new(BIO_s_mem()));
  if (!cert_bio || !key_bio || PEM_write_bio_X509(cert_bio.get(), cert.get()) != 1 ||
      PEM_write_bio_PrivateKey(key_bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
    return InternalError("OpenSSL: cannot write the certificate as PEM");
  return TlsCertificate{BioText(cert_bio.get()), BioText(key_bio.get())};
}

StatusOr<TlsCertificate> LoadOrCreateSelfSigned(const std::string& cert_path, const std::string& key_path,
                                                const SelfSignedOptions& options, bool* created) {
  if (created != nullptr) *created = false;
  TlsCertificate files;
  if (ReadFile(cert_path, files.cert_pem) && ReadFile(key_path, files.key_pem) && StillFits(files, options))
    return files;
  BALCAO_ASSIGN_OR_RETURN(files, CreateSelfSigned(options));
  // The key first: a crash between the two renames leaves a pair that does not match, which
  // the next start replaces.
  BALCAO_RETURN_IF_ERROR(WriteAtomically(key_path, files.key_pem, 0600));
  BALCAO_RETURN_IF_ERROR(WriteAtomically(cert_path, files.cert_pem, 0644));
  if (created != nullptr) *created = true;
  return files;
}

StatusOr<TlsCertificate> ReadTlsFiles(const std::string& cert_path, const std::string& key_path) {
  TlsCertificate files;
  if (!ReadFile(cert_path, files.cert_pem)) return NotFoundError("cannot read the TLS certificate " + cert_path);
  if (!ReadFile(key_path, files.key_pem)) return NotFoundError("cannot read the TLS key " + key_path);
  X509Ptr cert = ParseCert(files.cert_pem);
  if (!cert) return InvalidArgumentError(cert_path + ": not a PEM certificate");
  PkeyPtr key = ParseKey(files.key_pem);
  if (!key) return InvalidArgumentError(key_path + ": not a PEM private key (without a passphrase)");
  if (X509_check_private_key(cert.get(), key.get()) != 1)
    return InvalidArgumentError(key_path + ": not the key of the certificate " + cert_path);
  return files;
}

StatusOr<std::string> Sha256Fingerprint(const std::string& cert_pem) {
  X509Ptr cert = ParseCert(cert_pem);
  if (!cert) return InvalidArgumentError("no PEM certificate to take the fingerprint of");
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (X509_digest(cert.get(), EVP_sha256(), digest, &size) != 1) return InternalError("OpenSSL: cannot digest");
  std::string out;
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (unsigned int i = 0; i < size; ++i) {
    if (i > 0) out += ':';
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0xf];
  }
  return out;
}

}  // namespace balcao::http
