// What engine.h declares for the families: the Context a handler runs in (one transaction
// on the caller's workspace), entities, and the problem builders.
#include <algorithm>
#include <cctype>

#include "sandbox/internal/engine_core.h"
#include "sandbox/internal/family.h"

namespace balcao::sandbox::internal {
namespace {

bool HasUpdatedField(std::string_view resource) {
  return !SplitLogResource(resource).second && resource != "transaction" && resource != "event" &&
         resource != "event/attempt";
}

std::string ScopeFor(const Context& ctx, std::string_view resource) {
  return resource == "workspace" ? ctx.caller().organization_id : ctx.workspace_id();
}

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
    code = "invalid" + api::PascalName(spec->single_key);
  } else {
    code = "invalid" + api::PascalName(base);
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

Context::Context(Engine& engine, Caller caller, Lang lang, UnixMicros now)
    : engine_(engine), caller_(std::move(caller)), lang_(lang), now_(now) {}

const std::string& Context::public_base_url() const { return engine_.options().public_base_url; }
bool Context::undocumented_subscriptions() const { return engine_.options().undocumented_subscriptions; }
std::int64_t Context::Fee(std::string_view kind) const { return engine_.Fee(std::string(kind)); }
std::string Context::NewId() { return engine_.NewId(); }
std::string Context::NewUuid() { return engine_.NewUuid(); }
void Context::NoteStoreFailure(const Status& status) { engine_.NoteStoreFailure(status); }

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

}  // namespace balcao::sandbox::internal
