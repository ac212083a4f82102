#include "sandbox/sandbox.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "api/crypto.h"
#include "http/tls_cert.h"
#include "sandbox/internal/browser_purchase.h"
#include "sandbox/internal/dispatcher.h"
#include "sandbox/internal/seed.h"
#include "sandbox/internal/webhook_sender.h"

namespace balcao::sandbox {
namespace {

using internal::Json;

Status WritePrivateFile(const std::string& path, const std::string& content) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return UnavailableError("cannot write " + path);
  ::fchmod(fd, 0600);
  const bool ok = ::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size());
  ::close(fd);
  return ok ? OkStatus() : UnavailableError("cannot write " + path);
}

Status WriteFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  return out ? OkStatus() : UnavailableError("cannot write " + path);
}

// The key in `path`, or a new one written there (mode 0600).
StatusOr<api::PrivateKey> LoadOrCreateKey(const std::string& path) {
  if (::access(path.c_str(), F_OK) == 0) return api::PrivateKey::FromFile(path);
  api::PrivateKey key = api::PrivateKey::Generate();
  BALCAO_RETURN_IF_ERROR(WritePrivateFile(path, key.ToPem()));
  return key;
}

}  // namespace

struct Sandbox::Impl {
  SandboxOptions options;
  std::string data_dir;
  bool own_data_dir = false;  // a temp dir we created: removed on destruction
  SandboxCredentials credentials;
  std::unique_ptr<internal::Engine> engine;
  internal::FaultScript faults;
  internal::PurchaseRequestLog purchase_requests;
  std::unique_ptr<internal::WebhookSender> sender;
  internal::Services services;
  std::unique_ptr<http::Server> server;
  unsigned short port = 0, https_port = 0;

  std::mutex tick_mu;
  std::condition_variable tick_cv;
  bool stopping = false;
  bool wake = false;
  std::thread ticker;
  std::string seed_report;

  // Due jobs run here; their webhooks go out from the sender's workers.
  void Flush() {
    engine->RunDueJobs().IgnoreError();  // a job that fails is reported and dropped inside RunDueJobs
    sender->Wake();
  }
  void FlushAndDeliver() {
    engine->RunDueJobs().IgnoreError();  // a job that fails is reported and dropped inside RunDueJobs
    sender->DeliverDueAndWait();
  }

  void TickLoop() {
    std::unique_lock lock(tick_mu);
    while (!stopping) {
      tick_cv.wait_for(lock, std::chrono::milliseconds(options.tick_millis), [&] { return stopping || wake; });
      if (stopping) break;
      wake = false;
      lock.unlock();
      Flush();
      lock.lock();
    }
  }

  // The seeded history, ending at the start of the sandbox clock's current UTC day, so that
  // the same seed gives the same documents all day long.
  Status Seed(std::uint64_t seed) {
    constexpr UnixMicros kDay = 86'400 * kMicrosPerSecond;
    internal::SeedPlan plan;
    plan.seed = seed;
    plan.until = engine->Now() / kDay * kDay;
    plan.organization_id = credentials.organization_id;
    plan.workspace_id = credentials.workspace_id;
    plan.project_id = credentials.project_id;
    plan.center_id = credentials.center_id;
    const auto started = std::chrono::steady_clock::now();
    BALCAO_ASSIGN_OR_RETURN(auto result, internal::SeedHistory(*engine, plan));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    BALCAO_RETURN_IF_ERROR(engine->SetMeta("seed_card_id", result.card_id));
    char text[160];
    std::snprintf(text, sizeof text, "seeded %lld entities of 60 days from seed %llu in %.1f s",
                  static_cast<long long>(result.entities), static_cast<unsigned long long>(seed), seconds);
    seed_report = text;
    return OkStatus();
  }

  // A metadata value EnsureDemo wrote.
  StatusOr<std::string> StoredMeta(const std::string& key) {
    BALCAO_ASSIGN_OR_RETURN(const std::optional<std::string> value, engine->GetMeta(key));
    if (!value) return InternalError("sandbox database: no " + key + " after the demo setup");
    return *value;
  }

