// The local, stateful bank sandbox: serves the bank's API v2 (signed requests, the same
// envelopes and errors) on 127.0.0.1 over HTTP and HTTPS, plus a simulation API under
// /sandbox/ (clock, faults, payer actions, webhook deliveries). docs/sandbox.md.
// Ownership: a Sandbox owns its server threads, database and webhook sender; Stop() (or
// the destructor) joins them. Thread-safety: all methods may be called from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "common/status.h"
#include "sandbox/latency.h"

namespace balcao::sandbox {

struct SandboxOptions {
  unsigned short port = 0;        // plain HTTP on 127.0.0.1; 0 picks a free port
  unsigned short https_port = 0;  // HTTPS (self-signed certificate in data_dir); 0 picks a free port
  bool https = true;
  std::string data_dir;                  // keys, credentials.json, TLS certificate; empty: a new temp dir
  std::string db;                        // SQLite file; empty: <data_dir>/sandbox.db; ":memory:" for RAM
  int threads = 2;                       // HTTP worker threads
  int access_time_window_seconds = 300;  // accepted |Access-Time - sandbox clock|
  int tick_millis = 250;                 // how often due jobs and webhook deliveries run by themselves
  // A seeded account: on a new database, 60 days of history of the demo workspace made
  // deterministically from this seed (docs/sandbox.md, "A seeded account"); the same seed
  // gives the same ids and documents. Absent: an empty account.
  std::optional<std::uint64_t> seed;
  Latency latency;  // added to every bank API answer (sandbox/latency.h)
  // Webhooks may also subscribe to api::UndocumentedSubscriptions() (card acceptance...), as a
  // bank that sent those events would allow. Off: refused as the API documents imply
  // (invalidSubscriptions), so a client registering them is caught.
  bool undocumented_subscriptions = false;
};

// The demo organization, workspace and project created on first start (credentials.json).
struct SandboxCredentials {
  std::string organization_id;
  std::string workspace_id;
  std::string project_id;
  std::string private_key_path;               // project key (SEC1 PEM, mode 0600)
  std::string organization_private_key_path;  // organization key
  std::string project_private_key_pem;
  std::string organization_private_key_pem;
  std::string base_url;          // http://127.0.0.1:<port>/v2
  std::string https_url;         // https://127.0.0.1:<https_port>/v2 (empty without HTTPS)
  std::string credentials_path;  // <data_dir>/credentials.json
  std::string tls_cert_path;     // <data_dir>/tls-cert.pem (trust it to call the HTTPS port)
  std::string center_id;         // the demo workspace's cost center (payment requests' centerId)
  std::string card_id;           // a saved merchant card of a seeded account (empty without seed)
};

class Sandbox {
 public:
  // Opens (or creates) the state, binds the ports and starts serving.
  // kUnavailable: a port or the data dir could not be used.
  static StatusOr<std::unique_ptr<Sandbox>> Start(SandboxOptions options);
  ~Sandbox();
  void Stop();

  unsigned short port() const;
  unsigned short https_port() const;
  const SandboxCredentials& credentials() const;
  // The sandbox's webhook-signing public key, as GET /v2/public-key serves it.
  std::string webhook_public_key_pem() const;
  const std::string& data_dir() const;
  // "seeded 12345 entities from seed 1 in 2.1 s" after this start seeded the account; empty otherwise.
  const std::string& seed_report() const;

  // Runs due jobs and attempts every due webhook delivery before returning. (Every
  // tick_millis, and after each request that creates events, the due deliveries are handed to
  // the delivery workers instead, off the caller's thread.)
  void Flush();
  // Number of stored entities of a resource ("invoice", "invoice/log"): state checks in tests.
  std::int64_t CountForTest(const std::string& resource) const;

  struct Impl;

 private:
  explicit Sandbox(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace balcao::sandbox
