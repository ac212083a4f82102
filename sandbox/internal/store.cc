#include "sandbox/internal/store.h"

#include <sqlite3.h>

#include <stdexcept>

namespace balcao::sandbox::internal {
namespace {

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

// Binds and steps a cached statement; resets it when done.
class Stmt {
 public:
  explicit Stmt(sqlite3_stmt* s) : s_(s) {}
  ~Stmt() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }
  Stmt& Bind(std::string_view v) {
    sqlite3_bind_text(s_, ++i_, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& Bind(std::int64_t v) {
    sqlite3_bind_int64(s_, ++i_, v);
    return *this;
  }
  bool Step() {
    int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(sqlite3_db_handle(s_)));
  }
  void Run() { Step(); }
  std::string Text(int col) const {
    auto p = reinterpret_cast<const char*>(sqlite3_column_text(s_, col));
    return p ? std::string(p, sqlite3_column_bytes(s_, col)) : std::string();
  }
  std::int64_t Int(int col) const { return sqlite3_column_int64(s_, col); }
  sqlite3_stmt* get() { return s_; }

 private:
  sqlite3_stmt* s_;
  int i_ = 0;
};

constexpr const char* kEntityCols = "seq, resource, id, scope, created, doc";

Entity ReadEntity(const Stmt& s) {
  Entity e;
  e.seq = s.Int(0);
  e.resource = s.Text(1);
  e.id = s.Text(2);
  e.scope = s.Text(3);
  e.created = s.Int(4);
  e.doc = Json::parse(s.Text(5), nullptr, /*allow_exceptions=*/false);
  return e;
}

}  // namespace

StatusOr<std::unique_ptr<Store>> Store::Open(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr) !=
      SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return UnavailableError("cannot open sandbox database " + path + ": " + msg);
  }
  // WAL + NORMAL: a crash loses at most the last commits, never consistency; the sandbox
  // is test infrastructure, not the merchant's journal. cache_size bounds memory (-KiB).
  const char* pragmas =
      "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-16384;"
      "PRAGMA temp_store=MEMORY; PRAGMA busy_timeout=5000;";
  char* err = nullptr;
  if (sqlite3_exec(db, pragmas, nullptr, nullptr, &err) != SQLITE_OK ||
      sqlite3_exec(db, kSchema, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "schema error";
    sqlite3_free(err);
    sqlite3_close(db);
    return InternalError("cannot initialise sandbox database: " + msg);
  }
  return std::unique_ptr<Store>(new Store(db));
}

Store::~Store() {
  for (auto& [sql, s] : cache_) sqlite3_finalize(s);
  sqlite3_close(db_);
}

sqlite3_stmt* Store::Prepare(const std::string& sql) {
  for (auto& [text, s] : cache_)
    if (text == sql) return s;
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) != SQLITE_OK)
    throw std::runtime_error(std::string("sqlite prepare: ") + sqlite3_errmsg(db_) + " in " + sql);
  // Lists with variable IN() lists make many shapes; keep the cache bounded.
  if (cache_.size() > 256) {
    sqlite3_finalize(cache_.front().second);
    cache_.erase(cache_.begin());
  }
  cache_.emplace_back(sql, s);
  return s;
}

Status Store::Begin() {
  return sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK
             ? OkStatus()
             : InternalError(std::string("sqlite begin: ") + sqlite3_errmsg(db_));
}
Status Store::Commit() {
  return sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK
             ? OkStatus()
             : InternalError(std::string("sqlite commit: ") + sqlite3_errmsg(db_));
}
void Store::Rollback() { sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr); }

std::optional<Entity> Store::Get(std::string_view resource, std::string_view scope, std::string_view id) {
  Stmt s(Prepare(std::string("SELECT ") + kEntityCols + " FROM entities WHERE resource=? AND id=? AND scope=?"));
  s.Bind(resource).Bind(id).Bind(scope);
  if (!s.Step()) return std::nullopt;
  return ReadEntity(s);
}

std::vector<Entity> Store::FindByKey(std::string_view resource, std::string_view scope, std::string_view key,
                                     std::string_view value, int limit) {
  Stmt s(Prepare(std::string("SELECT ") + kEntityCols +
                 " FROM entities WHERE seq IN (SELECT seq FROM keys WHERE name=? AND value=?)"
                 " AND resource=? AND scope=? ORDER BY created DESC, seq DESC LIMIT ?"));
  s.Bind(key).Bind(value).Bind(resource).Bind(scope).Bind(static_cast<std::int64_t>(limit));
  std::vector<Entity> out;
  while (s.Step()) {
    out.push_back(ReadEntity(s));
  }
  return out;
}

