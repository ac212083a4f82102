// The Engine: owns the EntityStore, the sandbox clock, the registered principals, the sandbox's
// webhook-signing key and the lock that serialises every state change. Requests, jobs and
// simulation actions run through Run(), one SQLite transaction each.
// Thread-safety: all public methods are thread-safe (one mutex). The store's connection is
// opened without SQLite's own locks (SQLITE_OPEN_NOMUTEX) and its statement cache is a plain map:
// two threads on it at once corrupt memory, so store() is reachable only by the thread that holds
// the engine's lock (a Context's, a history's), and anything else goes through a locked method.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "api/crypto.h"
#include "common/sqlite.h"
#include "common/status.h"
#include "sandbox/internal/engine.h"
#include "sandbox/internal/entity_store.h"

namespace balcao::sandbox::internal {

struct EngineOptions {
  std::string db_path = ":memory:";
  std::string public_base_url;  // "http://127.0.0.1:<port>"
  UnixMicros access_time_window = 300 * kMicrosPerSecond;
  std::map<std::string, std::int64_t> fees;  // per operation kind, cents (docs/sandbox.md)
  // Seeds the generator of ids and uuids, so that a fresh database gets the same ids every
  // time (a seeded account); absent: random.
  std::optional<std::uint64_t> random_seed;
  bool undocumented_subscriptions = false;  // SandboxOptions::undocumented_subscriptions
};

struct RegisteredKey {
  Principal principal;
  api::PublicKey key;
};

// The engine's lock (recursive: a job may run inside a request's transaction), which knows which
// thread holds it, so that store() can refuse any other.
class HolderMutex {
 public:
  void lock() {
    mu_.lock();
    if (depth_++ == 0) holder_ = std::this_thread::get_id();
  }
  void unlock() {
    if (--depth_ == 0) holder_ = std::thread::id();
    mu_.unlock();
  }
  bool held_here() const { return holder_.load() == std::this_thread::get_id(); }

 private:
  std::recursive_mutex mu_;
  std::atomic<std::thread::id> holder_{};
  int depth_ = 0;  // guarded by mu_
};

class Engine {
 public:
  static StatusOr<std::unique_ptr<Engine>> Open(EngineOptions options, const api::PrivateKey& signing_key);

  // Runs fn(ctx) in one transaction; commits when it leaves `problems` empty, else rolls
  // back. A store failure inside fn (Context::Checked) or a thrown exception (a bug) rolls
  // back and becomes kInternal.
  Status Run(const Caller& caller, Lang lang, Problems& problems, const std::function<void(Context&)>& fn);

  UnixMicros Now() const;
  // Moves the sandbox clock (never backwards) and runs every job that fell due, in due order.
  Status SetClock(UnixMicros t);
  Status Advance(UnixMicros delta) { return SetClock(Now() + delta); }
  Status RunDueJobs();
  // Writes a past history in one transaction: fn builds its own Contexts at past times and
  // runs the jobs that fall due with RunJobsDueBy. Commits when fn returns OK; an error
  // a store failure or a thrown exception rolls everything back. Nothing is delivered to webhooks.
  Status RunHistory(const std::function<Status()>& fn);
  // Inside RunHistory: runs, in due order, every job due at or before `t` as a job Context
  // at its due time (a history Context: no webhook deliveries).
  Status RunJobsDueBy(UnixMicros t);

  std::optional<RegisteredKey> FindPrincipal(const std::string& access_id) const;
  Status RegisterPrincipal(const Principal& p);

  const api::PrivateKey& signing_key() const { return signing_key_; }
  std::string signing_key_created() const { return signing_key_created_; }
  const EngineOptions& options() const { return options_; }
  std::int64_t Fee(const std::string& kind) const;
  void set_public_base_url(std::string url) { options_.public_base_url = std::move(url); }

  // Webhook deliveries: the sender polls due ones and reports results.
  StatusOr<std::vector<WebhookDelivery>> DueDeliveries(int limit);
  void FinishDelivery(WebhookDelivery d, int http_status, const std::string& error);
  StatusOr<std::vector<WebhookDelivery>> Deliveries(int limit);
  void set_delivery_signal(std::function<void()> fn) { delivery_signal_ = std::move(fn); }

  // Wipes every entity, ledger row, job and delivery (principals and keys stay).
  Status Reset();
  // Public route support: the workspace that owns resource/id, if any.
  StatusOr<std::optional<std::string>> ScopeOf(std::string_view resource, std::string_view id);
  // Public route support: the workspace of the newest resource whose filter key `key` is `value`.
  StatusOr<std::optional<std::string>> ScopeOfKey(std::string_view resource, std::string_view key,
                                                  std::string_view value);
  std::int64_t CountForTest(std::string_view resource);  // -1 when the store fails

  // A metadata value of the store (absent: nullopt) and its update, under the engine's lock.
  StatusOr<std::optional<std::string>> GetMeta(std::string_view key);
  Status SetMeta(std::string_view key, std::string_view value);

  // Used by Context and by history (RunHistory): only with the engine's lock held by this
  // thread; any other call is a bug that would corrupt the connection, and ends the process
  // saying so.
  EntityStore& store();
  // A store call that failed inside a Context (Context::Checked): the first one is kept until
  // the running transaction ends, which then rolls back and answers kInternal.
  void NoteStoreFailure(const Status& status) {
    if (store_failure_.ok()) store_failure_ = status;
  }
  std::string NewId();
  std::string NewUuid();
  void NoteNewDeliveries() { new_deliveries_ = true; }

 private:
  Engine(EngineOptions options, std::unique_ptr<EntityStore> store, const api::PrivateKey& key);
  Status LoadState();  // the clock offset, the key's creation time and the principals
  Status RunLocked(const Caller& caller, Lang lang, UnixMicros now, Problems& problems,
                   const std::function<void(Context&)>& fn);
  // Ends the transaction RunLocked or RunHistory began: commits when nothing failed (persisting
  // the id counter first), else says why (`txn` rolls back as it goes out of scope).
  Status FinishTransaction(sqlite::Txn& txn, Status outcome);
  void Signal();

  EngineOptions options_;
  std::unique_ptr<EntityStore> store_;
  Status store_failure_;  // NoteStoreFailure
  api::PrivateKey signing_key_;
  std::string signing_key_created_;
  mutable HolderMutex mu_;
  UnixMicros clock_offset_ = 0;  // sandbox time = system time + offset
  std::map<std::string, RegisteredKey> principals_;
  std::mt19937_64 rng_;
  bool new_deliveries_ = false;
  std::int64_t id_counter_ = -1;  // persisted (meta "counter:id") when a transaction commits
  bool id_counter_dirty_ = false;
  std::function<void()> delivery_signal_;
};

// "invoice/log" -> ("invoice", true); "invoice" -> ("invoice", false).
std::pair<std::string_view, bool> SplitLogResource(std::string_view resource);
// Filter keys of a document (see docs/sandbox.md "How to add a resource family").
std::vector<IndexKey> IndexKeys(std::string_view resource, const Json& doc);
// Filters a resource's log list takes beyond `types` and its id filter ("tags": the tags of
// the entity each log embeds), as the API documentation lists them.
std::vector<std::string_view> ExtraLogFilters(std::string_view resource);
// Python json.dumps(obj, sort_keys=True) text: ", " and ": " separators, ASCII escapes.
std::string PythonJsonDumps(const Json& value);

}  // namespace balcao::sandbox::internal
