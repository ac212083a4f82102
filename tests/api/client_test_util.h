// Helpers shared by the client tests: a loopback server whose every request is checked
// for a valid signature, and a Client pointed at it with microsecond backoff.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "api/client.h"
#include "api/crypto.h"
#include "tests/api/http_test_server.h"

namespace balcao::api::testing {

// A server that verifies Access-Id / Access-Time / Access-Signature on every request
// with the client's public key, then calls the test's handler.
class SignedServer {
 public:
  explicit SignedServer(HttpTestServer::Handler handler = nullptr);

  HttpTestServer& http() { return *server_; }
  void SetHandler(HttpTestServer::Handler handler);
  // A client for this server: project credentials, 1 µs backoff, `attempts` attempts.
  Client MakeClient(int attempts = 3, ClientOptions options = {}) const;
  int bad_signatures() const { return bad_signatures_.load(); }
  const PrivateKey& key() const { return key_; }

 private:
  PrivateKey key_;
  std::shared_ptr<HttpTestServer::Handler> handler_;
  std::atomic<int> bad_signatures_{0};
  std::unique_ptr<HttpTestServer> server_;
};

}  // namespace balcao::api::testing