void Store::Insert(Entity& e, const std::vector<IndexKey>& keys) {
  {
    Stmt s(Prepare("INSERT INTO entities(resource, id, scope, created, status, doc) VALUES(?,?,?,?,?,?)"));
    s.Bind(e.resource).Bind(e.id).Bind(e.scope).Bind(e.created).Bind(e.status()).Bind(e.doc.dump());
    s.Run();
  }
  e.seq = sqlite3_last_insert_rowid(db_);
  Stmt k(Prepare("INSERT INTO keys(seq, name, value) VALUES(?,?,?)"));
  for (const auto& [name, value] : keys) {
    Stmt s(k.get());
    s.Bind(e.seq).Bind(name).Bind(value);
    s.Run();
  }
}

void Store::Update(const Entity& e, const std::vector<IndexKey>& keys) {
  {
    Stmt s(Prepare("UPDATE entities SET status=?, doc=? WHERE seq=?"));
    s.Bind(e.status()).Bind(e.doc.dump()).Bind(e.seq);
    s.Run();
  }
  {
    Stmt s(Prepare("DELETE FROM keys WHERE seq=?"));
    s.Bind(e.seq);
    s.Run();
  }
  for (const auto& [name, value] : keys) {
    Stmt s(Prepare("INSERT INTO keys(seq, name, value) VALUES(?,?,?)"));
    s.Bind(e.seq).Bind(name).Bind(value);
    s.Run();
  }
}

void Store::Delete(std::int64_t seq) {
  for (const char* sql : {"DELETE FROM entities WHERE seq=?", "DELETE FROM keys WHERE seq=?"}) {
    Stmt s(Prepare(sql));
    s.Bind(seq);
    s.Run();
  }
}

std::vector<Entity> Store::List(const ListQuery& q) {
  std::string sql = std::string("SELECT ") + kEntityCols + " FROM entities WHERE resource=? AND scope=?";
  auto placeholders = [](std::size_t n) {
    std::string p = "(";
    for (std::size_t i = 0; i < n; ++i) p += i ? ",?" : "?";
    return p + ")";
  };
  if (!q.ids.empty()) sql += " AND id IN " + placeholders(q.ids.size());
  if (!q.statuses.empty()) sql += " AND status IN " + placeholders(q.statuses.size());
  if (q.after) sql += " AND created >= ?";
  if (q.before) sql += " AND created < ?";
  for (const auto& [name, values] : q.keys)
    sql += " AND seq IN (SELECT seq FROM keys WHERE name=? AND value IN " + placeholders(values.size()) + ")";
  if (q.cursor) sql += q.ascending ? " AND (created, seq) > (?, ?)" : " AND (created, seq) < (?, ?)";
  sql += q.ascending ? " ORDER BY created ASC, seq ASC LIMIT ?" : " ORDER BY created DESC, seq DESC LIMIT ?";
  Stmt s(Prepare(sql));
  s.Bind(q.resource).Bind(q.scope);
  for (const auto& id : q.ids) s.Bind(id);
  for (const auto& st : q.statuses) s.Bind(st);
  if (q.after) s.Bind(*q.after);
  if (q.before) s.Bind(*q.before);
  for (const auto& [name, values] : q.keys) {
    s.Bind(name);
    for (const auto& v : values) s.Bind(v);
  }
  if (q.cursor) s.Bind(q.cursor->first).Bind(q.cursor->second);
  s.Bind(static_cast<std::int64_t>(q.limit + 1));
  std::vector<Entity> out;
  while (s.Step()) {
    out.push_back(ReadEntity(s));
  }
  return out;
}

std::int64_t Store::Count(std::string_view resource) {
  if (resource.empty()) {
    Stmt all(Prepare("SELECT count(*) FROM entities"));
    return all.Step() ? all.Int(0) : 0;
  }
  Stmt s(Prepare("SELECT count(*) FROM entities WHERE resource=?"));
  s.Bind(resource);
  return s.Step() ? s.Int(0) : 0;
}

std::optional<std::string> Store::ScopeOf(std::string_view resource, std::string_view id) {
  Stmt s(Prepare("SELECT scope FROM entities WHERE resource=? AND id=?"));
  s.Bind(resource).Bind(id);
  if (!s.Step()) return std::nullopt;
  return s.Text(0);
}

std::optional<std::string> Store::GetMeta(std::string_view key) {
  Stmt s(Prepare("SELECT value FROM meta WHERE key=?"));
  s.Bind(key);
  if (!s.Step()) return std::nullopt;
  return s.Text(0);
}

void Store::SetMeta(std::string_view key, std::string_view value) {
  Stmt s(Prepare("INSERT INTO meta(key, value) VALUES(?,?) ON CONFLICT(key) DO UPDATE SET value=excluded.value"));
  s.Bind(key).Bind(value);
  s.Run();
}

std::int64_t Store::NextCounter(std::string_view name) {
  std::string key = "counter:" + std::string(name);
  auto current = GetMeta(key);
  std::int64_t next = (current ? std::stoll(*current) : 0) + 1;
  SetMeta(key, std::to_string(next));
  return next;
}

