#include "terminal/service/service.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "checkout/journal_codec.h"
#include "common/log.h"
#include "printer/render.h"
#include "terminal/internal/receipts.h"
#include "terminal/internal/sale_events.h"
#include "terminal/service/first_run.h"
#include "terminal/service/listener_tls.h"
#include "terminal/service/service_impl.h"

namespace balcao::terminal::service {

// What serve's SQLite connections may hold in all (Service::Start).
constexpr sqlite3_int64 kSqliteHeapLimitBytes = 6 << 20;
namespace {

constexpr std::chrono::milliseconds kTickInterval{100};
// Each sale's timers are looked at this often (timers are seconds apart: polls every
// poll_interval_s, countdowns, lookup retries), so many open sales cost little.
constexpr UnixMicros kSaleTickInterval = 500'000;
// Free space, a failing store and the clock's offset are looked at this often.
constexpr UnixMicros kHealthCheckInterval = 2 * kMicrosPerSecond;

bool BankConfiguredInEnvironment() {
  for (const char* name : {"BALCAO_CREDENTIALS", "BALCAO_BANK_URL", "BALCAO_ACCESS_ID", "BALCAO_PROJECT_ID",
                           "BALCAO_ORGANIZATION_ID", "BALCAO_PRIVATE_KEY"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') return true;
  }
  return false;
}

// The webhook pointing at this service: registered (once per URL) so that the bank creates
// events for the checkout's subscriptions; in the embedded sandbox, hooks left by earlier runs
// on other ports are removed (they would only collect failed deliveries).
Status RegisterWebhook(const api::Bank& bank, const std::string& url, bool remove_stale) {
  auto listed = bank.client().Call("GET", "/v2/webhook", api::Query().Add("limit", std::int64_t{100}));
  if (!listed.ok()) return listed.status();
  const auto page = nlohmann::json::parse(listed->body, nullptr, false);
  bool found = false;
  if (page.is_object() && page.contains("webhooks") && page["webhooks"].is_array()) {
    for (const auto& hook : page["webhooks"]) {
      if (!hook.is_object() || !hook.contains("url") || !hook["url"].is_string() || !hook.contains("id") ||
          !hook["id"].is_string())
        continue;
      const std::string hook_url = hook["url"].get<std::string>();
      if (hook_url == url) {
        found = true;
      } else if (remove_stale && hook_url.find(kWebhookPath) != std::string::npos) {
        const std::string id = hook["id"].get<std::string>();
        // Best effort: a stale hook left behind only collects failed deliveries.
        if (auto removed = bank.client().Call("DELETE", "/v2/webhook/" + id); !removed.ok())
          logging::Warn("serve", "stale webhook not removed", {{"id", id}, {"error", removed.status().ToString()}});
      }
    }
  }
  if (found) return OkStatus();
  // Only what the API documents (api::Subscriptions(); a bank refuses the whole registration
  // for one unknown name): Pix deposits and invoices. Card outcomes come from polling the
  // purchase, and from the event catch-up should the bank ever send card events.
  const nlohmann::json body = {{"url", url}, {"subscriptions", nlohmann::json::array({"deposit", "invoice"})}};
  auto created = bank.client().Call("POST", "/v2/webhook", {}, body.dump());
  return created.ok() ? OkStatus() : created.status();
}

}  // namespace

// --- the driver's thread ---

void Service::Impl::OnEffect(const std::string& sale_id, const checkout::Effect& effect) {
  touched.insert(sale_id);
  if (const auto* show = std::get_if<checkout::Show>(&effect)) {
    book->SetMessage(sale_id, show->message);
  } else if (const auto* flag = std::get_if<checkout::FlagOperator>(&effect)) {
    book->AddFlag(sale_id, flag->reason + (flag->entity_id.empty() ? "" : " (" + flag->entity_id + ")"));
  } else if (const auto* print = std::get_if<checkout::Print>(&effect)) {
    auto sale = driver->Get(sale_id);
    if (!sale.ok()) return;
    const UnixMicros now = bank_clock->Now();
    auto doc = ReceiptFor(*sale, *print, ReceiptStore(), now, CardTermsFor(sale_id, *sale));
    if (!doc) return;
    // A cash register prints the receipts it received; the box prints what nexo.print says.
    if (IsRegisterSale(sale_id)) {
      const bool customer_slip = print->slip == checkout::Slip::kSaleReceipt ||
                                 print->slip == checkout::Slip::kPixCode ||
                                 print->slip == checkout::Slip::kRefundReceipt;
      if (config.nexo.print == "none" || (config.nexo.print == "customer" && !customer_slip)) {
        book->AddReceipt(sale_id, printer::RenderText(*doc, *profile, {.placeholders = true}));
        return;
      }
    }
    PrintReceipt(sale_id, checkout::Name(print->slip), *doc).IgnoreError();  // logged where it failed
  }
}

Status Service::Impl::PrintReceipt(const std::string& sale_id, const std::string& kind, const printer::Document& doc) {
  book->AddReceipt(sale_id, printer::RenderText(doc, *profile, {.placeholders = true}));
  auto bytes = printer::RenderEscPos(doc, *profile);
  if (!bytes.ok()) {
    logging::Error("serve", "receipt not rendered", {{"sale", sale_id}, {"reason", bytes.status().message()}});
    return bytes.status();
  }
  auto job = print_jobs->Enqueue(sale_id, kind, printer_target, *bytes, printer::OpensDrawer(doc, *profile));
  if (!job.ok()) {
    logging::Error("serve", "receipt not queued", {{"sale", sale_id}, {"reason", job.status().message()}});
    return job.status();
  }
  return OkStatus();
}

StatusOr<checkout::Sale> Service::Impl::Reprint(const std::string& sale_id) {
  const UnixMicros now = SystemClock::Instance().Now();
  const std::vector<std::string> today = book->IdsOfDay(StoreDay(now));
  if (std::find(today.begin(), today.end(), sale_id) == today.end())
    return NotFoundError("no sale " + sale_id + " of today (" + StoreDay(now) + ") on this box");
  EnsureCopy(sale_id);
  std::optional<checkout::Sale> sale = book->Copy(sale_id);
  if (!sale) return NotFoundError("no sale " + sale_id + " on this box");
  const CardTerms card = CardTermsFor(sale_id, *sale);
  const std::optional<checkout::Print> print = ReprintOf(*sale, card);
  if (!print)
    return FailedPreconditionError(std::string("the sale has no receipt to print again (it is ") +
                                   checkout::StateName(static_cast<int>(sale->state.index())) + ")");
  StoreIdentity store = ReceiptStore();
  store.options.duplicate = true;
  store.options.drawer_kick = false;
  const std::optional<printer::Document> doc = ReceiptFor(*sale, *print, store, now, card);
  if (!doc) return FailedPreconditionError("the sale has no receipt to print again");
  BALCAO_RETURN_IF_ERROR(PrintReceipt(sale_id, std::string("reprint-") + checkout::Name(print->slip), *doc));
  logging::Info("serve", "receipt reprinted", {{"sale", sale_id}, {"slip", checkout::Name(print->slip)}});
  return *sale;
}

void Service::Impl::Publish() {
  auto put_touched = [this] {
    for (const std::string& id : touched) {
      auto sale = driver->Get(id);
      if (!sale.ok()) continue;
      book->Put(*sale);
      // A sale that ended leaves the driver (its journal keeps it; EnsureOpen resumes it for a
      // refund): a busy day's memory stays flat. A cash register's stays while it may ask.
      if (checkout::IsTerminal(sale->state) && !IsRegisterSale(id) && driver->Close(id)) {
        open_sales.erase(id);
        next_tick_at.erase(id);
      } else {
        open_sales.insert(id);
      }
    }
    touched.clear();
  };
  // The book first: a cash register told "paid" may ask the touchscreen's API at once, and
  // must find the sale paid there. Settling may touch sales again (a cancel): those follow.
  put_touched();
  if (registers) {
    SettleRegisterSales();
    put_touched();
  }
}

void Service::Impl::Tick() {
  const UnixMicros now = bank_clock->Now();
  if (!autopay_due.empty()) PayDueAutopays(now);
  for (const std::string& id : book->Unsettled()) {
    if (!open_sales.count(id)) continue;
    UnixMicros& next = next_tick_at[id];
    if (now < next) continue;
    // Fires the sale's due timers (polls, countdowns, lookup retries) and returns: the
    // deadline is 1 ms away, so a sale with nothing due costs at most that sleep.
    auto sale = driver->RunUntilSettled(id, bank_clock->Now() + 1000);
    // Back at its next timer (a phone's payment is seen at its poll, not up to a tick later),
    // and at least every kSaleTickInterval: an event fed since may have armed an earlier one.
    next = std::min(now + kSaleTickInterval, driver->NextTimer(id).value_or(now + kSaleTickInterval));
    // A timer whose event the disk refused fires again shortly (checkout::Driver): the poll
    // goes on, and sees the payment once the disk takes writes again.
    if (!sale.ok() && offline::IsDiskFailure(sale.status())) NoteStoreFailure("timer", sale.status());
    touched.insert(id);
  }
  ForwardHeldCards();
  watch->Expire(SaleWatch::Clock::now());
  if (now >= next_health_check) {
    next_health_check = now + kHealthCheckInterval;
    CheckHealth();
  }
  SendHeartbeat(now);
  // The ids of events gone past the replay window (at the first tick, then hourly).
  if (auto forgotten = applied_events->PruneIfDue(); !forgotten.ok()) {
    logging::Warn("serve", "applied events not pruned", {{"reason", forgotten.status().message()}});
  } else if (*forgotten > 0) {
    logging::Info("serve", "applied events pruned", {{"forgotten", *forgotten}});
  }
  if (online.load()) EnsureWebhook();  // at its back-off's pace until registered
  if (now >= next_catch_up && online.load()) {
    next_catch_up = now + config.catch_up_interval_s * kMicrosPerSecond;
    // Events the webhook missed (the bank delivers again, but not soon): the sales they
    // name are resumed from their journal by the intake, so they are tracked from here.
    auto applied = intake->CatchUp();
    if (!applied.ok()) {
      logging::Warn("serve", "event catch-up failed", {{"reason", applied.status().message()}});
    } else if (*applied > 0) {
      logging::Info("serve", "event catch-up applied events", {{"applied", *applied}});
      for (const std::string& id : book->Unsettled()) touched.insert(id);
    }
    // Other boxes share the account: a terminal id made up by each box is unique only by
    // chance (docs/stores.md), so the installer is told once to name it.
    if (applied.ok() && intake->foreign_left() > 0 && lane.terminal_id_derived && !told_to_name_lane) {
      told_to_name_lane = true;
      logging::Warn("serve", "other lanes share this bank account: set terminal_id in the config",
                    {{"terminal_id", lane.terminal_id}, {"other_lane_events", intake->foreign_left()}});
    }
  }
  Publish();
}

void Service::Impl::EnsureWebhook() {
  if (webhook_registered || webhook_url.empty()) return;
  const UnixMicros now = bank_clock->Now();
  if (now < webhook_retry_at) return;
  const Status hooked = RegisterWebhook(*bank, webhook_url, sandbox != nullptr);
  webhook_registered = hooked.ok();
  webhook_live = hooked.ok();
  std::string state;
  if (hooked.ok()) {
    logging::Info("serve", "webhook registered", {{"url", webhook_url}, {"subscriptions", "deposit,invoice"}});
    webhook_refusals = 0;
  } else if (hooked.delivery() != Delivery::kAnswered) {
    // The bank was not reached: no refusal to back off from. The next tick while online tries
    // again (the connectivity probe paces it), so a box back online registers at once: the bank
    // makes events only for the webhooks it has when a payment happens.
    state = "webhook not registered yet: the bank was not reached (" + hooked.message() + ")";
    logging::Warn("serve", "webhook not registered", {{"url", webhook_url}, {"reason", hooked.message()}});
  } else {
    // Back-off: 5 s, 10 s, 20 s... up to 10 min; payments are still seen by polling and the catch-up.
    const std::int64_t wait_s = std::min<std::int64_t>(600, std::int64_t{5} << std::min(webhook_refusals, 7));
    ++webhook_refusals;
    webhook_retry_at = now + wait_s * kMicrosPerSecond;
    state = "webhook not registered at the bank (" + hooked.message() + "); retried in " + std::to_string(wait_s) +
            " s; payments are seen by polling meanwhile";
    logging::Warn(
        "serve", "webhook not registered",
        {{"url", webhook_url}, {"reason", hooked.message()}, {"retry_in_s", wait_s}, {"attempts", webhook_refusals}});
  }
  std::lock_guard<std::mutex> lock(webhook_mu);
  webhook_state = std::move(state);
}

void Service::Impl::EnsureCopy(const std::string& sale_id) {
  if (book->HasCopy(sale_id)) return;
  if (auto open = driver->Get(sale_id); open.ok()) return book->Put(*open);
  auto events = ReadSaleEvents(*journal, sale_id);
  if (events.ok()) book->Put(checkout::Replay(*events));
}

void Service::Impl::Resume() {
  auto open = journal->OpenSales();
  if (!open.ok()) {
    logging::Error("serve", "cannot list open sales", {{"reason", open.status().message()}});
  } else {
    for (const std::string& id : *open) {
      auto sale = driver->Resume(id);
      if (!sale.ok()) {
        logging::Error("serve", "sale not resumed", {{"sale", id}, {"reason", sale.status().message()}});
        continue;
      }
      logging::Info("serve", "sale resumed", {{"sale", id}});
      touched.insert(id);
    }
  }
  ResumeRegisterSales();
  Publish();
  const UnixMicros now = bank_clock->Now();
  for (UnixMicros day : {now, now - 86400 * kMicrosPerSecond})
    for (const std::string& id : book->IdsOfDay(StoreDay(day))) EnsureCopy(id);
}

void Service::Impl::OnDriver(std::function<HttpResponse()> work, Respond respond) {
  loop->Post([this, work = std::move(work), respond = std::move(respond)] {
    HttpResponse response;
    try {
      response = work();
    } catch (const std::exception& e) {  // nlohmann, std::regex...: never the whole service
      logging::Error("serve", "request failed", {{"reason", e.what()}});
      response = HttpResponse{
          500, "application/json; charset=utf-8", R"({"error":{"field":"service","rule":"internal error"}})", {}};
    }
    Publish();
    if (response.status == 507) {
      const auto body = nlohmann::json::parse(response.body, nullptr, false);
      const std::string rule = body.is_object() ? body["error"].value("rule", "") : "";
      NoteStoreFailure("api", Status(StatusCode::kResourceExhausted, rule));
    }
    respond(std::move(response));
  });
}

// --- start and stop ---

StatusOr<ServeOptions> ResolveServeOptions(const ServeOptions& given, const ServeConfig& config) {
  ServeOptions out = given;
  if (out.address.empty()) out.address = config.address.empty() ? "127.0.0.1" : config.address;
  if (!out.port) out.port = config.port >= 0 ? static_cast<unsigned short>(config.port) : 8080;
  if (out.data_dir.empty()) out.data_dir = config.data_dir.empty() ? kDefaultDataDir : config.data_dir;
  if (!out.nexo_port && config.nexo.port >= 0) out.nexo_port = static_cast<unsigned short>(config.nexo.port);
  if (!out.sandbox_autopay_s) out.sandbox_autopay_s = config.sandbox_autopay_s;
  if (out.tef_dial_dir.empty()) out.tef_dial_dir = config.tef_dial.dir;
  if (out.tef_dial_method.empty()) out.tef_dial_method = config.tef_dial.method;
  if (out.tef_dial_method != "pix" && out.tef_dial_method != "card" && out.tef_dial_method != "ask")
    return InvalidArgumentError("--tef-dial-method: pix, card or ask");
  // Absolute once, here: the sandbox, the printer file and the log all name files inside it.
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(out.data_dir, ec);
  if (ec) return InvalidArgumentError("--data-dir " + out.data_dir + ": " + ec.message());
  out.data_dir = absolute.lexically_normal().string();
  if (out.data_dir.size() > 1 && out.data_dir.back() == '/') out.data_dir.pop_back();
  return out;
}

Service::Service(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Service::~Service() { Stop(); }

// The bank: the configured one, or the embedded sandbox (its state kept in the data dir).
StatusOr<api::Client> Service::Impl::ConnectBank(const std::filesystem::path& dir,
                                                 const api::CallObserver& observe_bank) {
  if (!BankConfiguredInEnvironment() && config.bank_credentials.empty()) {
    sandbox::SandboxOptions sandbox_options;
    sandbox_options.data_dir = (dir / "sandbox").string();
    sandbox_options.https = false;
    sandbox_options.tick_millis = 100;
    BALCAO_ASSIGN_OR_RETURN(sandbox, sandbox::Sandbox::Start(sandbox_options));
    credentials_path = sandbox->credentials().credentials_path;
  } else if (std::getenv("BALCAO_CREDENTIALS") == nullptr) {
    credentials_path = config.bank_credentials;
  }
  BALCAO_ASSIGN_OR_RETURN(api::Client client, api::Client::FromEnvironment(credentials_path));
  bank = std::make_unique<api::Bank>(client.WithObserver(observe_bank).WithBankClock(bank_clock));
  return client;
}

Status Service::Impl::OpenStore(const std::filesystem::path& dir) {
  BALCAO_ASSIGN_OR_RETURN(store, offline::Store::Open((dir / "balcao.db").string()));
  // A tool may hold the store for a moment (the nightly settlement a box catches up on at
  // boot, `balcao queue drain`): wait for it rather than fail the start.
  for (int waited = 0; !store->is_owner() && waited < options.owner_wait_s; ++waited) {
    if (waited == 0) logging::Warn("serve", "another process holds the store: waiting", {{"db", store->path()}});
    std::this_thread::sleep_for(std::chrono::seconds(1));
    store->TryBecomeOwner().IgnoreError();  // the loop checks is_owner(); the refusal is named below
  }
  if (!store->is_owner())
    return FailedPreconditionError("another process owns " + (dir / "balcao.db").string() +
                                   " (is another `balcao serve` running on this data dir?)");
  operators = std::make_unique<offline::Operators>(*store);
  registers = std::make_unique<offline::CashRegisters>(*store);
  config.sandbox_autopay_s = options.sandbox_autopay_s.value_or(0);
  // The bank's clock runs on the monotonic clock once measured: a wall clock set an hour ahead
  // does not end the cashier's session.
  sessions = std::make_unique<Sessions>(*bank_clock, std::chrono::seconds(config.session_idle_s));
  journal = std::make_unique<offline::Journal>(*store);
  outbox = std::make_unique<offline::Outbox>(*store);
  print_jobs = std::make_unique<offline::PrintJobs>(*store);
  applied_events = std::make_unique<offline::AppliedEvents>(*store, *bank_clock,
                                                            std::chrono::hours(24 * config.webhook_retention_days));
  book = std::make_unique<SaleBook>((dir / "sales.idx").string());
  BALCAO_RETURN_IF_ERROR(book->Load());
  watch = std::make_unique<SaleWatch>(*book);
  book->OnChange([this](const std::string& sale_id) { watch->Changed(sale_id); });
  return OkStatus();
}

void Service::Impl::MakeDriver() {
  driver = std::make_unique<checkout::Driver>(
      *bank, *journal, *bank_clock,
      [this](const std::string& sale_id, const checkout::Effect& effect) { OnEffect(sale_id, effect); });
  driver->SetOutbox(outbox.get());
  driver->OnNotSent([this] {
    if (monitor) monitor->ReportNotSent();
  });
  driver->OnUnknownResolved(
      [this](checkout::EntityKind, bool found) { metrics->CountUnknownResolved("checkout", found); });
  intake = std::make_unique<checkout::Intake>(*driver, *bank, *bank_clock);
  intake->SetAppliedEvents(applied_events.get());
  intake->SetLane(config.settings.lane);
  intake->SetFirstWindowDays(config.webhook_retention_days);  // what the record of applied events keeps
  verifier = std::make_unique<api::EventVerifier>([bank = *bank] { return bank.FetchPublicKeyPem(); });
}

Status Service::Impl::Listen(const ListenerTls* listener_tls) {
  http::ServerOptions server_options;
  server_options.body_limit = 64 << 10;  // far above the API's bodies and the bank's webhook events
  server_options.response_headers = {{"Cache-Control", "no-store"}};
  if (listener_tls != nullptr) {
    server_options.tls_cert_pem = listener_tls->files.cert_pem;
    server_options.tls_key_pem = listener_tls->files.key_pem;
  }
  server = std::make_unique<http::Server>(
      server_options, [this](HttpRequest request, Respond respond) { Handle(std::move(request), std::move(respond)); });
  BALCAO_ASSIGN_OR_RETURN(port, listener_tls != nullptr ? server->ListenTls(options.address, *options.port)
                                                        : server->Listen(options.address, *options.port));
  std::vector<std::string> names = config.host_names;
  if (options.address != "0.0.0.0" && options.address != "::") names.push_back(options.address);
  access = std::make_unique<AccessPolicy>(port, names, tls);
  return OkStatus();
}

Status Service::Impl::MakeBackgroundWork(const api::CallObserver& observe_bank) {
  BALCAO_ASSIGN_OR_RETURN(api::Client drainer_client, offline::DrainerClient(credentials_path));
  gateway = std::make_unique<offline::ApiGateway>(drainer_client.WithObserver(observe_bank).WithBankClock(bank_clock));
  drainer = std::make_unique<offline::Drainer>(server->io(), *store, *outbox, *gateway);
  BALCAO_RETURN_IF_ERROR(OpenSealedCards());
  monitor = std::make_unique<offline::ConnectivityMonitor>(server->io(), *gateway, config.connectivity);
  loop = std::make_unique<DriverLoop>(kTickInterval, [this] { Tick(); });
  simulations = std::make_unique<DriverLoop>(std::chrono::hours(1), [] {});
  monitor->Subscribe([this](bool online) {
    this->online = online;
    drainer->SetOnline(online);
    logging::Info("serve", online ? "bank reachable" : "bank unreachable: offline");
    loop->Post([this, online] { driver->SetBankOnline(online); });
  });
  drainer->OnLookupAnswered(
      [this](const offline::OutboxItem&, bool found) { metrics->CountUnknownResolved("outbox", found); });
  drainer->OnSettled([this](const offline::OutboxItem& item) {
    if (item.request.sale_id.empty()) return;
    loop->Post([this, id = item.request.sale_id] {
      auto sale = driver->Reconcile(id);
      if (!sale.ok())
        logging::Warn("serve", "outbox outcome not applied", {{"sale", id}, {"reason", sale.status().message()}});
      touched.insert(id);
      Publish();
    });
  });
  spooler = std::make_unique<offline::Spooler>(*print_jobs);
  return OkStatus();
}

void Service::Impl::StartThreads() {
  loop->Start();
  simulations->Start();
  server->Start();
  if (nexo_server) nexo_server->Start();
  if (tef_dial) tef_dial->Start();
  drainer->Start();
  monitor->Start();
  spooler->Start();
}

StatusOr<std::unique_ptr<Service>> Service::Start(const ServeOptions& options) {
  auto impl = std::make_unique<Impl>();
  Impl& s = *impl;
  BALCAO_ASSIGN_OR_RETURN(s.metrics, ServiceMetrics::Create());
  // Every bank call of every client below (driver, intake, webhook key, drainer, probes).
  const api::CallObserver observe_bank = [metrics = s.metrics.get()](const api::CallRecord& call) {
    metrics->ObserveBankCall(call);
  };
  BALCAO_ASSIGN_OR_RETURN(s.config, LoadServeConfig(options.config_path));
  BALCAO_ASSIGN_OR_RETURN(s.options, ResolveServeOptions(options, s.config));
  // SQLite's page caches (the box's store, and the embedded sandbox's 16 MB one) grow with the
  // day's databases: bounded together, serve's memory stays flat through a busy day
  // (docs/performance.md, "serve's memory over a day"). Soft: SQLite recycles cached pages.
  ::sqlite3_soft_heap_limit64(kSqliteHeapLimitBytes);
  if (!s.config.log_file.empty()) BALCAO_RETURN_IF_ERROR(logging::SetFallbackLogFile(s.config.log_file));
  if (!s.config.log_level.empty()) logging::SetFallbackMinLevel(*logging::ParseLevel(s.config.log_level));
  s.profile = printer::FindProfile(s.config.printer_profile);
  if (s.profile == nullptr)
    return InvalidArgumentError("printer.profile: unknown printer profile '" + s.config.printer_profile + "'");
  std::error_code ec;
  std::filesystem::create_directories(s.options.data_dir, ec);
  if (ec) return FailedPreconditionError("cannot create the data dir " + s.options.data_dir + ": " + ec.message());
  ::chmod(s.options.data_dir.c_str(), 0700);
  const std::filesystem::path dir(s.options.data_dir);
  // Every sale opened from now on carries the lane in its tags (old sales keep theirs).
  BALCAO_ASSIGN_OR_RETURN(s.lane, ResolveLaneIdentity(s.config.store_id, s.config.terminal_id, s.options.data_dir));
  s.config.settings.lane = s.lane.root();
  // Refused before anything starts: plain HTTP beyond loopback, a TLS file that does not load.
  BALCAO_ASSIGN_OR_RETURN(const ListenerPlan plan, PlanListener(s.options.address, s.config, s.options.insecure_lan));
  std::optional<ListenerTls> tls;
  if (plan.tls) {
    BALCAO_ASSIGN_OR_RETURN(tls, PrepareListenerTls(plan, s.config, s.options.address, s.options.data_dir));
    s.tls = true;
    s.tls_fingerprint = tls->fingerprint;
  }
  s.printer_target = !s.options.printer.empty()  ? s.options.printer
                     : !s.config.printer.empty() ? s.config.printer
                                                 : "file:" + std::filesystem::absolute(dir / "printer.bin").string();
  if (auto transport = printer::OpenTransport(s.printer_target); !transport.ok())
    return InvalidArgumentError("--printer: " + transport.status().message());

  BALCAO_ASSIGN_OR_RETURN(api::Client client, s.ConnectBank(dir, observe_bank));
  BALCAO_RETURN_IF_ERROR(s.OpenStore(dir));
  s.MakeDriver();
  BALCAO_RETURN_IF_ERROR(s.Listen(tls ? &*tls : nullptr));
  BALCAO_RETURN_IF_ERROR(s.MakeBackgroundWork(observe_bank));
  // The embedded sandbox delivers over loopback (a wildcard listener takes it too), without
  // checking the certificate (docs/sandbox.md).
  const std::string webhook_url =
      s.sandbox ? std::string(s.tls ? "https" : "http") + "://127.0.0.1:" + std::to_string(s.port) + kWebhookPath
                : s.config.webhook_url;
  s.webhook_url = webhook_url;
  BALCAO_RETURN_IF_ERROR(s.StartHubLink());
  if (s.hub_link) s.webhook_url.clear();  // the hub holds the account's one webhook (docs/hub.md)
  // Resume first: the open sales must not wait for a bank that may be unreachable. A real
  // bank's webhook is registered by the first tick (retried with the catch-up until it is).
  s.loop->Post([&s] {
    s.CheckHealth();  // the disk's free space before the first sale
    s.Resume();
    if (s.sandbox) s.EnsureWebhook();  // in-process: before any sale the API opens
  });
  s.counter = MakeBoxCounter(s);
  BALCAO_RETURN_IF_ERROR(s.StartNexo(tls ? &*tls : nullptr));
  BALCAO_RETURN_IF_ERROR(s.OpenTefDial());
  s.StartThreads();
  if (plan.insecure_lan)
    logging::Warn("serve",
                  "--insecure-lan: plain HTTP beyond loopback; PINs, session cookies and card numbers cross the "
                  "network in clear",
                  {{"address", s.options.address}});
  if (tls)
    logging::Info("serve", tls->created ? "TLS: made a self-signed certificate" : "TLS certificate",
                  {{"certificate", tls->cert_path}, {"sha256", tls->fingerprint}});
  logging::Info("serve", "listening",
                {{"url", (s.tls ? "https://" : "http://") + s.options.address + ":" + std::to_string(s.port) + "/"},
                 {"data_dir", s.options.data_dir},
                 {"bank", s.sandbox ? s.sandbox->credentials().base_url : client.base_url()},
                 {"printer", s.printer_target}});
  return std::unique_ptr<Service>(new Service(std::move(impl)));
}

unsigned short Service::port() const { return impl_->port; }
unsigned short Service::nexo_port() const { return impl_->nexo_port; }
const std::string& Service::data_dir() const { return impl_->options.data_dir; }
const std::string& Service::address() const { return impl_->options.address; }
const std::string& Service::tef_dial_dir() const { return impl_->tef_dial_dir; }

std::string Service::url() const {
  const std::string& address = impl_->options.address;
  const std::string host = address.find(':') != std::string::npos ? "[" + address + "]" : address;
  return (impl_->tls ? "https://" : "http://") + host + ":" + std::to_string(impl_->port) + "/";
}

const std::string& Service::tls_fingerprint() const { return impl_->tls_fingerprint; }

StoreIdentity Service::Impl::ReceiptStore() const {
  StoreIdentity store = config.store;
  store.merchant.terminal_id = lane.terminal_id;  // the lane the bank's tags and settlement name
  return store;
}

std::string Service::first_run_command() const {
  auto hint = impl_->FirstRunHint();
  return hint ? hint->command : "";
}
std::string Service::first_run_directory() const {
  auto hint = impl_->FirstRunHint();
  return hint ? hint->directory : "";
}

std::string Service::sandbox_url() const {
  return impl_->sandbox ? "http://127.0.0.1:" + std::to_string(impl_->sandbox->port()) : "";
}

void Service::Stop() {
  if (!impl_) return;
  Impl& s = *impl_;
  s.stopping = true;
  if (s.nexo_server) s.nexo_server->Stop();
  if (s.tef_dial) s.tef_dial->Stop();  // before the driver's loop: its counter posts there
  if (s.hub_link) s.hub_link->Stop();  // likewise: it waits on the loop for each event
  if (s.loop) s.loop->Stop();          // finishes the driver's task in progress
  if (s.simulations) s.simulations->Stop();
  if (s.drainer) s.drainer->Stop();
  if (s.monitor) s.monitor->Stop();
  if (s.spooler) s.spooler->Stop();
  if (s.server) s.server->Stop();
  // The long polls held answer now: none keeps a connection past its server.
  if (s.watch) s.watch->Expire(SaleWatch::Clock::time_point::max());
  s.nexo_server.reset();
  s.drainer.reset();
  s.monitor.reset();
  s.server.reset();
  s.intake.reset();
  s.driver.reset();
  if (s.sandbox) s.sandbox->Stop();
  impl_.reset();
}

}  // namespace balcao::terminal::service
