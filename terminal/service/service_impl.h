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
#include "terminal/service/hub_link.h"
#include "terminal/service/lane_identity.h"
#include "terminal/service/listener_tls.h"
#include "terminal/service/sale_book.h"
#include "terminal/service/sale_watch.h"
#include "terminal/service/service.h"
#include "terminal/service/service_metrics.h"
#include "terminal/service/sessions.h"

namespace balcao::terminal::service {

using http::HttpRequest;
using http::HttpResponse;
using http::Respond;

// A new sale's id (sales.cc): `prefix` ('v' the touchscreen's, 'c' a cash register's), then the
// time in UTC and a counter, digits kept apart by letters so that no id looks like a card number.
std::string MintSaleId(char prefix, UnixMicros now);

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
  std::unique_ptr<checkout::Driver> driver;
  std::unique_ptr<checkout::Intake> intake;
  std::unique_ptr<api::EventVerifier> verifier;
  std::unique_ptr<offline::ApiGateway> gateway;
  std::unique_ptr<http::Server> server;
  std::unique_ptr<offline::Drainer> drainer;
  std::unique_ptr<offline::ConnectivityMonitor> monitor;
  std::unique_ptr<offline::Spooler> spooler;
  std::unique_ptr<offline::SealedCards> sealed_cards;  // offline_cards.enabled only
  std::unique_ptr<offline::BankCardAuthorizer> card_authorizer;
  std::unique_ptr<DriverLoop> loop;
  std::unique_ptr<SaleBook> book;
  std::unique_ptr<SaleWatch> watch;  // the touchscreen's long polls on the book
  std::unique_ptr<offline::Operators> operators;
  std::unique_ptr<Sessions> sessions;
  std::unique_ptr<AccessPolicy> access;
  std::unique_ptr<offline::CashRegisters> registers;
  std::unique_ptr<integration::Counter> counter;  // the box as cash registers see it (register_counter.cc)
  std::unique_ptr<http::Server> nexo_server;      // its own HTTPS port (nexo_listener.cc)
  unsigned short nexo_port = 0;
  std::unique_ptr<HubLink> hub_link;                        // the chain's hub (hub_intake.cc); null without one
  std::unique_ptr<integration::tefdial::Manager> tef_dial;  // TEF Dial folders (tef_dial.cc); null when off
  std::string tef_dial_dir;                                 // its folder, absolute; "" when off
  std::atomic<bool> stopping{false};
  std::atomic<bool> online{true};
  // The disk (CheckHealth, on the driver thread; read from any thread): free bytes in the data
  // dir (-1 before the first look), and whether a store write failed since the last success.
  std::atomic<long long> free_bytes{-1};
  std::atomic<bool> store_failing{false};
  UnixMicros next_health_check = 0;  // driver thread
  bool clock_warned = false;         // driver thread: the offset's warning is in the log
  std::atomic<long long> webhooks_applied{0}, webhooks_refused{0};

  std::mutex device_mu;
  std::map<std::string, std::string> device_tokens;      // guarded by device_mu: link token -> sale id
  std::map<std::string, checkout::BrowserData> devices;  // guarded by device_mu: sale id -> its device

  // The embedded sandbox's payer (POST /api/sales/{id}/simulate): one thread, calls in turn
  // (each answers in milliseconds: the sandbox delivers the webhooks later, from its own workers).
  std::unique_ptr<DriverLoop> simulations;
  // --sandbox-autopay: Pix QRs to pay, by when (driver thread; paid from Tick).
  std::map<std::string, UnixMicros> autopay_due;

  std::set<std::string> open_sales;                      // driver thread: open in the driver
  std::set<std::string> touched;                         // driver thread: changed since the last Publish
  std::string webhook_url;                               // ours at the bank; "" for a real bank without webhook_url
  bool webhook_registered = false;                       // driver thread
  int webhook_refusals = 0;                              // driver thread: in a row, for the back-off
  UnixMicros webhook_retry_at = 0;                       // driver thread: the next registration attempt
  mutable std::mutex webhook_mu;                         // guards webhook_state (read by /readyz's thread)
  std::string webhook_state;                             // guarded: why the last registration failed ("" none did)
  std::atomic<bool> webhook_live{false};                 // registered at the bank (read by /readyz's thread)
  bool told_to_name_lane = false;                        // driver thread: the warning is logged once
  std::map<std::string, std::string> purchase_networks;  // driver thread: purchase id -> bank's network
  UnixMicros next_catch_up = 0;                          // driver thread
  std::map<std::string, UnixMicros> next_tick_at;        // driver thread: sale -> when its timers are looked at
  UnixMicros next_forward = 0;                           // driver thread: the next look at the sealed cards

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