  // First start: demo organization + workspace + project with their keys.
  Status EnsureDemo(const api::PrivateKey& project_key, const api::PrivateKey& org_key) {
    BALCAO_ASSIGN_OR_RETURN(const std::optional<std::string> org, engine->GetMeta("demo_organization_id"));
    if (!org) {
      internal::Problems problems;
      std::string org_id = engine->NewId(), project_id = engine->NewId();
      internal::Caller caller{internal::Caller::Kind::kSimulation, "sandbox", org_id, ""};
      std::string workspace_id;
      BALCAO_RETURN_IF_ERROR(engine->Run(caller, internal::Lang::kEnUs, problems, [&](internal::Context& ctx) {
        auto ws = ctx.Insert("workspace", {{"name", "Demo Store"},
                                           {"username", "demo-store"},
                                           {"organizationId", org_id},
                                           {"allowedTaxIds", Json::array()},
                                           {"pictureUrl", ""},
                                           {"status", "active"}});
        workspace_id = ws.id;
        internal::EntityStore& store = ctx.engine().store();
        ctx.Checked(store.SetMeta("demo_organization_id", org_id));
        ctx.Checked(store.SetMeta("demo_workspace_id", workspace_id));
        ctx.Checked(store.SetMeta("demo_project_id", project_id));
      }));
      BALCAO_RETURN_IF_ERROR(
          engine->RegisterPrincipal({"organization/" + org_id, org_id, "", org_key.public_key().ToPem()}));
      BALCAO_RETURN_IF_ERROR(
          engine->RegisterPrincipal({"project/" + project_id, org_id, workspace_id, project_key.public_key().ToPem()}));
    }
    BALCAO_ASSIGN_OR_RETURN(const std::optional<std::string> center, engine->GetMeta("demo_center_id"));
    if (!center) {
      // The cost center payment requests name (credentials.json `centerId`); databases made
      // before it existed get one on their next start.
      internal::Problems problems;
      internal::Caller caller{internal::Caller::Kind::kSimulation, "sandbox", "", ""};
      BALCAO_RETURN_IF_ERROR(engine->Run(caller, internal::Lang::kEnUs, problems, [&](internal::Context& ctx) {
        ctx.Checked(ctx.engine().store().SetMeta("demo_center_id", ctx.NewId()));
      }));
    }
    BALCAO_ASSIGN_OR_RETURN(credentials.center_id, StoredMeta("demo_center_id"));
    BALCAO_ASSIGN_OR_RETURN(credentials.organization_id, StoredMeta("demo_organization_id"));
    BALCAO_ASSIGN_OR_RETURN(credentials.workspace_id, StoredMeta("demo_workspace_id"));
    BALCAO_ASSIGN_OR_RETURN(credentials.project_id, StoredMeta("demo_project_id"));
    // A key file replaced on disk (e.g. a fresh data dir over an old database) is re-registered.
    BALCAO_RETURN_IF_ERROR(engine->RegisterPrincipal({"organization/" + credentials.organization_id,
                                                      credentials.organization_id, "", org_key.public_key().ToPem()}));
    return engine->RegisterPrincipal({"project/" + credentials.project_id, credentials.organization_id,
                                      credentials.workspace_id, project_key.public_key().ToPem()});
  }
};

