// The box's link to the chain's hub (docs/hub.md, "The box"): with `hub.url` and a credentials
// file in the config, the box pulls its lane's events from its durable JetStream consumer
// (dialing out; nothing reaches in), hands each to `apply` and answers JetStream by the
// verdict: ack only after the intake took it and its journal committed, a later retry when it
// could not be taken yet, never again for an event that is not this lane's. Without a hub the
// box works as before (its own webhook, or polling).
// Ownership: owns its thread and NATS connection. Thread-safety: Start/Stop from one thread;
// `apply` runs on the link's thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "common/status.h"
#include "hub/nats.h"
#include "hub/routing.h"

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

class HubLink {
 public:
  // `stopping` turns true when the link stops: an apply waiting on something gives up (kRetry).
  using Apply = std::function<HubVerdict(const std::string& body, const std::atomic<bool>& stopping)>;
  // Starts the link's thread (it connects, and reconnects, by itself). `store`/`terminal` are
  // the box's lane: its consumer and reply inbox are named after them.
  HubLink(hub::NatsEndpoint endpoint, std::string store, std::string terminal, Apply apply);
  ~HubLink();  // Stop()s
  HubLink(const HubLink&) = delete;
  HubLink& operator=(const HubLink&) = delete;
  void Stop();
  bool connected() const { return connected_.load(); }
  long long taken() const { return taken_.load(); }
  // Publishes the box's heartbeat (JSON) on its own subject; kUnavailable while not connected.
  Status PublishHeartbeat(const std::string& json);

  // Hands the hub the public facts of a phone-card session (docs/hub.md, "The phone page's
  // public home") and waits for it to answer them stored; kUnavailable while not connected.
  Status AnnouncePhoneSession(const std::string& json);

  // The box's nights (docs/hub.md, "The boxes' nights"): the settled_at of the last night the
  // hub answered stored is kept in `mark_file` (read here, written when the hub answers).
  void KeepNightsIn(const std::string& mark_file);
  std::int64_t night_reported_ms() const { return night_reported_ms_.load(); }
  bool night_queued(std::int64_t settled_at_ms) const { return night_queued_ms_.load() == settled_at_ms; }
  // Queues a night (settlement::NightSummaryJson) newer than the last reported: the link's
  // thread sends it as a request on balcao.box.<store>.<terminal>.night until the hub answers
  // it stored. One at a time, the oldest first: the next is offered once this one is reported.
  void OfferNight(std::int64_t settled_at_ms, std::string summary_json);

 private:
  void Run();
  void Handle(hub::PulledMsg& msg);
  void SendNight(hub::NatsLink& link);

  const hub::NatsEndpoint endpoint_;
  const std::string store_, terminal_;
  const Apply apply_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> connected_{false};
  std::atomic<long long> taken_{0};
  std::mutex link_mu_;
  std::shared_ptr<hub::NatsLink> link_;  // guarded by link_mu_ (the heartbeat reads it)
  std::mutex night_mu_;
  std::string night_mark_file_, night_json_;  // guarded by night_mu_
  std::atomic<std::int64_t> night_reported_ms_{0}, night_queued_ms_{0};
  std::chrono::steady_clock::time_point next_night_try_{};  // the link's thread only
  std::thread thread_;
};

}  // namespace balcao::terminal::service
