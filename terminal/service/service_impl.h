// Service::Impl: the parts `balcao serve` wires together (service.cc starts and stops them;
// routes.cc answers HTTP). Private to terminal/service/.
// Thread-safety: each part's header says its own; Impl's driver-thread methods run as tasks of
// the sales' loop (SaleDesk::loop).
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "api/events.h"
#include "checkout/checkout.h"
#include "checkout/sale_id.h"
#include "http/server.h"
#include "integration/core/counter.h"
#include "terminal/service/access.h"
#include "terminal/service/bank_events.h"
#include "terminal/service/bank_reach.h"
#include "terminal/service/bank_side.h"
#include "terminal/service/box_setup.h"
#include "terminal/service/config.h"
#include "terminal/service/first_run.h"
#include "terminal/service/health.h"
#include "terminal/service/hub_link.h"
#include "terminal/service/lane_identity.h"
#include "terminal/service/listener_tls.h"
#include "terminal/service/listeners.h"
#include "terminal/service/offline_cards.h"
#include "terminal/service/receipt_printer.h"
#include "terminal/service/register_counter.h"
#include "terminal/service/sale_book.h"
#include "terminal/service/sale_watch.h"
#include "terminal/service/sales.h"
#include "terminal/service/sandbox_payer.h"
#include "terminal/service/service.h"
#include "terminal/service/service_metrics.h"
#include "terminal/service/sessions.h"
#include "terminal/service/storage.h"
#include "terminal/service/webhook_registration.h"

namespace balcao::terminal::service {

using http::HttpRequest;
using http::HttpResponse;
using http::Respond;

using checkout::MintSaleId;  // a new sale's id: 'v' the touchscreen's, 'c' a cash register's

// {"error": {"field", "rule"}} with `status` (routes.cc): every refusal of the API.
HttpResponse ErrorResponse(int status, const std::string& field, const std::string& rule);

// The wiring of the parts (docs/architecture.md, "The box's service"): each part is a class
// with a header saying what it owns, its threads and what it may call, and is given what it
// calls by its constructor. Impl makes them in Service::Start's steps, in their order, and
// stops them in Service::Stop; its own methods are the glue between them (the driver's tick,
// a sale's effects, the HTTP requests posted to the driver's thread).
struct Service::Impl {
  std::unique_ptr<ServiceMetrics> metrics;  // first in, last out: the clients' observers use it
  BoxSetup setup;                           // what the service was started as
  std::unique_ptr<BankSide> bank_side;      // the bank or the embedded sandbox, the bank's clock
  std::unique_ptr<Storage> storage;         // the store and its tables
  // Made before the parts that use its io_context (the drainer, the monitor), gone after them.
  Listeners doors;                              // HTTP, nexo, TEF Dial; sessions and access
  std::unique_ptr<BankReach> reach;             // the connectivity monitor and the outbox's drainer
  std::unique_ptr<SaleDesk> sales;              // the driver, its loop, the book (sales.h)
  std::unique_ptr<ReceiptPrinter> receipts;     // and the printer's spooler
  std::unique_ptr<RegisterCounter> counter;     // the box as cash registers see it (register_counter.h)
  std::unique_ptr<OfflineCards> offline_cards;  // offline_cards.enabled only
  BankEvents events;                            // the intake, the webhook, the hub link
  std::unique_ptr<Health> health;               // the box's health, probes and metrics page (health.h)

  // --- the steps of Service::Start (service.cc), in their order ---
  Status OpenStore(const std::filesystem::path& dir);                // waits a moment for a tool holding it
  void MakeDriver();                                                 // the checkout driver, the intake, the verifier
  Status Listen(const ListenerTls* listener_tls);                    // the HTTP(S) listener and its access policy
  Status MakeBackgroundWork(const api::CallObserver& observe_bank);  // drainer, monitor, offline cards
  void StartThreads();                                               // every loop, listener and watcher made above
  // The log lines of a start: where it listens, its certificate, an insecure LAN.
  void LogStarted(const ListenerPlan& plan, const std::optional<ListenerTls>& tls) const;
  // --- driver thread (service.cc) ---
  void OnEffect(const std::string& sale_id, const checkout::Effect& effect);
  void Tick();    // due timers of sales waiting for the bank or the customer; catch-up
  void Resume();  // at start: open sales from the journal, today's sales from the index
  // Runs `work` on the driver's thread, publishes what changed, then answers.
  void OnDriver(std::function<HttpResponse()> work, Respond respond);

  // The chain's hub (hub_intake.cc): starts the link when the config names credentials; an
  // event pulled from the lane's consumer, taken on the driver's thread like a webhook's.
  Status StartHubLink();
  HubVerdict TakeFromHub(const std::string& body, const std::atomic<bool>& link_stopping);
  void SendHeartbeat(UnixMicros now);  // Tick: every hub.heartbeat_s, while linked

  // TEF Dial (tef_dial.cc): opens the folders and the exchange log when a dir is configured.
  Status OpenTefDial();

  // --- nexo (nexo_listener.cc), any io thread ---
  void OnNexo(HttpRequest request, Respond respond);
  // Starts the nexo listener when a port is given or a register is registered.
  Status StartNexo(const ListenerTls* tls);
  // --- HTTP (routes.cc), any io thread ---
  // Finds the request's row in the route table (routes.h), applies who may call it, runs it.
  void Handle(HttpRequest request, Respond respond);
  // Every request to kWebhookPath (webhook.cc): the bank's signed deliveries.
  void OnWebhook(HttpRequest request, Respond respond);
  // --- who is at the counter (login.cc), any io thread ---
  // The refusal of a request the access policy denies for its route's `audience` (none: the
  // path's, AccessPolicy::AudienceOf); `session` is set when there is one.
  std::optional<HttpResponse> Gate(const HttpRequest& request, std::optional<Audience> audience,
                                   std::optional<Session>& session);
  HttpResponse Login(HttpRequest& request);  // wipes the body
  HttpResponse Logout(const HttpRequest& request);
  HttpResponse SessionInfo(const std::optional<Session>& session) const;
  // The store as its receipts name it: the merchant of the config, on this box's terminal_id.
  StoreIdentity ReceiptStore() const;
  // What to type to add the first operator, while none exists (first_run.h); nullopt after.
  std::optional<AddOperatorHint> FirstRunHint() const;
  // The supervisor named in `approval` ({"supervisor", "pin"}, the PIN wiped) when their PIN
  // is right; kPermissionDenied with the reason otherwise.
  StatusOr<std::string> Approve(nlohmann::json& approval);
};

}  // namespace balcao::terminal::service