Sandbox::Sandbox(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Sandbox::~Sandbox() {
  Stop();
  if (impl_ && impl_->own_data_dir) {
    const std::string dir = impl_->data_dir;
    impl_.reset();  // closes the database before its files go
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
}

namespace {

// The data dir: the given one (made if missing) or a temporary one the sandbox owns, as an
// absolute path without a trailing slash.
Status PrepareDataDir(Sandbox::Impl& impl) {
  if (impl.data_dir.empty()) {
    std::string tmpl = "/tmp/balcao-sandbox-XXXXXX";
    if (!::mkdtemp(tmpl.data())) return UnavailableError("cannot create a temporary data dir");
    impl.data_dir = tmpl;
    impl.own_data_dir = true;
  }
  ::mkdir(impl.data_dir.c_str(), 0700);
  // credentials.json names files by absolute path, so that whoever reads it, from whatever
  // directory, opens the same files (docs/api.md, "The credentials file").
  std::error_code absolute_error;
  const auto absolute_dir = std::filesystem::absolute(impl.data_dir, absolute_error);
  if (absolute_error) return UnavailableError("data dir " + impl.data_dir + ": " + absolute_error.message());
  impl.data_dir = absolute_dir.lexically_normal().string();
  if (impl.data_dir.size() > 1 && impl.data_dir.back() == '/') impl.data_dir.pop_back();
  struct stat st {};
  if (::stat(impl.data_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return UnavailableError("data dir " + impl.data_dir + " is not a usable directory");
  return OkStatus();
}

// The HTTP listener (and the HTTPS one, with a self-signed certificate kept in the data dir)
// serving the dispatcher; fills the ports and the credentials' TLS certificate path.
Status Listen(Sandbox::Impl& impl, const SandboxOptions& options) {
  Sandbox::Impl* raw = &impl;
  const std::string& dir = impl.data_dir;
  auto& cred = impl.credentials;
  http::ServerOptions server_options;
  server_options.threads = options.threads;
  server_options.server_name = "balcao-sandbox";
  server_options.refusal = internal::RefusalResponse;
  if (options.https) {
    http::SelfSignedOptions cert;
    cert.common_name = "balcao sandbox";
    cert.dns_names = {"localhost"};
    cert.ip_addresses = {"127.0.0.1"};
    cert.valid_days = 3650;  // a developer's machine: no renewal to think of
    BALCAO_ASSIGN_OR_RETURN(auto tls, http::LoadOrCreateSelfSigned(dir + "/tls-cert.pem", dir + "/tls-key.pem", cert));
    server_options.tls_cert_pem = tls.cert_pem;
    server_options.tls_key_pem = tls.key_pem;
    cred.tls_cert_path = dir + "/tls-cert.pem";
  }
  impl.server = std::make_unique<http::Server>(server_options, http::Synchronous([raw](internal::HttpRequest& req) {
                                                 return internal::Dispatch(raw->services, req);
                                               }));
  BALCAO_ASSIGN_OR_RETURN(impl.port, impl.server->Listen("127.0.0.1", options.port));
  if (options.https) {
    BALCAO_ASSIGN_OR_RETURN(impl.https_port, impl.server->ListenTls("127.0.0.1", options.https_port));
  }
  return OkStatus();
}

// credentials.json: what a client needs to reach this sandbox (docs/api.md, "The credentials file").
Status WriteCredentialsFile(const Sandbox::Impl& impl) {
  const auto& cred = impl.credentials;
  Json file = {{"projectId", cred.project_id},
               {"organizationId", cred.organization_id},
               {"workspaceId", cred.workspace_id},
               {"privateKeyPath", cred.private_key_path},
               {"organizationPrivateKeyPath", cred.organization_private_key_path},
               {"baseUrl", cred.base_url},
               {"httpsUrl", cred.https_url},
               {"tlsCertPath", cred.tls_cert_path},
               {"centerId", cred.center_id},
               {"cardId", cred.card_id},
               {"simulationUrl", "http://127.0.0.1:" + std::to_string(impl.port) + "/sandbox"}};
  return WriteFile(cred.credentials_path, file.dump(2) + "\n");
}

}  // namespace

StatusOr<std::unique_ptr<Sandbox>> Sandbox::Start(SandboxOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->data_dir = options.data_dir;
  BALCAO_RETURN_IF_ERROR(PrepareDataDir(*impl));
  const std::string& dir = impl->data_dir;
  auto& cred = impl->credentials;
  cred.private_key_path = dir + "/project-private-key.pem";
  cred.organization_private_key_path = dir + "/organization-private-key.pem";
  cred.credentials_path = dir + "/credentials.json";
  BALCAO_ASSIGN_OR_RETURN(auto project_key, LoadOrCreateKey(cred.private_key_path));
  BALCAO_ASSIGN_OR_RETURN(auto org_key, LoadOrCreateKey(cred.organization_private_key_path));
  BALCAO_ASSIGN_OR_RETURN(auto webhook_key, LoadOrCreateKey(dir + "/sandbox-webhook-private-key.pem"));
  cred.project_private_key_pem = project_key.ToPem();
  cred.organization_private_key_pem = org_key.ToPem();

  internal::EngineOptions engine_options;
  engine_options.db_path = options.db.empty() ? dir + "/sandbox.db" : options.db;
  engine_options.access_time_window = static_cast<UnixMicros>(options.access_time_window_seconds) * kMicrosPerSecond;
  engine_options.random_seed = options.seed;
  engine_options.undocumented_subscriptions = options.undocumented_subscriptions;
  BALCAO_ASSIGN_OR_RETURN(impl->engine, internal::Engine::Open(engine_options, webhook_key));
  BALCAO_RETURN_IF_ERROR(impl->EnsureDemo(project_key, org_key));

  Impl* raw = impl.get();
  impl->services.engine = impl->engine.get();
  impl->services.faults = &impl->faults;
  impl->services.purchase_requests = &impl->purchase_requests;
  impl->services.flush_deliveries = [raw] { raw->Flush(); };
  impl->services.flush_and_deliver = [raw] { raw->FlushAndDeliver(); };
  impl->services.demo_organization_id = cred.organization_id;
  impl->services.demo_workspace_id = cred.workspace_id;
  impl->services.latency = options.latency;

  BALCAO_RETURN_IF_ERROR(Listen(*impl, options));
  impl->engine->set_public_base_url("http://127.0.0.1:" + std::to_string(impl->port));
  // Seeded after the ports are known: the history's public links name them.
  BALCAO_ASSIGN_OR_RETURN(const std::optional<std::string> seeded, impl->engine->GetMeta("seed"));
  if (options.seed && !seeded) BALCAO_RETURN_IF_ERROR(impl->Seed(*options.seed));
  BALCAO_ASSIGN_OR_RETURN(const std::optional<std::string> card_id, impl->engine->GetMeta("seed_card_id"));
  cred.card_id = card_id.value_or("");
  cred.base_url = "http://127.0.0.1:" + std::to_string(impl->port) + "/v2";
  if (options.https) cred.https_url = "https://127.0.0.1:" + std::to_string(impl->https_port) + "/v2";

  BALCAO_RETURN_IF_ERROR(WriteCredentialsFile(*impl));

  impl->engine->set_delivery_signal([raw] {
    std::lock_guard lock(raw->tick_mu);
    raw->wake = true;
    raw->tick_cv.notify_one();
  });
  // The threads start last, once the state they share is complete: the sender's workers poll the
  // engine as soon as they run, and nothing above takes the engine's lock for what it sets.
  impl->sender = std::make_unique<internal::WebhookSender>(*impl->engine);
  impl->server->Start();
  impl->ticker = std::thread([raw] { raw->TickLoop(); });
  return std::unique_ptr<Sandbox>(new Sandbox(std::move(impl)));
}

void Sandbox::Stop() {
  if (!impl_) return;
  {
    std::lock_guard lock(impl_->tick_mu);
    impl_->stopping = true;
    impl_->tick_cv.notify_all();
  }
  if (impl_->ticker.joinable()) impl_->ticker.join();
  if (impl_->server) impl_->server->Stop();
  if (impl_->sender) impl_->sender->Stop();  // attempts in flight end within their timeout
}

unsigned short Sandbox::port() const { return impl_->port; }
unsigned short Sandbox::https_port() const { return impl_->https_port; }
const SandboxCredentials& Sandbox::credentials() const { return impl_->credentials; }
const std::string& Sandbox::data_dir() const { return impl_->data_dir; }
const std::string& Sandbox::seed_report() const { return impl_->seed_report; }
std::string Sandbox::webhook_public_key_pem() const { return impl_->engine->signing_key().public_key().ToPem(); }
void Sandbox::Flush() { impl_->FlushAndDeliver(); }
std::int64_t Sandbox::CountForTest(const std::string& resource) const { return impl_->engine->CountForTest(resource); }

}  // namespace balcao::sandbox
