// The sandbox's entity store over the shared SQLite wrapper (common/sqlite.h).
#include "sandbox/internal/entity_store.h"

#include <sqlite3.h>

namespace balcao::sandbox::internal {
namespace {

using sqlite::Stmt;

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS entities(
  seq INTEGER PRIMARY KEY, resource TEXT NOT NULL, id TEXT NOT NULL, scope TEXT NOT NULL,
  created INTEGER NOT NULL, status TEXT NOT NULL, doc TEXT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS entities_id ON entities(resource, id);
CREATE INDEX IF NOT EXISTS entities_page ON entities(resource, scope, created, seq);
CREATE INDEX IF NOT EXISTS entities_status ON entities(resource, scope, status, created, seq);
CREATE TABLE IF NOT EXISTS keys(seq INTEGER NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS keys_lookup ON keys(name, value, seq);
CREATE INDEX IF NOT EXISTS keys_seq ON keys(seq);
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS principals(access_id TEXT PRIMARY KEY, organization_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL, public_key TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS balances(scope TEXT PRIMARY KEY, amount INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS jobs(id INTEGER PRIMARY KEY, due INTEGER NOT NULL, scope TEXT NOT NULL,
  kind TEXT NOT NULL, payload TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS jobs_due ON jobs(due, id);
CREATE TABLE IF NOT EXISTS deliveries(id INTEGER PRIMARY KEY, scope TEXT NOT NULL, event_id TEXT NOT NULL,
  webhook_id TEXT NOT NULL, url TEXT NOT NULL, body TEXT NOT NULL, due INTEGER NOT NULL, attempt INTEGER NOT NULL,
  state TEXT NOT NULL, last_status INTEGER NOT NULL, last_error TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries(state, due);
)sql";

constexpr const char* kEntityCols = "seq, resource, id, scope, created, doc";

Entity ReadEntity(const Stmt& s) {
  Entity e;
  s.ReadInto(e.seq, e.resource, e.id, e.scope, e.created);
  e.doc = Json::parse(s.Text(5), nullptr, /*allow_exceptions=*/false);
  return e;
}

StatusOr<std::vector<Entity>> ReadEntities(Stmt& s) { return sqlite::ReadAll(s, ReadEntity); }

// The first column of the one row `s` yields, or `absent` when there is none.
StatusOr<std::int64_t> ReadInt(Stmt& s, std::int64_t absent) {
  BALCAO_ASSIGN_OR_RETURN(bool row, s.Step());
  return row ? s.Int(0) : absent;
}

StatusOr<std::optional<std::string>> ReadOptionalText(Stmt& s) {
  BALCAO_ASSIGN_OR_RETURN(bool row, s.Step());
  if (!row) return std::optional<std::string>();
  return std::optional<std::string>(s.Text(0));
}

Status InsertKeys(sqlite::Connection& connection, std::int64_t seq, const std::vector<IndexKey>& keys) {
  for (const auto& [name, value] : keys) {
    Stmt s(connection, "INSERT INTO keys(seq, name, value) VALUES(?,?,?)");
    BALCAO_RETURN_IF_ERROR(s.BindAll(seq, name, value).Run());
  }
  return OkStatus();
}

std::string Placeholders(std::size_t n) {
  std::string p = "(";
  for (std::size_t i = 0; i < n; ++i) p += i ? ",?" : "?";
  return p + ")";
}

// The SELECT of a list query; BindList binds its parameters in the same order.
std::string ListSql(const ListQuery& q) {
  std::string sql = std::string("SELECT ") + kEntityCols + " FROM entities WHERE resource=? AND scope=?";
  if (!q.ids.empty()) sql += " AND id IN " + Placeholders(q.ids.size());
  if (!q.statuses.empty()) sql += " AND status IN " + Placeholders(q.statuses.size());
  if (q.after) sql += " AND created >= ?";
  if (q.before) sql += " AND created < ?";
  for (const auto& [name, values] : q.keys)
    sql += " AND seq IN (SELECT seq FROM keys WHERE name=? AND value IN " + Placeholders(values.size()) + ")";
  if (q.cursor) sql += q.ascending ? " AND (created, seq) > (?, ?)" : " AND (created, seq) < (?, ?)";
  sql += q.ascending ? " ORDER BY created ASC, seq ASC LIMIT ?" : " ORDER BY created DESC, seq DESC LIMIT ?";
  return sql;
}

void BindList(Stmt& s, const ListQuery& q) {
  int i = 2;
  s.BindAll(q.resource, q.scope);
  for (const auto& id : q.ids) s.Bind(++i, id);
  for (const auto& st : q.statuses) s.Bind(++i, st);
  if (q.after) s.Bind(++i, *q.after);
  if (q.before) s.Bind(++i, *q.before);
  for (const auto& [name, values] : q.keys) {
    s.Bind(++i, name);
    for (const auto& v : values) s.Bind(++i, v);
  }
  if (q.cursor) {
    s.Bind(++i, q.cursor->first);
    s.Bind(++i, q.cursor->second);
  }
  s.Bind(++i, static_cast<std::int64_t>(q.limit + 1));
}

WebhookDelivery ReadDelivery(const Stmt& s) {
  WebhookDelivery d;
  s.ReadInto(d.id, d.scope, d.event_id, d.webhook_id, d.url, d.body, d.due, d.attempt, d.state, d.last_status,
             d.last_error);
  return d;
}

StatusOr<std::vector<WebhookDelivery>> ReadDeliveries(Stmt& s) { return sqlite::ReadAll(s, ReadDelivery); }
constexpr const char* kDeliveryCols =
    "SELECT id, scope, event_id, webhook_id, url, body, due, attempt, state, last_status, last_error FROM deliveries";

}  // namespace

StatusOr<std::unique_ptr<EntityStore>> EntityStore::Open(const std::string& path) {
  std::unique_ptr<EntityStore> store(new EntityStore());
  sqlite::Connection& c = store->connection_;
  c.path = path;
  if (sqlite3_open_v2(path.c_str(), &c.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr) !=
      SQLITE_OK) {
    std::string msg = c.db ? sqlite3_errmsg(c.db) : "out of memory";
    return UnavailableError("cannot open sandbox database " + path + ": " + msg);
  }
  // WAL + NORMAL: a crash loses at most the last commits, never consistency; the sandbox
  // is test infrastructure, not the merchant's journal. cache_size bounds memory (-KiB).
  Status init = sqlite::Exec(c.db,
                             "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-16384;"
                             "PRAGMA temp_store=MEMORY; PRAGMA busy_timeout=5000;");
  if (init.ok()) init = sqlite::Exec(c.db, kSchema);
  if (!init.ok()) return InternalError("cannot initialise sandbox database: " + init.message());
  return store;
}

StatusOr<std::optional<Entity>> EntityStore::Get(std::string_view resource, std::string_view scope,
                                                 std::string_view id) {
  Stmt s(connection_, std::string("SELECT ") + kEntityCols + " FROM entities WHERE resource=? AND id=? AND scope=?");
  BALCAO_ASSIGN_OR_RETURN(bool row, s.BindAll(resource, id, scope).Step());
  if (!row) return std::optional<Entity>();
  return std::optional<Entity>(ReadEntity(s));
}

StatusOr<std::vector<Entity>> EntityStore::FindByKey(std::string_view resource, std::string_view scope,
                                                     std::string_view key, std::string_view value, int limit) {
  Stmt s(connection_, std::string("SELECT ") + kEntityCols +
                          " FROM entities WHERE seq IN (SELECT seq FROM keys WHERE name=? AND value=?)"
                          " AND resource=? AND scope=? ORDER BY created DESC, seq DESC LIMIT ?");
  s.BindAll(key, value, resource, scope, limit);
  return ReadEntities(s);
}

Status EntityStore::Insert(Entity& e, const std::vector<IndexKey>& keys) {
  {
    Stmt s(connection_, "INSERT INTO entities(resource, id, scope, created, status, doc) VALUES(?,?,?,?,?,?)");
    s.BindAll(e.resource, e.id, e.scope, e.created, e.status(), e.doc.dump());
    BALCAO_RETURN_IF_ERROR(s.Run());
    e.seq = s.LastInsertId();
  }
  return InsertKeys(connection_, e.seq, keys);
}

Status EntityStore::Update(const Entity& e, const std::vector<IndexKey>& keys) {
  {
    Stmt s(connection_, "UPDATE entities SET status=?, doc=? WHERE seq=?");
    BALCAO_RETURN_IF_ERROR(s.BindAll(e.status(), e.doc.dump(), e.seq).Run());
  }
  {
    Stmt s(connection_, "DELETE FROM keys WHERE seq=?");
    BALCAO_RETURN_IF_ERROR(s.Bind(1, e.seq).Run());
  }
  return InsertKeys(connection_, e.seq, keys);
}

Status EntityStore::Delete(std::int64_t seq) {
  for (const char* sql : {"DELETE FROM entities WHERE seq=?", "DELETE FROM keys WHERE seq=?"}) {
    Stmt s(connection_, sql);
    BALCAO_RETURN_IF_ERROR(s.Bind(1, seq).Run());
  }
  return OkStatus();
}

StatusOr<std::vector<Entity>> EntityStore::List(const ListQuery& q) {
  Stmt s(connection_, ListSql(q));
  BindList(s, q);
  return ReadEntities(s);
}

StatusOr<std::int64_t> EntityStore::Count(std::string_view resource) {
  if (resource.empty()) {
    Stmt all(connection_, "SELECT count(*) FROM entities");
    return ReadInt(all, 0);
  }
  Stmt s(connection_, "SELECT count(*) FROM entities WHERE resource=?");
  return ReadInt(s.Bind(1, resource), 0);
}

StatusOr<std::optional<std::string>> EntityStore::ScopeOf(std::string_view resource, std::string_view id) {
  Stmt s(connection_, "SELECT scope FROM entities WHERE resource=? AND id=?");
  return ReadOptionalText(s.BindAll(resource, id));
}

StatusOr<std::optional<std::string>> EntityStore::ScopeOfKey(std::string_view resource, std::string_view key,
                                                             std::string_view value) {
  Stmt s(connection_,
         "SELECT scope FROM entities WHERE seq IN (SELECT seq FROM keys WHERE name=? AND value=?) AND resource=?"
         " ORDER BY created DESC, seq DESC LIMIT 1");
  return ReadOptionalText(s.BindAll(key, value, resource));
}

StatusOr<std::optional<std::string>> EntityStore::GetMeta(std::string_view key) {
  Stmt s(connection_, "SELECT value FROM meta WHERE key=?");
  return ReadOptionalText(s.Bind(1, key));
}

Status EntityStore::SetMeta(std::string_view key, std::string_view value) {
  Stmt s(connection_, "INSERT INTO meta(key, value) VALUES(?,?) ON CONFLICT(key) DO UPDATE SET value=excluded.value");
  return s.BindAll(key, value).Run();
}

Status EntityStore::PutPrincipal(const Principal& p) {
  Stmt s(connection_,
         "INSERT OR REPLACE INTO principals(access_id, organization_id, workspace_id, public_key) "
         "VALUES(?,?,?,?)");
  return s.BindAll(p.access_id, p.organization_id, p.workspace_id, p.public_key_pem).Run();
}

StatusOr<std::vector<Principal>> EntityStore::Principals() {
  Stmt s(connection_, "SELECT access_id, organization_id, workspace_id, public_key FROM principals");
  std::vector<Principal> out;
  while (true) {
    BALCAO_ASSIGN_OR_RETURN(bool row, s.Step());
    if (!row) return out;
    out.push_back({s.Text(0), s.Text(1), s.Text(2), s.Text(3)});
  }
}

StatusOr<std::int64_t> EntityStore::Balance(std::string_view scope) {
  Stmt s(connection_, "SELECT amount FROM balances WHERE scope=?");
  return ReadInt(s.Bind(1, scope), 0);
}

Status EntityStore::SetBalance(std::string_view scope, std::int64_t amount) {
  Stmt s(connection_,
         "INSERT INTO balances(scope, amount) VALUES(?,?) "
         "ON CONFLICT(scope) DO UPDATE SET amount=excluded.amount");
  return s.BindAll(scope, amount).Run();
}

Status EntityStore::AddJob(UnixMicros due, std::string_view scope, std::string_view kind, std::string_view payload) {
  Stmt s(connection_, "INSERT INTO jobs(due, scope, kind, payload) VALUES(?,?,?,?)");
  return s.BindAll(due, scope, kind, payload).Run();
}

StatusOr<std::optional<Job>> EntityStore::NextDueJob(UnixMicros now) {
  Stmt s(connection_, "SELECT id, due, scope, kind, payload FROM jobs WHERE due <= ? ORDER BY due, id LIMIT 1");
  BALCAO_ASSIGN_OR_RETURN(bool row, s.Bind(1, now).Step());
  if (!row) return std::optional<Job>();
  return std::optional<Job>(Job{s.Int(0), s.Int(1), s.Text(2), s.Text(3), s.Text(4)});
}

Status EntityStore::DeleteJob(std::int64_t id) {
  Stmt s(connection_, "DELETE FROM jobs WHERE id=?");
  return s.Bind(1, id).Run();
}

Status EntityStore::AddDelivery(const WebhookDelivery& d) {
  Stmt s(connection_,
         "INSERT INTO deliveries(scope, event_id, webhook_id, url, body, due, attempt, state, last_status, "
         "last_error) VALUES(?,?,?,?,?,?,?,?,?,?)");
  s.BindAll(d.scope, d.event_id, d.webhook_id, d.url, d.body, d.due);
  s.BindFrom(7, d.attempt, d.state, d.last_status, d.last_error);
  return s.Run();
}

Status EntityStore::UpdateDelivery(const WebhookDelivery& d) {
  Stmt s(connection_, "UPDATE deliveries SET due=?, attempt=?, state=?, last_status=?, last_error=? WHERE id=?");
  s.BindAll(d.due, d.attempt, d.state, d.last_status, d.last_error, d.id);
  return s.Run();
}

StatusOr<std::vector<WebhookDelivery>> EntityStore::DueDeliveries(UnixMicros now, int limit) {
  Stmt s(connection_, std::string(kDeliveryCols) + " WHERE state='pending' AND due <= ? ORDER BY due, id LIMIT ?");
  s.BindAll(now, limit);
  return ReadDeliveries(s);
}

StatusOr<std::vector<WebhookDelivery>> EntityStore::Deliveries(int limit) {
  Stmt s(connection_, std::string(kDeliveryCols) + " ORDER BY id DESC LIMIT ?");
  s.Bind(1, limit);
  return ReadDeliveries(s);
}

Status EntityStore::Clear() {
  return sqlite::Exec(connection_.db,
                      "DELETE FROM entities WHERE resource <> 'workspace';"
                      "DELETE FROM keys WHERE seq NOT IN (SELECT seq FROM entities);"
                      "DELETE FROM balances; DELETE FROM jobs; DELETE FROM deliveries;");
}

}  // namespace balcao::sandbox::internal
