#include "sandbox/internal/tls_cert.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>

#include <fstream>
#include <memory>
#include <sstream>

namespace balcao::sandbox::internal {
namespace {

template <typename T, void (*F)(T*)>
struct Deleter {
  void operator()(T* p) const { F(p); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using X509Ptr = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using BioPtr = std::unique_ptr<BIO, Deleter<BIO, BIO_free_all>>;

std::string BioText(BIO* bio) {
  char* data = nullptr;
  long n = BIO_get_mem_data(bio, &data);
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

}  // namespace

StatusOr<TlsFiles> CreateTlsCert() {
  PkeyPtr key(EVP_EC_gen("P-256"));
  X509Ptr cert(X509_new());
  if (!key || !cert) return InternalError("OpenSSL: cannot create a TLS key");
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), static_cast<long>(time(nullptr)));
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 10L * 365 * 24 * 3600);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("balcao sandbox"), -1, -1,
                             0);
  X509_set_issuer_name(cert.get(), name);
  X509V3_CTX v3;
  X509V3_set_ctx_nodb(&v3);
  X509V3_set_ctx(&v3, cert.get(), cert.get(), nullptr, nullptr, 0);
  X509_EXTENSION* san = X509V3_EXT_conf_nid(nullptr, &v3, NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost");
  if (!san) return InternalError("OpenSSL: cannot build subjectAltName");
  X509_add_ext(cert.get(), san, -1);
  X509_EXTENSION_free(san);
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) return InternalError("OpenSSL: cannot sign certificate");
  BioPtr cert_bio(BIO_new(BIO_s_mem())), key_bio(BIO_new(BIO_s_mem()));
  PEM_write_bio_X509(cert_bio.get(), cert.get());
  PEM_write_bio_PrivateKey(key_bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr);
  return TlsFiles{BioText(cert_bio.get()), BioText(key_bio.get())};
}

StatusOr<TlsFiles> LoadOrCreateTlsCert(const std::string& dir) {
  const std::string cert_path = dir + "/tls-cert.pem", key_path = dir + "/tls-key.pem";
  TlsFiles files;
  if (ReadFile(cert_path, files.cert_pem) && ReadFile(key_path, files.key_pem)) return files;
  BALCAO_ASSIGN_OR_RETURN(files, CreateTlsCert());
  {
    std::ofstream out(cert_path, std::ios::binary | std::ios::trunc);
    out << files.cert_pem;
    if (!out) return UnavailableError("cannot write " + cert_path);
  }
  {
    std::ofstream out(key_path, std::ios::binary | std::ios::trunc);
    out << files.key_pem;
    if (!out) return UnavailableError("cannot write " + key_path);
  }
  ::chmod(key_path.c_str(), 0600);
  return files;
}

}  // namespace balcao::sandbox::internal
