// A self-signed TLS certificate for the sandbox's HTTPS listener (P-256, SAN IP:127.0.0.1
// and DNS:localhost, 10 years), generated once into the data dir with OpenSSL.
// Thread-safety: pure functions over files.
#pragma once

#include <string>

#include "common/status.h"

namespace balcao::sandbox::internal {

struct TlsFiles {
  std::string cert_pem;
  std::string key_pem;
};

// Reads <dir>/tls-cert.pem and <dir>/tls-key.pem, creating them first when missing.
StatusOr<TlsFiles> LoadOrCreateTlsCert(const std::string& dir);
// Creates a certificate in memory (tests with no data dir).
StatusOr<TlsFiles> CreateTlsCert();

}  // namespace balcao::sandbox::internal