  // --- the steps of Service::Start (service.cc), in their order ---
  StatusOr<api::Client> ConnectBank(const std::filesystem::path& dir, const api::CallObserver& observe_bank);
  Status OpenStore(const std::filesystem::path& dir);                // waits a moment for a tool holding it
  void MakeDriver();                                                 // the checkout driver, the intake, the verifier
  Status Listen(const ListenerTls* listener_tls);                    // the HTTP(S) listener and its access policy
  Status MakeBackgroundWork(const api::CallObserver& observe_bank);  // drainer, monitor, loops, spooler
  void StartThreads();                                               // every loop, listener and watcher made above
  // --- driver thread (service.cc) ---
  void OnEffect(const std::string& sale_id, const checkout::Effect& effect);
  void Publish();        // copies every touched sale into the book
  void Tick();           // due timers of sales waiting for the bank or the customer; catch-up
  void Resume();         // at start: open sales from the journal, today's sales from the index
  void EnsureWebhook();  // registers webhook_url at the bank once
  // Free space, a store that works again after failing, the clock's offset: every few seconds.
  void CheckHealth();
  // The sale's copy in the book, from the driver or, when not open there, the journal.
  void EnsureCopy(const std::string& sale_id);
  // The driver journals every event it is fed before its machine decides, refused ones too
  // (a replay refuses them again). A cashier's request the machine would refuse is answered
  // without feeding it, so no request the API refuses writes to the store (sale_routes.cc).
  Status Acceptable(const std::string& sale_id, const checkout::Event& event) const;
  StatusOr<checkout::Sale> FeedIfAccepted(const std::string& sale_id, const checkout::Event& event);
  // --- sales, for the touchscreen and the cash registers alike (sales.cc), driver thread ---
  struct OpenRefusal {
    bool in_book;  // the book refused the new sale (the store's fault), else the driver did
    Status status;
  };
  // Opens a new sale: its row in the book, then the driver; it is then touched.
  std::optional<OpenRefusal> OpenNewSale(const std::string& sale_id, checkout::Cents cents, UnixMicros now);
  // Opens in the driver a sale this box knows that is not open there (kNotFound: none such).
  Status EnsureOpen(const std::string& sale_id);
  // --- card sales while offline (offline_cards.cc) ---
  Status OpenSealedCards();  // at start, when offline_cards.enabled
  // Whether a card for this sale is taken offline now: the store takes cards offline, the bank
  // is unreachable, the sale is at the method choice.
  bool TakesCardsOffline(const std::string& sale_id) const;
  // Seals the card (within the store-and-forward's caps: kOutOfRange naming the limit; a full disk
  // is kResourceExhausted)
  // and tells the sale (CardHeldOffline); the caller wipes `card`.
  StatusOr<checkout::Sale> HoldCardOffline(const std::string& sale_id, checkout::CardData& card,
                                           const checkout::BrowserData& browser, checkout::FundingType funding,
                                           int installments);
  // Every few seconds: forwards the sealed cards (while online) and feeds their outcomes.
  void ForwardHeldCards();
  // Renders `doc`, keeps its text for the sale's view and queues its bytes for the printer.
  Status PrintReceipt(const std::string& sale_id, const std::string& kind, const printer::Document& doc);
  // Prints again what a sale of today printed last (sale, refund or invoice slip), marked
  // "2ª VIA". kNotFound for a sale not of today; kFailedPrecondition when it has nothing to print.
  StatusOr<checkout::Sale> Reprint(const std::string& sale_id);
  // Runs `work` on the driver's thread, publishes what changed, then answers.
  void OnDriver(std::function<HttpResponse()> work, Respond respond);

  // The chain's hub (hub_intake.cc): starts the link when the config names credentials; an
  // event pulled from the lane's consumer, taken on the driver's thread like a webhook's.
  Status StartHubLink();
  HubVerdict TakeFromHub(const std::string& body, const std::atomic<bool>& link_stopping);
  void SendHeartbeat(UnixMicros now);    // Tick: every hub.heartbeat_s, while linked
  UnixMicros next_heartbeat = 0;         // driver thread
  std::int64_t chain_reported_rows = 0;  // driver thread: the journal head last reported (rows)
  void LoadChainReported();
  void SaveChainReported();