void Store::PutPrincipal(const Principal& p) {
  Stmt s(
      Prepare("INSERT OR REPLACE INTO principals(access_id, organization_id, workspace_id, public_key) "
              "VALUES(?,?,?,?)"));
  s.Bind(p.access_id).Bind(p.organization_id).Bind(p.workspace_id).Bind(p.public_key_pem);
  s.Run();
}

std::vector<Principal> Store::Principals() {
  Stmt s(Prepare("SELECT access_id, organization_id, workspace_id, public_key FROM principals"));
  std::vector<Principal> out;
  while (s.Step()) out.push_back({s.Text(0), s.Text(1), s.Text(2), s.Text(3)});
  return out;
}

std::int64_t Store::Balance(std::string_view scope) {
  Stmt s(Prepare("SELECT amount FROM balances WHERE scope=?"));
  s.Bind(scope);
  return s.Step() ? s.Int(0) : 0;
}

void Store::SetBalance(std::string_view scope, std::int64_t amount) {
  Stmt s(
      Prepare("INSERT INTO balances(scope, amount) VALUES(?,?) "
              "ON CONFLICT(scope) DO UPDATE SET amount=excluded.amount"));
  s.Bind(scope).Bind(amount);
  s.Run();
}

void Store::AddJob(UnixMicros due, std::string_view scope, std::string_view kind, std::string_view payload) {
  Stmt s(Prepare("INSERT INTO jobs(due, scope, kind, payload) VALUES(?,?,?,?)"));
  s.Bind(due).Bind(scope).Bind(kind).Bind(payload);
  s.Run();
}

std::optional<Job> Store::NextDueJob(UnixMicros now) {
  Stmt s(Prepare("SELECT id, due, scope, kind, payload FROM jobs WHERE due <= ? ORDER BY due, id LIMIT 1"));
  s.Bind(now);
  if (!s.Step()) return std::nullopt;
  return Job{s.Int(0), s.Int(1), s.Text(2), s.Text(3), s.Text(4)};
}

void Store::DeleteJob(std::int64_t id) {
  Stmt s(Prepare("DELETE FROM jobs WHERE id=?"));
  s.Bind(id);
  s.Run();
}

void Store::AddDelivery(const Delivery& d) {
  Stmt s(
      Prepare("INSERT INTO deliveries(scope, event_id, webhook_id, url, body, due, attempt, state, last_status, "
              "last_error) VALUES(?,?,?,?,?,?,?,?,?,?)"));
  s.Bind(d.scope).Bind(d.event_id).Bind(d.webhook_id).Bind(d.url).Bind(d.body).Bind(d.due);
  s.Bind(static_cast<std::int64_t>(d.attempt)).Bind(d.state).Bind(static_cast<std::int64_t>(d.last_status));
  s.Bind(d.last_error);
  s.Run();
}

void Store::UpdateDelivery(const Delivery& d) {
  Stmt s(Prepare("UPDATE deliveries SET due=?, attempt=?, state=?, last_status=?, last_error=? WHERE id=?"));
  s.Bind(d.due).Bind(static_cast<std::int64_t>(d.attempt)).Bind(d.state);
  s.Bind(static_cast<std::int64_t>(d.last_status)).Bind(d.last_error).Bind(d.id);
  s.Run();
}

namespace {
std::vector<Delivery> ReadDeliveries(Stmt& s) {
  std::vector<Delivery> out;
  while (s.Step()) {
    Delivery d;
    d.id = s.Int(0);
    d.scope = s.Text(1);
    d.event_id = s.Text(2);
    d.webhook_id = s.Text(3);
    d.url = s.Text(4);
    d.body = s.Text(5);
    d.due = s.Int(6);
    d.attempt = static_cast<int>(s.Int(7));
    d.state = s.Text(8);
    d.last_status = static_cast<int>(s.Int(9));
    d.last_error = s.Text(10);
    out.push_back(std::move(d));
  }
  return out;
}
constexpr const char* kDeliveryCols =
    "SELECT id, scope, event_id, webhook_id, url, body, due, attempt, state, last_status, last_error FROM deliveries";
}  // namespace

std::vector<Delivery> Store::DueDeliveries(UnixMicros now, int limit) {
  Stmt s(Prepare(std::string(kDeliveryCols) + " WHERE state='pending' AND due <= ? ORDER BY due, id LIMIT ?"));
  s.Bind(now).Bind(static_cast<std::int64_t>(limit));
  return ReadDeliveries(s);
}

std::vector<Delivery> Store::Deliveries(int limit) {
  Stmt s(Prepare(std::string(kDeliveryCols) + " ORDER BY id DESC LIMIT ?"));
  s.Bind(static_cast<std::int64_t>(limit));
  return ReadDeliveries(s);
}

void Store::Clear() {
  sqlite3_exec(db_,
               "DELETE FROM entities WHERE resource <> 'workspace';"
               "DELETE FROM keys WHERE seq NOT IN (SELECT seq FROM entities);"
               "DELETE FROM balances; DELETE FROM jobs; DELETE FROM deliveries;",
               nullptr, nullptr, nullptr);
}

}  // namespace balcao::sandbox::internal
