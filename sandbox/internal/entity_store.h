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

#include "common/sqlite.h"
#include "common/status.h"
#include "sandbox/internal/engine.h"

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

struct WebhookDelivery {
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

// Every method reports SQLite's errors as values (common/sqlite.h, sqlite::SqliteError); the
// engine answers a failed request with kInternal, its whole transaction rolled back.
class EntityStore {
 public:
  static StatusOr<std::unique_ptr<EntityStore>> Open(const std::string& path);

  // The engine's transaction around one request, job or simulation action (BEGIN IMMEDIATE;
  // rolled back unless committed). Check its status() before use.
  sqlite::Txn Write() { return sqlite::Txn(connection_, sqlite::Txn::kWrite); }

  StatusOr<std::optional<Entity>> Get(std::string_view resource, std::string_view scope, std::string_view id);
  StatusOr<std::vector<Entity>> FindByKey(std::string_view resource, std::string_view scope, std::string_view key,
                                          std::string_view value, int limit);
  Status Insert(Entity& e, const std::vector<IndexKey>& keys);  // sets e.seq
  Status Update(const Entity& e, const std::vector<IndexKey>& keys);
  Status Delete(std::int64_t seq);
  // Up to q.limit + 1 entities (the extra one tells there is a next page).
  StatusOr<std::vector<Entity>> List(const ListQuery& q);
  StatusOr<std::int64_t> Count(std::string_view resource);  // "" counts every entity
  StatusOr<std::optional<std::string>> ScopeOf(std::string_view resource, std::string_view id);
  // The scope of the newest entity of `resource` whose filter key `key` is `value` (a session's uuid).
  StatusOr<std::optional<std::string>> ScopeOfKey(std::string_view resource, std::string_view key,
                                                  std::string_view value);

  StatusOr<std::optional<std::string>> GetMeta(std::string_view key);
  Status SetMeta(std::string_view key, std::string_view value);

  Status PutPrincipal(const Principal& p);
  StatusOr<std::vector<Principal>> Principals();

  StatusOr<std::int64_t> Balance(std::string_view scope);
  Status SetBalance(std::string_view scope, std::int64_t amount);

  Status AddJob(UnixMicros due, std::string_view scope, std::string_view kind, std::string_view payload);
  StatusOr<std::optional<Job>> NextDueJob(UnixMicros now);
  Status DeleteJob(std::int64_t id);

  Status AddDelivery(const WebhookDelivery& d);
  Status UpdateDelivery(const WebhookDelivery& d);
  StatusOr<std::vector<WebhookDelivery>> DueDeliveries(UnixMicros now, int limit);
  StatusOr<std::vector<WebhookDelivery>> Deliveries(int limit);

  // Deletes every row but the workspaces (simulation reset).
  Status Clear();

 private:
  EntityStore() = default;
  sqlite::Connection connection_;
};

}  // namespace balcao::sandbox::internal
