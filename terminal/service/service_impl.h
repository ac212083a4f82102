// Service::Impl: everything `balcao serve` wires together (service.cc starts and stops it;
// routes.cc answers HTTP). Private to terminal/service/.
// Thread-safety: members marked "driver thread" are touched only by tasks of `loop`.
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

#include "api/bank.h"
#include "api/bank_clock.h"
#include "api/events.h"
#include "checkout/checkout.h"
#include "checkout/driver.h"
#include "checkout/intake.h"
#include "http/server.h"
#include "integration/core/counter.h"
#include "integration/core/register_request.h"
#include "integration/tefdial/manager.h"
#include "offline/api_gateway.h"
#include "offline/applied_events.h"
#include "offline/card_forwarder.h"
#include "offline/cash_registers.h"
#include "offline/connectivity.h"
#include "offline/drainer.h"
#include "offline/journal.h"
#include "offline/operators.h"
#include "offline/outbox.h"
#include "offline/print_jobs.h"
#include "offline/sealed_cards.h"
#include "offline/spooler.h"
#include "offline/store.h"
#include "printer/profile.h"
#include "printer/receipt.h"
#include "sandbox/sandbox.h"
#include "terminal/service/access.h"
#include "terminal/service/config.h"
#include "terminal/service/driver_loop.h"
#include "terminal/service/first_run.h"
#include "terminal/service/health.h"
#include "terminal/service/hub_link.h"
#include "terminal/service/lane_identity.h"
#include "terminal/service/listener_tls.h"
#include "terminal/service/receipt_printer.h"
#include "terminal/service/register_counter.h"
#include "terminal/service/sale_book.h"
#include "terminal/service/sale_watch.h"
#include "terminal/service/sales.h"
#include "terminal/service/sandbox_payer.h"
#include "terminal/service/service.h"
#include "terminal/service/service_metrics.h"
#include "terminal/service/sessions.h"
#include "terminal/service/webhook_registration.h"

namespace balcao::terminal::service {

using http::HttpRequest;
using http::HttpResponse;
using http::Respond;

// {"error": {"field", "rule"}} with `status` (routes.cc): every refusal of the API.
HttpResponse ErrorResponse(int status, const std::string& field, const std::string& rule);

struct Service::Impl {
  std::unique_ptr<ServiceMetrics> metrics;  // first in, last out: the clients' observers use it
  ServeOptions options;
  ServeConfig config;
  std::string printer_target;
  const printer::PrinterProfile* profile = nullptr;
  unsigned short port = 0;
  bool tls = false;             // the listener is TLS
  std::string tls_fingerprint;  // of its certificate, "" without TLS
  LaneIdentity lane;            // which lane of which store (config.settings.lane is its root)

  // The bank's time (api/bank_clock.h), shared by every client of the service: signs requests,
  // and is the clock of business days, sales' timers and expirations (docs/adr/0005-bank-time.md).
  std::shared_ptr<api::BankClock> bank_clock = std::make_shared<api::BankClock>();
  std::unique_ptr<sandbox::Sandbox> sandbox;  // when no bank is configured
  std::string credentials_path;               // the sandbox's, or "" (environment)
  std::unique_ptr<api::Bank> bank;
  std::unique_ptr<offline::Store> store;
  std::unique_ptr<offline::Journal> journal;
  std::unique_ptr<offline::Outbox> outbox;
  std::unique_ptr<offline::PrintJobs> print_jobs;
  std::unique_ptr<offline::AppliedEvents> applied_events;  // the intake's: made before it, gone after it
  std::unique_ptr<SaleDesk> sales;                         // the driver, its loop, the book (sales.h)
  std::unique_ptr<ReceiptPrinter> receipts;                // and the printer's spooler
  std::unique_ptr<checkout::Intake> intake;
  std::unique_ptr<api::EventVerifier> verifier;
  std::unique_ptr<offline::ApiGateway> gateway;
  std::unique_ptr<http::Server> server;
  std::unique_ptr<offline::Drainer> drainer;
  std::unique_ptr<offline::ConnectivityMonitor> monitor;
  std::unique_ptr<offline::SealedCards> sealed_cards;  // offline_cards.enabled only
  std::unique_ptr<offline::BankCardAuthorizer> card_authorizer;
  std::unique_ptr<offline::Operators> operators;
  std::unique_ptr<Sessions> sessions;
  std::unique_ptr<AccessPolicy> access;
  std::unique_ptr<offline::CashRegisters> registers;
  std::unique_ptr<RegisterCounter> counter;   // the box as cash registers see it (register_counter.h)
  std::unique_ptr<http::Server> nexo_server;  // its own HTTPS port (nexo_listener.cc)
  unsigned short nexo_port = 0;
  std::unique_ptr<HubLink> hub_link;                        // the chain's hub (hub_intake.cc); null without one
  std::unique_ptr<integration::tefdial::Manager> tef_dial;  // TEF Dial folders (tef_dial.cc); null when off
  std::string tef_dial_dir;                                 // its folder, absolute; "" when off
  std::atomic<bool> stopping{false};
  std::atomic<bool> online{true};
  std::atomic<long long> webhooks_applied{0}, webhooks_refused{0};

