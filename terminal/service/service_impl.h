// Service::Impl: everything `balcao serve` wires together (service.cc starts and stops it;
// routes.cc answers HTTP). Private to terminal/service/.
// Thread-safety: members marked "driver thread" are touched only by tasks of `loop`.
#pragma once

#include <atomic>
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
#include "offline/cash_registers.h"
#include "offline/connectivity.h"
#include "offline/drainer.h"
#include "offline/journal.h"
#include "offline/operators.h"
#include "offline/outbox.h"
#include "offline/print_jobs.h"
#include "offline/store.h"
#include "printer/profile.h"
#include "printer/spooler.h"
#include "sandbox/sandbox.h"
#include "terminal/service/access.h"
#include "terminal/service/config.h"
#include "terminal/service/driver_loop.h"
#include "terminal/service/listener_tls.h"
#include "terminal/service/sale_book.h"
#include "terminal/service/service.h"
#include "terminal/service/service_metrics.h"
#include "terminal/service/sessions.h"

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

  std::unique_ptr<sandbox::Sandbox> sandbox;  // when no bank is configured
  std::string credentials_path;               // the sandbox's, or "" (environment)
  std::unique_ptr<api::Bank> bank;
  std::unique_ptr<offline::Store> store;
  std::unique_ptr<offline::Journal> journal;
  std::unique_ptr<offline::Outbox> outbox;
  std::unique_ptr<offline::PrintJobs> print_jobs;
  std::unique_ptr<offline::AppliedEvents> applied_events;  // the intake's: made before it, gone after it
  std::unique_ptr<checkout::Driver> driver;
  std::unique_ptr<checkout::Intake> intake;
  std::unique_ptr<api::EventVerifier> verifier;
  std::unique_ptr<offline::ApiGateway> gateway;
  std::unique_ptr<http::Server> server;
  std::unique_ptr<offline::Drainer> drainer;
  std::unique_ptr<offline::ConnectivityMonitor> monitor;
  std::unique_ptr<printer::Spooler> spooler;
  std::unique_ptr<DriverLoop> loop;
  std::unique_ptr<SaleBook> book;
  std::unique_ptr<offline::Operators> operators;
  std::unique_ptr<Sessions> sessions;
  std::unique_ptr<AccessPolicy> access;
  std::unique_ptr<offline::CashRegisters> registers;
  std::unique_ptr<integration::Counter> counter;  // the box as cash registers see it (register_counter.cc)
  std::unique_ptr<http::Server> nexo_server;      // its own HTTPS port (nexo_listener.cc)
  unsigned short nexo_port = 0;
  std::unique_ptr<integration::tefdial::Manager> tef_dial;  // TEF Dial folders (tef_dial.cc); null when off
  std::string tef_dial_dir;                                 // its folder, absolute; "" when off
  std::atomic<bool> stopping{false};
  std::atomic<bool> online{true};
  std::atomic<long long> webhooks_applied{0}, webhooks_refused{0};

  std::mutex side_mu;
  std::vector<std::thread> side_threads;  // guarded by side_mu: sandbox simulations in flight

  std::set<std::string> open_sales;                // driver thread: open in the driver
  std::set<std::string> touched;                   // driver thread: changed since the last Publish
  std::string webhook_url;                         // ours at the bank; "" for a real bank without webhook_url
  bool webhook_registered = false;                 // driver thread
  UnixMicros next_catch_up = 0;                    // driver thread
  std::map<std::string, UnixMicros> next_tick_at;  // driver thread: sale -> when its timers are looked at

  // A cash register's payment running as a sale (driver thread).
  struct RegisterSale {
    integration::PaymentRequest request;
    bool aborted = false;
    struct Waiter {
      std::function<void(integration::PaymentOutcome)> done;
      UnixMicros deadline = 0;
    };
    std::vector<Waiter> waiters;  // answers owed: the first request and its repeats
  };
  std::map<std::string, RegisterSale> register_sales;  // driver thread: sale id -> running payment
  struct RegisterReversal {
    integration::ReversalRequest request;
    checkout::Cents collected_before = 0;  // what the sale had collected when the reversal began
    bool awaiting_supervisor = false;      // nexo.reversal_needs_supervisor: not fed until approved
    std::vector<std::function<void(integration::ReversalOutcome)>> waiters;
    UnixMicros deadline = 0;
  };
  std::map<std::string, RegisterReversal> register_reversals;  // driver thread: sale id -> running reversal
  std::set<std::string> autopaid;                              // driver thread: Pix QRs the sandbox payer pays

  // --- driver thread (service.cc) ---
  void OnEffect(const std::string& sale_id, const checkout::Effect& effect);
  void Publish();        // copies every touched sale into the book
  void Tick();           // due timers of sales waiting for the bank or the customer; catch-up
  void Resume();         // at start: open sales from the journal, today's sales from the index
  void EnsureWebhook();  // registers webhook_url at the bank once
  // The sale's copy in the book, from the driver or, when not open there, the journal.
  void EnsureCopy(const std::string& sale_id);
  // The driver journals every event it is fed before its machine decides, refused ones too
  // (a replay refuses them again). A cashier's request the machine would refuse is answered
  // without feeding it, so no request the API refuses writes to the store (routes.cc).
  Status Acceptable(const std::string& sale_id, const checkout::Event& event) const;
  StatusOr<checkout::Sale> FeedIfAccepted(const std::string& sale_id, const checkout::Event& event);
  // Runs `work` on the driver's thread, publishes what changed, then answers.
  void OnDriver(std::function<HttpResponse()> work, Respond respond);

  // TEF Dial (tef_dial.cc): opens the folders and the exchange log when a dir is configured.
  Status OpenTefDial();

  // --- cash registers (register_counter.cc), driver thread ---
  void PayFromRegister(const integration::PaymentRequest& request, UnixMicros deadline,
                       std::function<void(integration::PaymentOutcome)> done);
  Status AbortFromRegister(const integration::AbortRequest& request);
  void ReverseFromRegister(const integration::ReversalRequest& request, UnixMicros deadline,
                           std::function<void(integration::ReversalOutcome)> done);
  integration::StatusLookup LookupFromRegister(const integration::RequestIdentity& identity);
  // A supervisor approved on the screen the register's reversal waiting for one (routes.cc).
  StatusOr<checkout::Sale> ApproveRegisterReversal(const std::string& sale_id, const std::string& supervisor);
  // Called by Publish(): answers and records register payments and reversals that ended, answers
  // InProgress to waiters past their deadline, and lets the sandbox payer pay Pix QRs.
  void SettleRegisterSales();
  void ResumeRegisterSales();  // at start: running register payments watched again
  std::optional<integration::PaymentOutcome> RegisterOutcome(const std::string& sale_id, RegisterSale& running);
  bool IsRegisterSale(const std::string& sale_id) const;
  // --- nexo (nexo_listener.cc), any io thread ---
  void OnNexo(HttpRequest request, Respond respond);
  // Starts the nexo listener when a port is given or a register is registered.
  Status StartNexo(const ListenerTls* tls);

  // --- HTTP (routes.cc), any io thread ---
  void Handle(HttpRequest request, Respond respond);
  // Every request to kWebhookPath (webhook.cc): the bank's signed deliveries.
  void OnWebhook(HttpRequest request, Respond respond);
  // --- who is at the counter (login.cc), any io thread ---
  // The refusal of a request the access policy denies; `session` is set when there is one.
  std::optional<HttpResponse> Gate(const HttpRequest& request, std::optional<Session>& session);
  HttpResponse Login(HttpRequest& request);  // wipes the body
  HttpResponse Logout(const HttpRequest& request);
  HttpResponse SessionInfo(const std::optional<Session>& session) const;
  // The supervisor named in `approval` ({"supervisor", "pin"}, the PIN wiped) when their PIN
  // is right; kPermissionDenied with the reason otherwise.
  StatusOr<std::string> Approve(nlohmann::json& approval);
  // --- probes and metrics (health.cc), any io thread ---
  HttpResponse Healthz() const;  // 200 {"status":"ok"}
  HttpResponse Readyz();         // 200, or 503 naming each failing check
  HttpResponse MetricsPage();    // Prometheus text format 0.0.4
};

// The Counter cash-register protocols call (register_counter.cc): runs on `impl`'s driver thread.
std::unique_ptr<integration::Counter> MakeBoxCounter(Service::Impl& impl);

}  // namespace balcao::terminal::service