  // TEF Dial (tef_dial.cc): opens the folders and the exchange log when a dir is configured.
  Status OpenTefDial();

  // --- cash registers (register_counter.cc), driver thread ---
  void PayFromRegister(const integration::PaymentRequest& request, UnixMicros deadline,
                       std::function<void(integration::PaymentOutcome)> done);
  Status AbortFromRegister(const integration::AbortRequest& request);
  void ReverseFromRegister(const integration::ReversalRequest& request, UnixMicros deadline,
                           std::function<void(integration::ReversalOutcome)> done);
  integration::StatusLookup LookupFromRegister(const integration::RequestIdentity& identity);
  // A supervisor approved on the screen the register's reversal waiting for one (sale_routes.cc).
  StatusOr<checkout::Sale> ApproveRegisterReversal(const std::string& sale_id, const std::string& supervisor);
  // Called by Publish(): answers and records register payments and reversals that ended, answers
  // InProgress to waiters past their deadline, and lets the sandbox payer pay Pix QRs.
  void SettleRegisterSales();
  void SettleRegisterPayments(UnixMicros now);   // answers and records the payments that ended
  void SettleRegisterReversals(UnixMicros now);  // and the reversals
  void ScheduleAutopays();                       // --sandbox-autopay: the Pix QRs newly shown
  // A reversal request seen before (`seen`): its recorded outcome, or the running one's answer.
  void AnswerRepeatedReversal(const integration::ReversalRequest& request, const offline::RegisterRequestRow& seen,
                              std::function<void(integration::ReversalOutcome)> done);
  // Records a register reversal's outcome under its identity (a failure is logged).
  void FinishReversal(const integration::RequestIdentity& id, const integration::ReversalOutcome& outcome);
  void PayDueAutopays(UnixMicros now);  // Tick: posts the Pix payments --sandbox-autopay owes
  void ResumeRegisterSales();           // at start: running register payments watched again
  void ResumeRegisterReversals();       // at start: running register reversals carried on
  std::optional<integration::PaymentOutcome> RegisterOutcome(const std::string& sale_id, RegisterSale& running);
  // The brand and the receipts a register gets in `o`: the merchant's copy (CashierReceipt) and
  // the customer's (CustomerReceipt), each alone, re-rendered from the sale (after a restart too).
  void AddRegisterReceipts(const std::string& sale_id, const checkout::Sale& sale,
                           const integration::RequestIdentity& id, integration::PaymentOutcome& o);
  // The sale's card terms from its journal, with the network the bank recorded for its purchase
  // (PurchaseNetwork) when it gave one; else the BIN table's, marked as such.
  CardTerms CardTermsFor(const std::string& sale_id, const checkout::Sale& sale);
  // GET /v2/merchant-purchase/{id}'s `network` ("" when the bank gives none or cannot be asked),
  // asked once per purchase (purchase_networks).
  std::string PurchaseNetwork(const std::string& purchase_id);
  // The text lines of the refund slip a cash register gets with its reversal's answer.
  std::vector<std::string> RefundSlipLines(const checkout::Sale& sale, checkout::Cents amount);
  bool IsRegisterSale(const std::string& sale_id) const;
  // --- nexo (nexo_listener.cc), any io thread ---
  void OnNexo(HttpRequest request, Respond respond);
  // Starts the nexo listener when a port is given or a register is registered.
  Status StartNexo(const ListenerTls* tls);
  // --- failures (health.cc), any thread ---
  // A store write the disk refused: counted, and logged (the first of a run of failures as an
  // error naming the write and the system's reason; later ones until it works again at debug).
  void NoteStoreFailure(std::string_view where, const Status& status);
  // The box's health in one place (bank, clock, disk, printer): /api/status's "health" and the
  // touchscreen's status line; /readyz adds the probes that write.
  nlohmann::json HealthJson();

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
  // What to type to add the first operator, while none exists (first_run.h); nullopt after.
  std::optional<AddOperatorHint> FirstRunHint() const;
  // The store as its receipts name it: the merchant of the config, on this box's terminal_id.
  StoreIdentity ReceiptStore() const;
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
