// The Engine (engine_core.h): the transactions requests, jobs and histories run in, the
// sandbox clock and its due jobs, the principals, and the webhook deliveries' bookkeeping.
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "sandbox/internal/engine_core.h"
#include "sandbox/internal/family.h"

namespace balcao::sandbox::internal {
namespace {

// When a failed webhook delivery is tried again: minutes after the 1st, 2nd and 3rd failure.
constexpr std::int64_t kRetryMinutes[] = {5, 30, 120};

}  // namespace

Engine::Engine(EngineOptions options, std::unique_ptr<EntityStore> store, const api::PrivateKey& key)
    : options_(std::move(options)), store_(std::move(store)), signing_key_(key), rng_(std::random_device{}()) {}

StatusOr<std::unique_ptr<Engine>> Engine::Open(EngineOptions options, const api::PrivateKey& signing_key) {
  BALCAO_ASSIGN_OR_RETURN(auto store, EntityStore::Open(options.db_path));
  const auto random_seed = options.random_seed;
  std::unique_ptr<Engine> engine(new Engine(std::move(options), std::move(store), signing_key));
  if (random_seed) engine->rng_.seed(*random_seed);
  BALCAO_RETURN_IF_ERROR(engine->LoadState());
  return engine;
}

Status Engine::LoadState() {
  BALCAO_ASSIGN_OR_RETURN(auto offset, store_->GetMeta("clock_offset"));
  if (offset) clock_offset_ = std::stoll(*offset);
  BALCAO_ASSIGN_OR_RETURN(auto created, store_->GetMeta("public_key_created"));
  if (!created) {
    created = FormatTimestamp(SystemClock::Instance().Now());
    BALCAO_RETURN_IF_ERROR(store_->SetMeta("public_key_created", *created));
  }
  signing_key_created_ = *created;
  BALCAO_ASSIGN_OR_RETURN(auto principals, store_->Principals());
  for (auto& p : principals) {
    auto key = api::PublicKey::FromPem(p.public_key_pem);
    if (key.ok()) principals_.emplace(p.access_id, RegisteredKey{p, *key});
  }
  return OkStatus();
}

UnixMicros Engine::Now() const {
  std::lock_guard lock(mu_);
  return SystemClock::Instance().Now() + clock_offset_;
}

std::int64_t Engine::Fee(const std::string& kind) const {
  auto it = options_.fees.find(kind);
  return it == options_.fees.end() ? 0 : it->second;
}

EntityStore& Engine::store() {
  if (!mu_.held_here()) {
    std::fprintf(stderr, "sandbox: bug: the entity store was used without the engine's lock\n");
    std::abort();
  }
  return *store_;
}

StatusOr<std::optional<std::string>> Engine::GetMeta(std::string_view key) {
  std::lock_guard lock(mu_);
  return store_->GetMeta(key);
}

Status Engine::SetMeta(std::string_view key, std::string_view value) {
  std::lock_guard lock(mu_);
  return store_->SetMeta(key, value);
}

std::string Engine::NewId() {
  // Ids look like the bank's (16 decimal digits) and never repeat: a persisted counter
  // spread by a random offset smaller than the stride.
  constexpr std::int64_t kStride = 7919;
  std::lock_guard lock(mu_);  // the counter, the generator and the store (a simulation calls it bare)
  if (id_counter_ < 0) {
    auto stored = store_->GetMeta("counter:id");
    if (!stored.ok()) {
      // The transaction fails (NoteStoreFailure): this id is never stored, and the counter is
      // read again next time.
      NoteStoreFailure(stored.status());
      return std::to_string(4'503'599'627'370'496LL + static_cast<std::int64_t>(rng_() % kStride));
    }
    id_counter_ = *stored ? std::stoll(**stored) : 0;
  }
  const std::int64_t n = ++id_counter_;
  id_counter_dirty_ = true;
  return std::to_string(4'503'599'627'370'496LL + n * kStride + static_cast<std::int64_t>(rng_() % kStride));
}

std::string Engine::NewUuid() {
  static const char* kHex = "0123456789abcdef";
  std::lock_guard lock(mu_);  // the generator
  std::string out(32, '0');
  std::uint64_t a = rng_(), b = rng_();
  for (int i = 0; i < 16; ++i) {
    out[i] = kHex[(a >> (i * 4)) & 15];
    out[16 + i] = kHex[(b >> (i * 4)) & 15];
  }
  return out;
}

Status Engine::RunLocked(const Caller& caller, Lang lang, UnixMicros now, Problems& problems,
                         const std::function<void(Context&)>& fn) {
  sqlite::Txn txn = store_->Write();
  BALCAO_RETURN_IF_ERROR(txn.status());
  new_deliveries_ = false;
  store_failure_ = OkStatus();
  Context ctx(*this, caller, lang, now);
  try {
    fn(ctx);
  } catch (const std::exception& e) {
    return InternalError(std::string("sandbox fault: ") + e.what());  // txn rolls back
  }
  if (store_failure_.ok() && !problems.empty()) return OkStatus();  // refused: txn rolls back
  return FinishTransaction(txn, OkStatus());
}

Status Engine::FinishTransaction(sqlite::Txn& txn, Status outcome) {
  if (outcome.ok() && !store_failure_.ok()) outcome = InternalError("sandbox fault: " + store_failure_.message());
  if (outcome.ok() && id_counter_dirty_) {
    outcome = store_->SetMeta("counter:id", std::to_string(id_counter_));
    id_counter_dirty_ = false;
  }
  if (outcome.ok()) outcome = txn.Commit();
  return outcome;  // not committed: the caller's txn rolls back as it goes out of scope
}

Status Engine::Run(const Caller& caller, Lang lang, Problems& problems, const std::function<void(Context&)>& fn) {
  bool signal = false;
  Status st;
  {
    std::lock_guard lock(mu_);
    st = RunLocked(caller, lang, SystemClock::Instance().Now() + clock_offset_, problems, fn);
    signal = st.ok() && problems.empty() && new_deliveries_;
  }
  if (signal) Signal();
  return st;
}

void Engine::Signal() {
  if (delivery_signal_) delivery_signal_();
}

Status Engine::SetClock(UnixMicros t) {
  {
    std::lock_guard lock(mu_);
    const UnixMicros system_now = SystemClock::Instance().Now();
    if (t < system_now + clock_offset_) return InvalidArgumentError("the sandbox clock only moves forward");
    BALCAO_RETURN_IF_ERROR(store_->SetMeta("clock_offset", std::to_string(t - system_now)));
    clock_offset_ = t - system_now;
  }
  return RunDueJobs();
}

Status Engine::RunDueJobs() {
  bool signal = false;
  Status st;
  {
    std::lock_guard lock(mu_);
    bool any = false;
    while (true) {
      BALCAO_ASSIGN_OR_RETURN(auto job, store_->NextDueJob(SystemClock::Instance().Now() + clock_offset_));
      if (!job) break;
      const JobFn* fn = Registry::Instance().FindJob(job->kind);
      Caller caller{Caller::Kind::kSimulation, "sandbox", "", job->scope};
      Problems problems;
      Json payload = Json::parse(job->payload, nullptr, false);
      st = RunLocked(caller, Lang::kEnUs, job->due, problems, [&](Context& ctx) {
        ctx.Checked(ctx.engine().store().DeleteJob(job->id));
        if (fn) (*fn)(ctx, payload);
      });
      any = any || new_deliveries_;
      if (!st.ok() || !problems.empty()) {
        // A job that cannot run must not block the queue: drop it and say why.
        std::fprintf(stderr, "sandbox: job %s dropped: %s\n", job->kind.c_str(),
                     st.ok() ? problems.front().en.c_str() : st.message().c_str());
        BALCAO_RETURN_IF_ERROR(store_->DeleteJob(job->id));
      }
    }
    signal = any;
  }
  if (signal) Signal();
  return st;
}

Status Engine::RunHistory(const std::function<Status()>& fn) {
  std::lock_guard lock(mu_);
  sqlite::Txn txn = store_->Write();
  BALCAO_RETURN_IF_ERROR(txn.status());
  store_failure_ = OkStatus();
  Status st;
  try {
    st = fn();
  } catch (const std::exception& e) {
    st = InternalError(std::string("sandbox history: ") + e.what());
  }
  st = FinishTransaction(txn, std::move(st));
  if (!st.ok()) {
    id_counter_ = -1;  // re-read from the database: the rolled-back ids were never stored
    id_counter_dirty_ = false;
  }
  return st;
}

Status Engine::RunJobsDueBy(UnixMicros t) {
  while (true) {
    BALCAO_ASSIGN_OR_RETURN(auto job, store_->NextDueJob(t));
    if (!job) break;
    BALCAO_RETURN_IF_ERROR(store_->DeleteJob(job->id));
    const JobFn* fn = Registry::Instance().FindJob(job->kind);
    if (!fn) continue;
    Context ctx(*this, Caller{Caller::Kind::kSimulation, "sandbox", "", job->scope}, Lang::kEnUs, job->due);
    ctx.set_history(true);
    (*fn)(ctx, Json::parse(job->payload, nullptr, false));
  }
  return OkStatus();
}

std::optional<RegisteredKey> Engine::FindPrincipal(const std::string& access_id) const {
  std::lock_guard lock(mu_);
  auto it = principals_.find(access_id);
  if (it == principals_.end()) return std::nullopt;
  return it->second;
}

Status Engine::RegisterPrincipal(const Principal& p) {
  BALCAO_ASSIGN_OR_RETURN(auto key, api::PublicKey::FromPem(p.public_key_pem));
  std::lock_guard lock(mu_);
  BALCAO_RETURN_IF_ERROR(store_->PutPrincipal(p));
  principals_.insert_or_assign(p.access_id, RegisteredKey{p, key});
  return OkStatus();
}

StatusOr<std::vector<WebhookDelivery>> Engine::DueDeliveries(int limit) {
  std::lock_guard lock(mu_);
  return store_->DueDeliveries(SystemClock::Instance().Now() + clock_offset_, limit);
}

StatusOr<std::vector<WebhookDelivery>> Engine::Deliveries(int limit) {
  std::lock_guard lock(mu_);
  return store_->Deliveries(limit);
}

void Engine::FinishDelivery(WebhookDelivery d, int http_status, const std::string& error) {
  std::lock_guard lock(mu_);
  Problems problems;
  Caller caller{Caller::Kind::kSimulation, "sandbox", "", d.scope};
  Status st =
      RunLocked(caller, Lang::kEnUs, SystemClock::Instance().Now() + clock_offset_, problems, [&](Context& ctx) {
        d.last_status = http_status;
        d.last_error = error;
        auto event = ctx.Find("event", d.event_id);
        if (http_status == 200) {
          d.state = "delivered";
          d.attempt += 1;
          if (event) {
            event->doc["isDelivered"] = true;
            ctx.Save(*event);
          }
        } else {
          ctx.Insert("event/attempt", {{"code", http_status ? std::to_string(http_status) : "connectionFailed"},
                                       {"message", error},
                                       {"webhookId", d.webhook_id},
                                       {"eventId", d.event_id}});
          d.attempt += 1;
          if (d.attempt <= 3) {
            d.due = ctx.Now() + kRetryMinutes[d.attempt - 1] * 60 * kMicrosPerSecond;
          } else {
            d.state = "failed";
          }
        }
        ctx.Checked(ctx.engine().store().UpdateDelivery(d));
      });
  if (!st.ok())
    std::fprintf(stderr, "sandbox: recording delivery %lld failed: %s\n", static_cast<long long>(d.id),
                 st.message().c_str());
}

Status Engine::Reset() {
  std::lock_guard lock(mu_);
  return store_->Clear();
}

StatusOr<std::optional<std::string>> Engine::ScopeOf(std::string_view resource, std::string_view id) {
  std::lock_guard lock(mu_);
  return store_->ScopeOf(resource, id);
}

StatusOr<std::optional<std::string>> Engine::ScopeOfKey(std::string_view resource, std::string_view key,
                                                        std::string_view value) {
  std::lock_guard lock(mu_);
  return store_->ScopeOfKey(resource, key, value);
}

std::int64_t Engine::CountForTest(std::string_view resource) {
  std::lock_guard lock(mu_);
  const StatusOr<std::int64_t> count = store_->Count(resource);
  return count.ok() ? *count : -1;
}

}  // namespace balcao::sandbox::internal
