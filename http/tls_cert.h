// Self-signed TLS certificates for a listener of balcao_http (the sandbox's HTTPS port, `balcao
// serve` on the LAN): made once with OpenSSL 3 (ECDSA P-256, SHA-256, serverAuth) into two PEM
// files beside the data they protect, the key file mode 0600; and the SHA-256 fingerprint a
// person compares with what a browser or a client shows (docs/terminal.md, "TLS on the LAN").
// Thread-safety: pure functions over files and memory.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"

namespace balcao::http {

struct TlsCertificate {
  std::string cert_pem;
  std::string key_pem;
};

struct SelfSignedOptions {
  std::string common_name = "balcao";
  std::vector<std::string> dns_names;     // subjectAltName DNS entries
  std::vector<std::string> ip_addresses;  // subjectAltName IP entries ("127.0.0.1", "::1")
  int valid_days = 825;                   // the longest validity Apple's clients accept
};

// A new key and certificate, in memory. kInvalidArgument: a name or address OpenSSL refuses;
// kInternal: OpenSSL failed.
StatusOr<TlsCertificate> CreateSelfSigned(const SelfSignedOptions& options);

// The certificate at cert_path/key_path when both exist, are a pair, name every entry of
// `options` (its common name too) and are valid for 30 more days; else a new one written there (the key created
// 0600, both replaced atomically), with `*created` set. kUnavailable: cannot write the files.
StatusOr<TlsCertificate> LoadOrCreateSelfSigned(const std::string& cert_path, const std::string& key_path,
                                                const SelfSignedOptions& options, bool* created = nullptr);

// Reads a configured certificate chain and key (PEM). kNotFound: a file cannot be read;
// kInvalidArgument: not PEM, or the key does not match the certificate.
StatusOr<TlsCertificate> ReadTlsFiles(const std::string& cert_path, const std::string& key_path);

// "AB:01:...": SHA-256 of the first certificate's DER, what browsers and `openssl x509
// -fingerprint -sha256` show. kInvalidArgument when `cert_pem` holds no certificate.
StatusOr<std::string> Sha256Fingerprint(const std::string& cert_pem);

}  // namespace balcao::http