  std::mutex device_mu;
  std::map<std::string, std::string> device_tokens;      // guarded by device_mu: link token -> sale id
  std::map<std::string, checkout::BrowserData> devices;  // guarded by device_mu: sale id -> its device

  std::unique_ptr<SandboxPayer> payer;
  std::unique_ptr<Health>
      health;  // the box's health, probes and metrics page (health.h)  // the embedded sandbox's only (sandbox_payer.h)

  std::unique_ptr<WebhookRegistration> webhook;  // ours at the bank (made once the URL is known)
  bool told_to_name_lane = false;                // driver thread: the warning is logged once
  UnixMicros next_catch_up = 0;                  // driver thread
  UnixMicros next_forward = 0;                   // driver thread: the next look at the sealed cards

  // --- the steps of Service::Start (service.cc), in their order ---
  StatusOr<api::Client> ConnectBank(const std::filesystem::path& dir, const api::CallObserver& observe_bank);
  Status OpenStore(const std::filesystem::path& dir);                // waits a moment for a tool holding it
  void MakeDriver();                                                 // the checkout driver, the intake, the verifier
  Status Listen(const ListenerTls* listener_tls);                    // the HTTP(S) listener and its access policy
  Status MakeBackgroundWork(const api::CallObserver& observe_bank);  // drainer, monitor, loops, spooler
  void StartThreads();                                               // every loop, listener and watcher made above
  // --- driver thread (service.cc) ---
  void OnEffect(const std::string& sale_id, const checkout::Effect& effect);
  void Tick();    // due timers of sales waiting for the bank or the customer; catch-up
  void Resume();  // at start: open sales from the journal, today's sales from the index
  // --- card sales while offline (offline_cards.cc) ---
  Status OpenSealedCards();  // at start, when offline_cards.enabled
  // Whether a card for this sale is taken offline now: the store takes cards offline, the bank
  // is unreachable, the sale is at the method choice.
  bool TakesCardsOffline(const std::string& sale_id) const;
  // Seals the card (within the store-and-forward's caps: kOutOfRange naming the limit; a full disk
  // is kResourceExhausted)
  // and tells the sale (CardHeldOffline); the caller wipes `card`.
  StatusOr<checkout::Sale> HoldCardOffline(const std::string& sale_id, checkout::CardData& card,
                                           checkout::FundingType funding, int installments);
  // Every few seconds: forwards the sealed cards (while online) and feeds their outcomes.
  void ForwardHeldCards();
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
  // The customer's device for 3-D Secure (device_page.cc): the link for a sale's QR, its page
  // and report (/device/<token>), and what the sale's device reported, if anything.
  HttpResponse DeviceLink(const HttpRequest& request, const std::string& sale_id);
  HttpResponse DevicePage(const HttpRequest& request);
  std::optional<checkout::BrowserData> DeviceOf(const std::string& sale_id);
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
