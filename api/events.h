// Webhook events (docs/wire.md, "Webhooks"): the bank POSTs {"event": {...}} to the
// merchant's URL and signs the exact body bytes in the Digital-Signature header with its own
// key, served at GET /v2/public-key. ParseEvent reads a body; EventVerifier checks the
// signature with a cached copy of that key, fetching it again once when a signature does not
// match.
// Thread-safety: Event is a value type; EventVerifier is thread-safe (one per process).
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/crypto.h"
#include "common/status.h"
#include "common/time.h"

namespace balcao::api {

// The log carried by an event: the same shape as GET /<resource>/log/<id>.
struct EventLog {
  std::string id;
  std::string type;  // "created", "paid", "sending"...; unknown types are kept as sent
  UnixMicros created = 0;
  std::vector<std::string> errors;  // strings as sent; a non-string entry as compact JSON
  // The entity the log is about, under its key: "invoice", "transfer", "card" (for
  // merchant-card), "holmes" (for boleto-holmes)... Empty when the log holds none.
  std::string entity_key;
  std::string entity_json;    // that entity as compact JSON ("{}" when absent)
  std::string entity_id;      // its "id", when it has one
  std::string entity_status;  // its "status", when it has one
};

struct Event {
  std::string id;
  UnixMicros created = 0;
  std::string subscription;          // "invoice", "merchant-purchase"...; unknown values kept as sent
  std::string workspace_id;          // empty in deliveries made before workspaces existed
  std::optional<bool> is_delivered;  // present in GET /event, absent from deliveries
  EventLog log;
};

// Reads a webhook body ({"event": {...}}) or an element of GET /event. Unknown fields,
// subscriptions and log types are tolerated. kInvalidArgument names the missing or
// malformed field ("event.log.created: ..."). Does not check any signature.
StatusOr<Event> ParseEvent(std::string_view body);

struct EventVerifierOptions {
  // docs/wire.md, "Webhook signatures": a signature that does not match the cached key makes
  // the SDKs fetch the key again once. To keep a flood of forged deliveries from turning into
  // a flood of fetches (docs/reliability.md, "Webhook keys"), such refetches happen at most
  // once per this interval.
  UnixMicros min_refetch_interval = 60 * kMicrosPerSecond;
  const Clock* clock = nullptr;  // SystemClock when null
};

class EventVerifier {
 public:
  // Returns the bank's public key PEM: the client wires it to GET /v2/public-key?limit=1
  // (publicKeys[0].content). Called once on first use and again on a mismatch.
  using PublicKeyFetcher = std::function<StatusOr<std::string>()>;

  explicit EventVerifier(PublicKeyFetcher fetch, EventVerifierOptions options = {});

  // Checks Digital-Signature over the exact body bytes. Returns
  //   kInvalidArgument   the signature is not Base64 of a DER ECDSA signature (no fetch);
  //   kPermissionDenied  it does not match the bank's key, even after fetching it again
  //                      (or the refetch was rate-limited): reject the delivery;
  //   the fetcher's code (e.g. kUnavailable) when the key could not be fetched: answer
  //                      the bank with an error so that it delivers again later;
  //   kInternal          the fetched key is not a secp256k1 public key PEM.
  Status Verify(std::string_view body, std::string_view signature_b64);
  // Verify, then ParseEvent.
  StatusOr<Event> Parse(std::string_view body, std::string_view signature_b64);

  // Installs a known key (e.g. kept from an earlier run) so that no fetch is needed.
  void SetPublicKey(const PublicKey& key);

 private:
  struct Snapshot {
    std::optional<PublicKey> key;
    std::uint64_t generation = 0;
  };
  Snapshot Current() const;
  // Fetches when no key is cached (first use), or when `seen` is still the cached
  // generation and a refetch is allowed now. Returns the snapshot to verify with.
  StatusOr<Snapshot> Fetch(std::optional<std::uint64_t> seen);

  PublicKeyFetcher fetch_;
  EventVerifierOptions options_;
  std::mutex fetch_mu_;  // one fetch at a time; taken before mu_
  mutable std::mutex mu_;
  std::optional<PublicKey> key_;            // guarded by mu_
  std::uint64_t generation_ = 0;            // guarded by mu_; bumped when key_ changes
  std::optional<UnixMicros> last_refetch_;  // guarded by fetch_mu_
};

}  // namespace balcao::api
