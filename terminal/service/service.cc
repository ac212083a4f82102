#include "terminal/service/service.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "common/log.h"
#include "terminal/internal/receipts.h"
#include "terminal/service/first_run.h"
#include "terminal/service/listener_tls.h"
#include "terminal/service/service_impl.h"

namespace balcao::terminal::service {

// What serve's SQLite connections may hold in all (Service::Start).
constexpr sqlite3_int64 kSqliteHeapLimitBytes = 6 << 20;
namespace {

constexpr std::chrono::milliseconds kTickInterval{100};

}  // namespace

// --- the driver's thread ---

void Service::Impl::OnEffect(const std::string& sale_id, const checkout::Effect& effect) {
  if (const auto* show = std::get_if<checkout::Show>(&effect)) {
    sales->book().SetMessage(sale_id, show->message);
  } else if (const auto* flag = std::get_if<checkout::FlagOperator>(&effect)) {
    sales->book().AddFlag(sale_id, flag->reason + (flag->entity_id.empty() ? "" : " (" + flag->entity_id + ")"));
  } else if (const auto* print = std::get_if<checkout::Print>(&effect)) {
    receipts->OnPrint(sale_id, *print, counter->IsRegisterSale(sale_id), bank_side->clock().Now());
  }
}

void Service::Impl::Tick() {
  const UnixMicros now = bank_side->clock().Now();
  if (SandboxPayer* payer = bank_side->payer()) payer->PayDue(now);
  sales->TickSales(now, [this](const Status& refused) { health->NoteStoreFailure("timer", refused); });
  if (offline_cards) offline_cards->ForwardHeldCards();
  sales->watch().Expire(SaleWatch::Clock::now());
  health->CheckIfDue(now);
  SendHeartbeat(now);
  // The ids of events gone past the replay window (at the first tick, then hourly).
  if (auto forgotten = storage->applied_events().PruneIfDue(); !forgotten.ok()) {
    logging::Warn("serve", "applied events not pruned", {{"reason", forgotten.status().message()}});
  } else if (*forgotten > 0) {
    logging::Info("serve", "applied events pruned", {{"forgotten", *forgotten}});
  }
  if (reach->online()) events.webhook->Ensure();  // at its back-off's pace until registered
  if (now >= events.next_catch_up && reach->online()) {
    events.next_catch_up = now + setup.config.catch_up_interval_s * kMicrosPerSecond;
    // Events the webhook missed (the bank delivers again, but not soon): the sales they
    // name are resumed from their journal by the intake, so they are tracked from here.
    auto applied = events.intake->CatchUp();
    if (!applied.ok()) {
      logging::Warn("serve", "event catch-up failed", {{"reason", applied.status().message()}});
    } else if (*applied > 0) {
      logging::Info("serve", "event catch-up applied events", {{"applied", *applied}});
      sales->TouchUnsettled();
    }
    // Other boxes share the account: a terminal id made up by each box is unique only by
    // chance (docs/stores.md), so the installer is told once to name it.
    if (applied.ok() && events.intake->foreign_left() > 0 && setup.lane.terminal_id_derived &&
        !events.told_to_name_lane) {
      events.told_to_name_lane = true;
      logging::Warn("serve", "other lanes share this bank account: set terminal_id in the config",
                    {{"terminal_id", setup.lane.terminal_id}, {"other_lane_events", events.intake->foreign_left()}});
    }
  }
  sales->Publish();
}

void Service::Impl::Resume() {
  sales->ResumeFromJournal();
  counter->Resume();
  sales->Publish();
  sales->CopyRecentDays(bank_side->clock().Now());
}

void Service::Impl::OnDriver(std::function<HttpResponse()> work, Respond respond) {
  sales->loop().Post([this, work = std::move(work), respond = std::move(respond)] {
    HttpResponse response;
    try {
      response = work();
    } catch (const std::exception& e) {  // nlohmann, std::regex...: never the whole service
      logging::Error("serve", "request failed", {{"reason", e.what()}});
      response = HttpResponse{
          500, "application/json; charset=utf-8", R"({"error":{"field":"service","rule":"internal error"}})", {}};
    }
    sales->Publish();
    if (response.status == 507) {
      const auto body = nlohmann::json::parse(response.body, nullptr, false);
      const std::string rule = body.is_object() ? body["error"].value("rule", "") : "";
      health->NoteStoreFailure("api", Status(StatusCode::kResourceExhausted, rule));
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

Status Service::Impl::OpenStore(const std::filesystem::path& dir) {
  BALCAO_ASSIGN_OR_RETURN(storage, Storage::Open(dir, setup.options.owner_wait_s, bank_side->clock(),
                                                 std::chrono::hours(24 * setup.config.webhook_retention_days)));
  setup.config.sandbox_autopay_s = setup.options.sandbox_autopay_s.value_or(0);
  // The bank's clock runs on the monotonic clock once measured: a wall clock set an hour ahead
  // does not end the cashier's session.
  doors.sessions = std::make_unique<Sessions>(bank_side->clock(), std::chrono::seconds(setup.config.session_idle_s));
  auto book = std::make_unique<SaleBook>((dir / "sales.idx").string());
  BALCAO_RETURN_IF_ERROR(book->Load());
  sales = std::make_unique<SaleDesk>(bank_side->bank(), storage->journal(), bank_side->clock(), std::move(book),
                                     kTickInterval, [this] { Tick(); });
  return OkStatus();
}

void Service::Impl::MakeDriver() {
  receipts =
      std::make_unique<ReceiptPrinter>(*sales, storage->journal(), storage->print_jobs(), bank_side->bank(),
                                       *setup.profile, ReceiptStore(), setup.printer_target, setup.config.nexo.print);
  counter = std::make_unique<RegisterCounter>(*sales, storage->registers(), storage->journal(), *receipts,
                                              bank_side->clock(), setup.config);
  sales->SetHooks(
      {.on_effect = [this](const std::string& sale_id, const checkout::Effect& effect) { OnEffect(sale_id, effect); },
       .stays_open = [this](const std::string& sale_id) { return counter->IsRegisterSale(sale_id); },
       .after_publish =
           [this] {
             counter->Settle();
             if (SandboxPayer* payer = bank_side->payer()) payer->Schedule(sales->book());
             // The hub's phone page of a session ends with its sale (docs/hub.md).
             if (events.hub_link)
               events.hub_link->EndPhoneSessions(
                   [this](const std::string& uuid) { return sales->book().AwaitingPhone(uuid).has_value(); });
           }});
  sales->driver().SetOutbox(&storage->outbox());
  sales->driver().OnNotSent([this] {
    if (reach) reach->monitor().ReportNotSent();
  });
  sales->driver().OnUnknownResolved(
      [this](checkout::EntityKind, bool found) { metrics->CountUnknownResolved("checkout", found); });
  events.intake = std::make_unique<checkout::Intake>(sales->driver(), bank_side->bank(), bank_side->clock());
  events.intake->SetAppliedEvents(&storage->applied_events());
  events.intake->SetLane(setup.config.settings.lane);
  events.intake->SetFirstWindowDays(setup.config.webhook_retention_days);  // what the record of applied events keeps
}

Status Service::Impl::Listen(const ListenerTls* listener_tls) {
  http::ServerOptions server_options;
  server_options.body_limit = 64 << 10;  // far above the API's bodies and the bank's webhook events
  server_options.response_headers = {{"Cache-Control", "no-store"}};
  if (listener_tls != nullptr) {
    server_options.tls_cert_pem = listener_tls->files.cert_pem;
    server_options.tls_key_pem = listener_tls->files.key_pem;
  }
  doors.server = std::make_unique<http::Server>(
      server_options, [this](HttpRequest request, Respond respond) { Handle(std::move(request), std::move(respond)); });
  const ServeOptions& o = setup.options;
  BALCAO_ASSIGN_OR_RETURN(setup.port, listener_tls != nullptr ? doors.server->ListenTls(o.address, *o.port)
                                                              : doors.server->Listen(o.address, *o.port));
  std::vector<std::string> names = setup.config.host_names;
  if (o.address != "0.0.0.0" && o.address != "::") names.push_back(o.address);
  doors.access = std::make_unique<AccessPolicy>(setup.port, names, setup.tls);
  doors.devices = std::make_unique<DeviceLinks>(setup.config.host_names, setup.port, setup.tls);
  return OkStatus();
}

Status Service::Impl::MakeBackgroundWork(const api::CallObserver& observe_bank) {
  BALCAO_ASSIGN_OR_RETURN(
      reach, BankReach::Make(doors.server->io(), storage->store(), storage->outbox(), bank_side->credentials_path(),
                             observe_bank, bank_side->shared_clock(), setup.config.connectivity));
  BALCAO_ASSIGN_OR_RETURN(offline_cards, OfflineCards::Open(setup.config, setup.options.data_dir, storage->store(),
                                                            *reach, *sales, storage->journal(), *receipts));
  reach->monitor().Subscribe([this](bool online) {
    reach->SetOnline(online);
    reach->drainer().SetOnline(online);
    logging::Info("serve", online ? "bank reachable" : "bank unreachable: offline");
    sales->loop().Post([this, online] { sales->driver().SetBankOnline(online); });
  });
  reach->drainer().OnLookupAnswered(
      [this](const offline::OutboxItem&, bool found) { metrics->CountUnknownResolved("outbox", found); });
  reach->drainer().OnSettled([this](const offline::OutboxItem& item) {
    if (item.request.sale_id.empty()) return;
    sales->loop().Post([this, id = item.request.sale_id] {
      auto sale = sales->driver().Reconcile(id);
      if (!sale.ok())
        logging::Warn("serve", "outbox outcome not applied", {{"sale", id}, {"reason", sale.status().message()}});
      sales->Touch(id);
      sales->Publish();
    });
  });
  return OkStatus();
}

void Service::Impl::StartThreads() {
  sales->loop().Start();
  if (SandboxPayer* payer = bank_side->payer()) payer->Start();
  doors.server->Start();
  if (doors.nexo) doors.nexo->Start();
  if (doors.tef_dial) doors.tef_dial->Start();
  reach->Start();
  receipts->Start();
}

namespace {
// The URL the box's webhook registers: the embedded sandbox delivers over loopback (a wildcard
// listener takes it too), without checking the certificate (docs/sandbox.md); with a hub, none:
// the hub holds the account's one webhook (docs/hub.md).
std::string OwnWebhookUrl(const Service::Impl& s) {
  if (s.events.hub_link) return "";
  if (!s.bank_side->sandbox()) return s.setup.config.webhook_url;
  return std::string(s.setup.tls ? "https" : "http") + "://127.0.0.1:" + std::to_string(s.setup.port) + kWebhookPath;
}
}  // namespace

void Service::Impl::LogStarted(const ListenerPlan& plan, const std::optional<ListenerTls>& tls) const {
  if (plan.insecure_lan)
    logging::Warn("serve",
                  "--insecure-lan: plain HTTP beyond loopback; PINs, session cookies and card numbers cross the "
                  "network in clear",
                  {{"address", setup.options.address}});
  if (tls)
    logging::Info("serve", tls->created ? "TLS: made a self-signed certificate" : "TLS certificate",
                  {{"certificate", tls->cert_path}, {"sha256", tls->fingerprint}});
  logging::Info(
      "serve", "listening",
      {{"url", (setup.tls ? "https://" : "http://") + setup.options.address + ":" + std::to_string(setup.port) + "/"},
       {"data_dir", setup.options.data_dir},
       {"bank", bank_side->base_url()},
       {"printer", setup.printer_target}});
}

StatusOr<std::unique_ptr<Service>> Service::Start(const ServeOptions& options) {
  auto impl = std::make_unique<Impl>();
  Impl& s = *impl;
  BALCAO_ASSIGN_OR_RETURN(s.metrics, ServiceMetrics::Create());
  // Every bank call of every client below (driver, intake, webhook key, drainer, probes).
  const api::CallObserver observe_bank = [metrics = s.metrics.get()](const api::CallRecord& call) {
    metrics->ObserveBankCall(call);
  };
  BALCAO_ASSIGN_OR_RETURN(s.setup.config, LoadServeConfig(options.config_path));
  BALCAO_ASSIGN_OR_RETURN(s.setup.options, ResolveServeOptions(options, s.setup.config));
  // SQLite's page caches (the box's store, and the embedded sandbox's 16 MB one) grow with the
  // day's databases: bounded together, serve's memory stays flat through a busy day
  // (docs/performance.md, "serve's memory over a day"). Soft: SQLite recycles cached pages.
  ::sqlite3_soft_heap_limit64(kSqliteHeapLimitBytes);
  if (!s.setup.config.log_file.empty()) BALCAO_RETURN_IF_ERROR(logging::SetFallbackLogFile(s.setup.config.log_file));
  if (!s.setup.config.log_level.empty()) logging::SetFallbackMinLevel(*logging::ParseLevel(s.setup.config.log_level));
  s.setup.profile = printer::FindProfile(s.setup.config.printer_profile);
  if (s.setup.profile == nullptr)
    return InvalidArgumentError("printer.profile: unknown printer profile '" + s.setup.config.printer_profile + "'");
  std::error_code ec;
  std::filesystem::create_directories(s.setup.options.data_dir, ec);
  if (ec)
    return FailedPreconditionError("cannot create the data dir " + s.setup.options.data_dir + ": " + ec.message());
  ::chmod(s.setup.options.data_dir.c_str(), 0700);
  const std::filesystem::path dir(s.setup.options.data_dir);
  // Every sale opened from now on carries the lane in its tags (old sales keep theirs).
  BALCAO_ASSIGN_OR_RETURN(
      s.setup.lane, ResolveLaneIdentity(s.setup.config.store_id, s.setup.config.terminal_id, s.setup.options.data_dir));
  s.setup.config.settings.lane = s.setup.lane.root();
  // Refused before anything starts: plain HTTP beyond loopback, a TLS file that does not load.
  BALCAO_ASSIGN_OR_RETURN(const ListenerPlan plan,
                          PlanListener(s.setup.options.address, s.setup.config, s.setup.options.insecure_lan));
  std::optional<ListenerTls> tls;
  if (plan.tls) {
    BALCAO_ASSIGN_OR_RETURN(
        tls, PrepareListenerTls(plan, s.setup.config, s.setup.options.address, s.setup.options.data_dir));
    s.setup.tls = true;
    s.setup.tls_fingerprint = tls->fingerprint;
  }
  s.setup.printer_target = !s.setup.options.printer.empty() ? s.setup.options.printer
                           : !s.setup.config.printer.empty()
                               ? s.setup.config.printer
                               : "file:" + std::filesystem::absolute(dir / "printer.bin").string();
  if (auto transport = printer::OpenTransport(s.setup.printer_target); !transport.ok())
    return InvalidArgumentError("--printer: " + transport.status().message());

  BALCAO_ASSIGN_OR_RETURN(
      s.bank_side, BankSide::Connect(dir, s.setup.config, observe_bank, s.setup.options.sandbox_autopay_s.value_or(0)));
  BALCAO_RETURN_IF_ERROR(s.OpenStore(dir));
  s.MakeDriver();
  BALCAO_RETURN_IF_ERROR(s.Listen(tls ? &*tls : nullptr));
  BALCAO_RETURN_IF_ERROR(s.MakeBackgroundWork(observe_bank));
  BALCAO_RETURN_IF_ERROR(s.StartHubLink());
  s.events.webhook = std::make_unique<WebhookRegistration>(s.bank_side->bank(), s.bank_side->clock(), OwnWebhookUrl(s),
                                                           s.bank_side->sandbox() != nullptr);
  s.health = std::make_unique<Health>(s.setup.config, s.setup.options.data_dir, s.storage->store(), s.storage->outbox(),
                                      s.storage->print_jobs(), s.sales->book(), s.reach->monitor(),
                                      s.bank_side->clock(), *s.events.webhook, *s.metrics);
  // Resume first: the open sales must not wait for a bank that may be unreachable. A real
  // bank's webhook is registered by the first tick (retried with the catch-up until it is).
  s.sales->loop().Post([&s] {
    s.health->CheckHealth();  // the disk's free space before the first sale
    s.Resume();
    if (s.bank_side->sandbox()) s.events.webhook->Ensure();  // in-process: before any sale the API opens
  });
  BALCAO_RETURN_IF_ERROR(s.StartNexo(tls ? &*tls : nullptr));
  BALCAO_RETURN_IF_ERROR(s.OpenTefDial());
  s.StartThreads();
  s.LogStarted(plan, tls);
  return std::unique_ptr<Service>(new Service(std::move(impl)));
}

unsigned short Service::port() const { return impl_->setup.port; }
unsigned short Service::nexo_port() const { return impl_->doors.nexo_port; }
const std::string& Service::data_dir() const { return impl_->setup.options.data_dir; }
const std::string& Service::address() const { return impl_->setup.options.address; }
const std::string& Service::tef_dial_dir() const { return impl_->doors.tef_dial_dir; }

std::string Service::url() const {
  const std::string& address = impl_->setup.options.address;
  const std::string host = address.find(':') != std::string::npos ? "[" + address + "]" : address;
  return (impl_->setup.tls ? "https://" : "http://") + host + ":" + std::to_string(impl_->setup.port) + "/";
}

const std::string& Service::tls_fingerprint() const { return impl_->setup.tls_fingerprint; }

StoreIdentity Service::Impl::ReceiptStore() const {
  StoreIdentity store = setup.config.store;
  store.merchant.terminal_id = setup.lane.terminal_id;  // the lane the bank's tags and settlement name
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
  const sandbox::Sandbox* sandbox = impl_->bank_side->sandbox();
  return sandbox ? "http://127.0.0.1:" + std::to_string(sandbox->port()) : "";
}

void Service::Stop() {
  if (!impl_) return;
  Impl& s = *impl_;
  s.events.stopping = true;
  if (s.doors.nexo) s.doors.nexo->Stop();
  if (s.doors.tef_dial) s.doors.tef_dial->Stop();    // before the driver's loop: its counter posts there
  if (s.events.hub_link) s.events.hub_link->Stop();  // likewise: it waits on the loop for each event
  if (s.sales) s.sales->loop().Stop();               // finishes the driver's task in progress
  if (s.bank_side && s.bank_side->payer()) s.bank_side->payer()->Stop();
  if (s.reach) s.reach->Stop();
  if (s.receipts) s.receipts->Stop();
  if (s.doors.server) s.doors.server->Stop();
  // The long polls held answer now: none keeps a connection past its server.
  if (s.sales) s.sales->watch().Expire(SaleWatch::Clock::time_point::max());
  s.doors.nexo.reset();
  s.offline_cards.reset();
  s.reach.reset();
  s.doors.server.reset();
  s.events.intake.reset();
  s.counter.reset();
  s.receipts.reset();
  s.sales.reset();
  if (s.bank_side) s.bank_side->StopSandbox();
  impl_.reset();
}

}  // namespace balcao::terminal::service
