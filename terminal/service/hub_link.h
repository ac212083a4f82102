// The box's link to the chain's hub (docs/hub.md, "The box"): with `hub.url` and a credentials
// file in the config, the box pulls its lane's events from its durable JetStream consumer
// (dialing out; nothing reaches in), hands each to `apply` and answers JetStream by the
// verdict: ack only after the intake took it and its journal committed, a later retry when it
// could not be taken yet, never again for an event that is not this lane's. Without a hub the
// box works as before (its own webhook, or polling).
// The link also carries the box's heartbeat (docs/hub.md, "Heartbeats"), at its pace, with the
// journal's chain head, and keeps the head it last reported in a file of the data dir.
// Ownership: owns its thread, NATS connection and the heartbeat's state. Calls: the hub (NATS),
// `apply`, the journal (its chain, read). Thread-safety: Start/Stop from one thread; `apply` runs
// on the link's thread; the heartbeat's calls on one thread (the driver's).
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>

#include "common/status.h"
#include "common/time.h"
#include "hub/nats.h"
#include "hub/routing.h"
#include "offline/journal.h"

namespace balcao::terminal::service {

// What a box's hub credentials file holds (written 0600 by `balcao hub join`).
struct HubCredentials {
  std::string nats_url;  // overridden by the config's hub.url when that is set
  std::string user, password;
  std::string ca_file;  // PEM the hub's NATS certificate chains to; "" = the system's
  std::string store, terminal;
};
// Reads the file; kInvalidArgument names the missing field, kFailedPrecondition a file that
// others may read (it must be 0600).
StatusOr<HubCredentials> LoadHubCredentials(const std::string& path);
// Writes it with mode 0600 (through a temporary file and a rename).
Status SaveHubCredentials(const std::string& path, const HubCredentials& credentials);

enum class HubVerdict { kAck, kRetry, kTerminate };

// The heartbeat's pace, and the journal head (its row count) it reported last, kept across
// restarts in `file`: the next report proves the journal still holds what the hub saw then.
struct HubHeartbeat {
  UnixMicros every = 0;
  UnixMicros next_at = 0;
  std::int64_t reported_rows = 0;
  std::string file;  // "" keeps nothing
};

class HubLink {
 public:
  // `stopping` turns true when the link stops: an apply waiting on something gives up (kRetry).
  using Apply = std::function<HubVerdict(const std::string& body, const std::atomic<bool>& stopping)>;
  // Starts the link's thread (it connects, and reconnects, by itself). `store`/`terminal` are
  // the box's lane: its consumer and reply inbox are named after them. A heartbeat is due every
  // `heartbeat_every`; the head last reported is read from `chain_file` (written after each).
  HubLink(hub::NatsEndpoint endpoint, std::string store, std::string terminal, Apply apply, UnixMicros heartbeat_every,
          std::string chain_file);
  ~HubLink();  // Stop()s
  HubLink(const HubLink&) = delete;
  HubLink& operator=(const HubLink&) = delete;
  void Stop();
  bool connected() const { return connected_.load(); }
  long long taken() const { return taken_.load(); }
  // Publishes the box's heartbeat (JSON) on its own subject; kUnavailable while not connected.
  Status PublishHeartbeat(const std::string& json);
  // Whether the heartbeat is due at `now`; when it is, the next one is set.
  bool HeartbeatDue(UnixMicros now);
  // Publishes `beat` with the journal's chain (its head, and its hash now at the head reported
  // last: chain_watch.h); a head the hub took is remembered. Not connected: the hub sees the gap
  // in the heartbeats, which is the point of them.
  void SendHeartbeat(nlohmann::json beat, offline::Journal& journal);

  // Hands the hub the public facts of the phone-card session `uuid` (docs/hub.md, "The phone
  // page's public home") and waits for it to answer them stored; kUnavailable while not
  // connected. The session is remembered (announced or not: its end is then told all the same).
  Status AnnouncePhoneSession(const std::string& uuid, const std::string& json);
  // The hub's page of a session lives as long as its sale waits on it: each remembered session
  // that `awaited` says no sale waits on any more is sent ended (balcao.box.<store>.<terminal>.
  // phone-ended) by the link's thread, until the hub answers it ended.
  void EndPhoneSessions(const std::function<bool(const std::string& uuid)>& awaited);
  std::size_t phone_sessions_ending() const;

  // The box's nights (docs/hub.md, "The boxes' nights"): the settled_at of the last night the
  // hub answered stored is kept in `mark_file` (read here, written when the hub answers).
  void KeepNightsIn(const std::string& mark_file);
  std::int64_t night_reported_ms() const { return requests_.nights.reported_ms.load(); }
  bool night_queued(std::int64_t settled_at_ms) const { return requests_.nights.queued_ms.load() == settled_at_ms; }
  // Queues a night (settlement::NightSummaryJson) newer than the last reported: the link's
  // thread sends it as a request on balcao.box.<store>.<terminal>.night until the hub answers
  // it stored. One at a time, the oldest first: the next is offered once this one is reported.
  void OfferNight(std::int64_t settled_at_ms, std::string summary_json);

 private:
  void Run();
  void Handle(hub::PulledMsg& msg);
  void SendNight(hub::NatsLink& link);
  void SendPhoneEnds(hub::NatsLink& link);

  // The night on its way to the hub (OfferNight), and the last one it stored.
  struct NightQueue {
    std::mutex mu;
    std::string mark_file, json;  // guarded by mu
    std::atomic<std::int64_t> reported_ms{0}, queued_ms{0};
    std::chrono::steady_clock::time_point next_try{};  // the link's thread only
  };

  // The phone-card sessions announced to the hub, and those whose end the hub has not heard yet.
  struct PhonePages {
    mutable std::mutex mu;
    std::set<std::string> announced, ending;           // guarded by mu
    std::chrono::steady_clock::time_point next_try{};  // the link's thread only
    bool warned = false;                               // likewise: one warning per outage
  };

  const hub::NatsEndpoint endpoint_;
  const std::string store_, terminal_;
  const Apply apply_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> connected_{false};
  std::atomic<long long> taken_{0};
  std::mutex link_mu_;
  std::shared_ptr<hub::NatsLink> link_;  // guarded by link_mu_ (the heartbeat reads it)
  std::thread thread_;
  HubHeartbeat heartbeat_;  // the heartbeat's thread only
  // What the link's thread sends the hub between fetches, each until the hub stored it.
  struct Requests {
    NightQueue nights;
    PhonePages phones;
  } requests_;
};

}  // namespace balcao::terminal::service
