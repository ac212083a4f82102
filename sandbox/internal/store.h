// SQLite persistence of the sandbox: entities stored generically (resource, id, scope,
// created, status, JSON document) with a key table for filters, so lists, filters and
// cursor pages cost O(page) through indexes; plus metadata, principals (registered keys),
// the running balance per workspace, scheduled jobs and webhook deliveries.
// Thread-safety: none; the Engine serialises all access under its lock.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "sandbox/internal/engine.h"

struct sqlite3;
struct sqlite3_stmt;

namespace balcao::sandbox::internal {

// Filter key of an entity: ("tags", "pix"), ("uuid", "ab12..."), ("invoiceId", "123").
using IndexKey = std::pair<std::string, std::string>;

struct ListQuery {
  std::string resource;
  std::string scope;
  std::vector<std::string> ids;
  std::vector<std::string> statuses;
  std::optional<UnixMicros> after;                                     // created >= after
  std::optional<UnixMicros> before;                                    // created < before
  std::vector<std::pair<std::string, std::vector<std::string>>> keys;  // every pair must match one value
  bool ascending = false;                                              // default newest first
  int limit = 100;
  std::optional<std::pair<UnixMicros, std::int64_t>> cursor;  // (created, seq) of the last item served
};

struct Principal {
  std::string access_id;  // "project/123" or "organization/456"
  std::string organization_id;
  std::string workspace_id;  // projects: their workspace; organizations: empty
  std::string public_key_pem;
};

struct Job {
  std::int64_t id = 0;
  UnixMicros due = 0;
  std::string scope;
  std::string kind;
  std::string payload;
};

struct Delivery {
  std::int64_t id = 0;
  std::string scope;
  std::string event_id;
  std::string webhook_id;
  std::string url;
  std::string body;
  UnixMicros due = 0;
  int attempt = 0;      // attempts made so far
  std::string state;    // pending, delivered, failed
  int last_status = 0;  // HTTP status of the last attempt (0: no answer)
  std::string last_error;
};

class Store {
 public:
  static StatusOr<std::unique_ptr<Store>> Open(const std::string& path);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  Status Begin();
  Status Commit();
  void Rollback();

  std::optional<Entity> Get(std::string_view resource, std::string_view scope, std::string_view id);
  std::vector<Entity> FindByKey(std::string_view resource, std::string_view scope, std::string_view key,
                                std::string_view value, int limit);
  void Insert(Entity& e, const std::vector<IndexKey>& keys);  // sets e.seq
  void Update(const Entity& e, const std::vector<IndexKey>& keys);
  void Delete(std::int64_t seq);
  // Up to q.limit + 1 entities (the extra one tells there is a next page).
  std::vector<Entity> List(const ListQuery& q);
  std::int64_t Count(std::string_view resource);  // "" counts every entity
  std::optional<std::string> ScopeOf(std::string_view resource, std::string_view id);

  std::optional<std::string> GetMeta(std::string_view key);
  void SetMeta(std::string_view key, std::string_view value);
  std::int64_t NextCounter(std::string_view name);  // 1, 2, 3... persisted

  void PutPrincipal(const Principal& p);
  std::vector<Principal> Principals();

  std::int64_t Balance(std::string_view scope);
  void SetBalance(std::string_view scope, std::int64_t amount);

  void AddJob(UnixMicros due, std::string_view scope, std::string_view kind, std::string_view payload);
  std::optional<Job> NextDueJob(UnixMicros now);
  void DeleteJob(std::int64_t id);

  void AddDelivery(const Delivery& d);
  void UpdateDelivery(const Delivery& d);
  std::vector<Delivery> DueDeliveries(UnixMicros now, int limit);
  std::vector<Delivery> Deliveries(int limit);

  // Deletes every row (simulation reset).
  void Clear();

 private:
  explicit Store(sqlite3* db) : db_(db) {}
  sqlite3_stmt* Prepare(const std::string& sql);

  sqlite3* db_;
  std::vector<std::pair<std::string, sqlite3_stmt*>> cache_;
};

}  // namespace balcao::sandbox::internal
