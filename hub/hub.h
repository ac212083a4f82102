// `balcao hub serve`: the chain's one webhook. The bank POSTs every event of the account here
// (through the TLS proxy); the hub checks its signature once (api::EventVerifier), refuses it
// past the replay window, routes it to its lane's subject (routing.h), publishes it to JetStream
// with Nats-Msg-Id = the event id and answers 200 only once JetStream stored it and PostgreSQL
// recorded it. POST /hub/join trades an enrolment code for its lane's NATS user (enrolment.h). A hub killed anywhere
// loses nothing (the bank delivers again what was not answered 200) and stores nothing twice (JetStream drops a
// repeated Nats-Msg-Id within its duplicate window; the routed_event table answers a later repeat without publishing).
// docs/hub.md. Ownership: owns its server, store and NATS link. Thread-safety: Start/Stop from
// one thread; deliveries are handled on the server's threads.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "http/server.h"
#include "hub/enrolment.h"
#include "hub/nats.h"

namespace balcao::hub {

inline constexpr const char* kWebhookPath = "/bank/webhook";

// A public page the hub serves beside the webhook, under another prefix than /pay/ (the phone
// page: phone_home.h). Called on the server's threads with the client's address
// (client_address.h).
using PublicPage = std::function<http::HttpResponse(const http::HttpRequest& request, const std::string& client)>;

struct HubOptions {
  std::string address = "127.0.0.1";  // behind the proxy: loopback
  unsigned short port = 8090;         // 0: any free port
  std::string postgres;               // libpq connection string
  NatsEndpoint nats;                  // the hub's own user (stream and consumers' manager)
  std::string bank_credentials;       // credentials.json ("" = the environment's, docs/api.md)
  std::string webhook_url;            // the public URL registered at the bank ("" = not registered)
  int replay_window_days = 7;         // as the boxes' webhook_retention_days
  int threads = 4;
  // The lanes' NATS users (enrolment.h): auth_file and pid_file set = POST /hub/join served.
  NatsAuthority authority;
  // Path prefix ("/phone/") -> its page; the proxy's X-Forwarded-For is believed only from
  // trusted_proxies (where Caddy connects from).
  std::map<std::string, PublicPage> public_pages;
  std::vector<std::string> trusted_proxies = {"127.0.0.1", "::1"};
  // The phone-card page's files (terminal/web/pay/, from the executable's web assets): set, the
  // hub serves /pay/ (phone_home.h) and takes the boxes' phone sessions.
  const std::map<std::string_view, std::string_view>* phone_assets = nullptr;
};

class Hub {
 public:
  // Connects PostgreSQL (migrating its schema), NATS (ensuring the stream) and the bank, then
  // listens and registers the webhook. kUnavailable names the engine that is not there.
  static StatusOr<std::unique_ptr<Hub>> Start(const HubOptions& options);
  ~Hub();
  Hub(const Hub&) = delete;
  Hub& operator=(const Hub&) = delete;
  unsigned short port() const;
  int schema_version() const;
  void Stop();

  struct Impl;

 private:
  explicit Hub(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace balcao::hub
