// The sandbox's domain engine as resource families see it: one request (or one scheduled
// job, or one simulation action) runs inside a Context, which is a SQLite transaction on
// the caller's workspace. A handler that reports a Problem gets the whole transaction
// rolled back, so nothing is half-written. Families never see HTTP, SQL or envelopes.
// Thread-safety: a Context is used by one thread, under the engine's lock, for the
// duration of one request; never keep it (or an Entity) beyond the handler call.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/resources.h"
#include "common/status.h"
#include "common/time.h"

namespace balcao::sandbox::internal {

using Json = nlohmann::json;

enum class Lang { kEnUs, kPtBr };

// One problem reported to the caller as {"code","message"}; the message is picked by
// Accept-Language. One Problem per thing wrong (docs/wire.md, "Errors").
struct Problem {
  std::string code;
  std::string en;
  std::string pt;
};
using Problems = std::vector<Problem>;

// Who signed the request (the Access-Id forms of docs/wire.md, "Signing").
struct Caller {
  enum class Kind { kProject, kOrganization, kSimulation };
  Kind kind = Kind::kProject;
  std::string access_id;        // "project/123", "organization/9/workspace/7"
  std::string organization_id;  // always set
  std::string workspace_id;     // empty for organization-level access
};

// One stored entity. `doc` is exactly what the API serves (id, created... included).
struct Entity {
  std::int64_t seq = 0;  // storage order, unique across resources
  std::string resource;  // "invoice", "invoice/log", "event/attempt"
  std::string id;
  std::string scope;  // workspace id (organization id for workspaces)
  UnixMicros created = 0;
  Json doc;
  std::string status() const;  // doc["status"] or ""
};

// One ledger movement. `amount` is the signed effect on the balance (cash-in > 0);
// `fee` is the part of the gross value the bank kept (informational: gross = amount + fee).
struct LedgerEntry {
  std::int64_t amount = 0;
  std::int64_t fee = 0;
  std::string description;
  std::string source;  // "<resource>/<id>" or "self"
  std::vector<std::string> tags;
  std::string external_id;
};

// Decoded query string: key -> value, commas kept (use SplitList).
using Query = std::map<std::string, std::string, std::less<>>;

// A binary answer (PDF, PNG).
struct File {
  std::string content_type;
  std::string bytes;
};

class Engine;

class Context {
 public:
  Context(Engine& engine, Caller caller, Lang lang, UnixMicros now);

  const Caller& caller() const { return caller_; }
  const std::string& workspace_id() const { return caller_.workspace_id; }
  Lang lang() const { return lang_; }
  // Sandbox clock; during a scheduled job, the job's due time.
  UnixMicros Now() const { return now_; }
  // "http://127.0.0.1:<port>": base for public links (pdf, link, challengeUrl).
  const std::string& public_base_url() const;
  // Whether webhooks may subscribe to api::UndocumentedSubscriptions() (EngineOptions).
  bool undocumented_subscriptions() const;

  // Fee in cents the sandbox charges for an operation kind ("invoice", "deposit",
  // "transfer"...); 0 unless configured (docs/sandbox.md).
  std::int64_t Fee(std::string_view kind) const;

  std::string NewId();    // 16 decimal digits, unique
  std::string NewUuid();  // 32 lowercase hex digits

  // Entities of the caller's workspace (scope). `key` is a filter key as stored by
  // IndexKeys(): "uuid", "externalId", "tags", "transactionIds"...
  std::optional<Entity> Find(std::string_view resource, std::string_view id);
  std::optional<Entity> FindBy(std::string_view resource, std::string_view key, std::string_view value);
  std::vector<Entity> FindAllBy(std::string_view resource, std::string_view key, std::string_view value,
                                int limit = 1000);
  // Stores a new entity in the caller's scope. Fills `id` (NewId) when absent, `created`
  // and `updated` with Now(), lowercases `tags`. Returns the stored entity.
  Entity Insert(std::string_view resource, Json doc);
  // Writes back e.doc (bumping `updated` when the doc has that key) and its filter keys.
  void Save(Entity& e);
  // Deletes the entity for good (webhook and event DELETE); its logs stay.
  void Remove(const Entity& e);

  // Writes a log of `type` for `e` (its resource must have logs), with the entity embedded
  // under the resource's log key, plus `extra` keys; turns it into events for the
  // workspace's webhooks subscribed to the resource. Returns the log doc.
  Json AddLog(const Entity& e, std::string_view type, const Json& extra = Json::object());
  // Writes one ledger transaction (entity "transaction") and returns its doc. Balance
  // after it is stored in `balance`.
  Json AddTransaction(const LedgerEntry& entry);
  std::int64_t Balance();

  // Runs registry job `job` with `payload` when the sandbox clock reaches `at`, in a
  // Context of this workspace whose Now() is `at`.
  void Schedule(UnixMicros at, std::string_view job, const Json& payload);

  // The value of a store call made by a handler (ctx.engine().store()...), or T{} when it
  // failed: the failure is noted on the engine, which rolls the whole transaction back and
  // answers kInternal (Engine::Run), so the handler may carry on with the empty value.
  template <typename T>
  T Checked(StatusOr<T> result) {
    if (result.ok()) return std::move(*result);
    NoteStoreFailure(result.status());
    return T{};
  }
  void Checked(const Status& status) {
    if (!status.ok()) NoteStoreFailure(status);
  }

  Engine& engine() { return engine_; }
  // A Context writing past history (Engine::RunHistory): AddLog still creates the events
  // of subscribed webhooks, but queues no delivery of them.
  void set_history(bool history) { history_ = history; }
  // The next entity of `resource` this Context inserts without an id takes `id` (once): the
  // seeded account gives a few entities the ids the bank's sandbox account is known by
  // (docs/sandbox.md, "A seeded account").
  void PinNextId(std::string_view resource, std::string id) { pinned_ids_[std::string(resource)] = std::move(id); }

 private:
  void NoteStoreFailure(const Status& status);

  Engine& engine_;
  Caller caller_;
  Lang lang_;
  UnixMicros now_;
  bool history_ = false;
  std::map<std::string, std::string> pinned_ids_;
};

// Error builders. Messages are complete sentences in both languages.
Problem MakeProblem(std::string code, std::string en, std::string pt);
// The "unknown id" problem of a resource: invalid<Single> (invalidInvoice, invalidHolmes),
// or the family's not_found_code.
Problem NotFound(std::string_view resource, std::string_view id);
// Code used when a field is unknown, missing, or the body has the wrong shape.
inline constexpr std::string_view kInvalidJson = "invalidJson";

// Splits "a,b,c" (already percent-decoded) into non-empty items.
std::vector<std::string> SplitList(std::string_view value);

}  // namespace balcao::sandbox::internal
