#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "sandbox/internal/engine_core.h"
#include "sandbox/internal/family.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {
namespace {

std::string Pascal(std::string_view kebab) {
  std::string out;
  bool up = true;
  for (char c : kebab) {
    if (c == '-' || c == '/') {
      up = true;
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return out;
}

// "invoice/log" -> ("invoice", true)
std::pair<std::string_view, bool> SplitLogResource(std::string_view resource) {
  constexpr std::string_view kLog = "/log";
  if (resource.size() > kLog.size() && resource.substr(resource.size() - kLog.size()) == kLog)
    return {resource.substr(0, resource.size() - kLog.size()), true};
  return {resource, false};
}

bool HasUpdatedField(std::string_view resource) {
  return !SplitLogResource(resource).second && resource != "transaction" && resource != "event" &&
         resource != "event/attempt";
}

void AddValues(std::vector<IndexKey>& keys, const std::string& name, const Json& v) {
  if (v.is_array()) {
    for (const auto& item : v) AddValues(keys, name, item);
  } else if (v.is_string()) {
    keys.emplace_back(name, name == "taxId" ? TaxIdDigits(v.get<std::string>()) : v.get<std::string>());
  } else if (v.is_boolean()) {
    keys.emplace_back(name, v.get<bool>() ? "true" : "false");
  } else if (v.is_number_integer()) {
    keys.emplace_back(name, std::to_string(v.get<std::int64_t>()));
  }
}

constexpr std::int64_t kRetryMinutes[] = {5, 30, 120};

}  // namespace

std::string Entity::status() const {
  auto it = doc.find("status");
  return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Problem MakeProblem(std::string code, std::string en, std::string pt) {
  return Problem{std::move(code), std::move(en), std::move(pt)};
}

Problem NotFound(std::string_view resource, std::string_view id) {
  auto [base, is_log] = SplitLogResource(resource);
  std::string code;
  if (const Family* f = Registry::Instance().Find(base); f && !f->not_found_code.empty()) {
    code = f->not_found_code;
  } else if (const api::ResourceSpec* spec = api::FindResource(base)) {
    code = "invalid" + Pascal(spec->single_key);
  } else {
    code = "invalid" + Pascal(base);
  }
  if (is_log) code += "Log";
  std::string what = std::string(resource);
  return MakeProblem(code, what + " with id '" + std::string(id) + "' not found in this workspace.",
                     what + " com id '" + std::string(id) + "' não encontrado neste workspace.");
}

std::vector<std::string> SplitList(std::string_view value) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= value.size()) {
    std::size_t comma = value.find(',', start);
    if (comma == std::string_view::npos) comma = value.size();
    if (comma > start) out.emplace_back(value.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

std::vector<std::string_view> ExtraLogFilters(std::string_view resource) {
  // API documentation, part 2: "GET /v2/invoice-pull-subscription/log: log list parameters
  // plus subscriptionIds, tags".
  if (resource == "invoice-pull-subscription") return {"tags"};
  return {};
}

std::vector<IndexKey> IndexKeys(std::string_view resource, const Json& doc) {
  std::vector<IndexKey> keys;
  if (!doc.is_object()) return keys;
  auto [base, is_log] = SplitLogResource(resource);
  const api::ResourceSpec* spec = api::FindResource(base);
  if (is_log) {
    if (auto t = doc.find("type"); t != doc.end()) AddValues(keys, "types", *t);
    if (spec && !spec->log_id_filter.empty()) {
      auto ent = doc.find(std::string(spec->log_entity_key));
      if (ent != doc.end() && ent->is_object() && ent->contains("id"))
        AddValues(keys, std::string(spec->log_id_filter), (*ent)["id"]);
      for (std::string_view filter : ExtraLogFilters(base))
        if (ent != doc.end() && ent->is_object() && ent->contains(std::string(filter)))
          AddValues(keys, std::string(filter), (*ent)[std::string(filter)]);
    }
    return keys;
  }
  for (const char* always : {"uuid", "externalId"})
    if (auto it = doc.find(always); it != doc.end()) AddValues(keys, always, *it);
  if (auto it = doc.find("tags"); it != doc.end()) AddValues(keys, "tags", *it);
  if (!spec) return keys;
  static const std::vector<std::string_view> kGeneric = {"after", "before", "fields", "ids",   "status",
                                                         "sort",  "expand", "tags",   "limit", "cursor"};
  for (std::string_view filter : spec->filters) {
    if (std::find(kGeneric.begin(), kGeneric.end(), filter) != kGeneric.end()) continue;
    std::string name(filter);
    auto it = doc.find(name);
    if (it == doc.end() && name.size() > 1 && name.back() == 's') it = doc.find(name.substr(0, name.size() - 1));
    // A resource's own ids under its own name (split-receiver's receiverIds) match its id.
    if (it == doc.end() && name == std::string(spec->single_key) + "Ids") it = doc.find("id");
    if (it != doc.end()) AddValues(keys, name, *it);
  }
  // Event attempts and events are looked up by their ids in the other direction too.
  for (const char* ref : {"eventId", "webhookId"})
    if (auto it = doc.find(ref); it != doc.end()) AddValues(keys, std::string(ref) + "s", *it);
  return keys;
}

// ---------------------------------------------------------------------------------------
// Context

Context::Context(Engine& engine, Caller caller, Lang lang, UnixMicros now)
    : engine_(engine), caller_(std::move(caller)), lang_(lang), now_(now) {}

const std::string& Context::public_base_url() const { return engine_.options().public_base_url; }
bool Context::undocumented_subscriptions() const { return engine_.options().undocumented_subscriptions; }
std::int64_t Context::Fee(std::string_view kind) const { return engine_.Fee(std::string(kind)); }
std::string Context::NewId() { return engine_.NewId(); }
std::string Context::NewUuid() { return engine_.NewUuid(); }
void Context::NoteStoreFailure(const Status& status) { engine_.NoteStoreFailure(status); }

static std::string ScopeFor(const Context& ctx, std::string_view resource) {
  return resource == "workspace" ? ctx.caller().organization_id : ctx.workspace_id();
}

std::optional<Entity> Context::Find(std::string_view resource, std::string_view id) {
  return Checked(engine_.store().Get(resource, ScopeFor(*this, resource), id));
}

std::optional<Entity> Context::FindBy(std::string_view resource, std::string_view key, std::string_view value) {
  auto found = FindAllBy(resource, key, value, 1);
  if (found.empty()) return std::nullopt;
  return std::move(found.front());
}

std::vector<Entity> Context::FindAllBy(std::string_view resource, std::string_view key, std::string_view value,
                                       int limit) {
  if (key == "id") {
    auto e = Find(resource, value);
    return e ? std::vector<Entity>{std::move(*e)} : std::vector<Entity>{};
  }
  return Checked(engine_.store().FindByKey(resource, ScopeFor(*this, resource), key, value, limit));
}

Entity Context::Insert(std::string_view resource, Json doc) {
  Entity e;
  e.resource = std::string(resource);
  e.scope = ScopeFor(*this, resource);
  e.created = now_;
  if (auto pinned = pinned_ids_.find(e.resource); pinned != pinned_ids_.end() && !doc.contains("id")) {
    doc["id"] = pinned->second;
    pinned_ids_.erase(pinned);
  }
  if (!doc.contains("id")) doc["id"] = NewId();
  if (!doc.contains("created")) doc["created"] = FormatTimestamp(now_);
  if (HasUpdatedField(resource) && !doc.contains("updated")) doc["updated"] = FormatTimestamp(now_);
  if (auto tags = doc.find("tags"); tags != doc.end() && tags->is_array()) {
    for (auto& t : *tags) {
      if (!t.is_string()) continue;
      std::string s = t.get<std::string>();
      std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
      t = s;
    }
  }
  e.id = doc["id"].get<std::string>();
  e.doc = std::move(doc);
  Checked(engine_.store().Insert(e, IndexKeys(e.resource, e.doc)));
  return e;
}

void Context::Save(Entity& e) {
  if (e.doc.contains("updated")) e.doc["updated"] = FormatTimestamp(now_);
  Checked(engine_.store().Update(e, IndexKeys(e.resource, e.doc)));
}

void Context::Remove(const Entity& e) { Checked(engine_.store().Delete(e.seq)); }

Json Context::AddLog(const Entity& e, std::string_view type, const Json& extra) {
  const api::ResourceSpec* spec = api::FindResource(e.resource);
  std::string key = spec && !spec->log_entity_key.empty() ? std::string(spec->log_entity_key) : e.resource;
  Json log = {{"type", type}, {"errors", Json::array()}, {key, e.doc}};
  for (auto it = extra.begin(); it != extra.end(); ++it) log[it.key()] = it.value();
  Entity stored = Insert(e.resource + "/log", std::move(log));
  if (!spec || spec->subscription.empty()) return stored.doc;

  const std::string subscription(spec->subscription);
  ListQuery q;
  q.resource = "webhook";
  q.scope = e.scope;
  q.limit = 100;
  std::vector<Entity> hooks;
  for (auto& hook : Checked(engine_.store().List(q))) {
    const Json& subs = hook.doc["subscriptions"];
    if (subs.is_array() && std::find(subs.begin(), subs.end(), Json(subscription)) != subs.end())
      hooks.push_back(std::move(hook));
  }
  if (hooks.empty()) return stored.doc;
  Entity event = Insert(
      "event", {{"isDelivered", false}, {"log", stored.doc}, {"subscription", subscription}, {"workspaceId", e.scope}});
  if (history_) return stored.doc;
  Json pushed = event.doc;
  pushed.erase("isDelivered");
  const std::string body = PythonJsonDumps(Json{{"event", pushed}});
  for (const auto& hook : hooks) {
    WebhookDelivery d;
    d.scope = e.scope;
    d.event_id = event.id;
    d.webhook_id = hook.id;
    d.url = hook.doc.value("url", "");
    d.body = body;
    d.due = now_;
    d.state = "pending";
    Checked(engine_.store().AddDelivery(d));
  }
  engine_.NoteNewDeliveries();
  return stored.doc;
}

Json Context::AddTransaction(const LedgerEntry& entry) {
  const std::int64_t balance = Balance() + entry.amount;
  Json doc = {{"amount", entry.amount},
              {"balance", balance},
              {"description", entry.description},
              {"externalId", entry.external_id.empty() ? entry.source : entry.external_id},
              {"fee", entry.fee},
              {"receiverId", entry.amount >= 0 ? workspace_id() : std::string()},
              {"senderId", entry.amount < 0 ? workspace_id() : std::string()},
              {"source", entry.source},
              {"tags", entry.tags}};
  Entity e = Insert("transaction", std::move(doc));
  Checked(engine_.store().SetBalance(workspace_id(), balance));
  return e.doc;
}

std::int64_t Context::Balance() { return Checked(engine_.store().Balance(workspace_id())); }

void Context::Schedule(UnixMicros at, std::string_view job, const Json& payload) {
  Checked(engine_.store().AddJob(at, workspace_id(), job, payload.dump()));
}

// ---------------------------------------------------------------------------------------
// Engine

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
