// The outbox: requests that must reach the bank exactly once, durable before anything
// is sent. One client-minted key per intent (the transfer's externalId, or the tag put
// on the created entity), so an unknown outcome is resolved by asking the bank before
// anything is resent.
// Crash contract (LevelDB `sync` wording): when Enqueue returns OK the row survives
// power loss; a row is never sent twice without a lookup in between, except PATCH and
// DELETE, which are idempotent and re-sent directly.
// States (docs/style.md S9): pending -> inflight -> done | pending (not sent) | unknown
// (outcome unknown) | failed (the bank said 400) | dead (attempts or age ran out);
// unknown -> done (found) | pending (confirmed absent). Nothing is deleted: failed and
// dead rows stay for the operator (Retry, or Drop with a reason).
// Thread-safety: as Store. The drainer (drainer.h) is the only sender.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "offline/store.h"

namespace balcao::offline {

enum class OutboxState { kPending, kInflight, kUnknown, kDone, kFailed, kDead };
const char* OutboxStateName(OutboxState s);  // "pending", "inflight", ...
std::optional<OutboxState> ParseOutboxState(const std::string& name);

// How the bank is asked whether a request whose outcome is unknown took effect.
enum class LookupBy {
  kExternalId,  // GET lookup_path?externalIds=<value> (transfers)
  kTags,        // GET lookup_path?tags=<value> (invoices, brcodes, sessions, purchases)
  kEntity,      // GET lookup_path (the entity a PATCH/DELETE targets)
};
const char* LookupByName(LookupBy l);  // "external_id", "tags", "entity"

struct OutboxRequest {
  std::string key;     // idempotency key: lowercase [a-z0-9._:/-], 1-128 chars
  std::string kind;    // what it is for the operator: "invoice.create", "event.ack"...
  std::string method;  // POST, PATCH, PUT, DELETE
  std::string path;    // "/v2/invoice", "/v2/event/123"
  std::string body;    // JSON ("" for DELETE)
  LookupBy lookup = LookupBy::kTags;
  std::string lookup_path;   // default: path
  std::string lookup_value;  // default: key
  std::string sale_id;       // rows of one sale are sent in order ("" = on their own)
  std::int64_t amount = 0;   // cents at risk until done
  // The caller already sent this intent and lost the answer (outcome unknown) before handing
  // it over: the row starts `unknown` (possibly at the bank), so the first thing the drainer
  // does, after the settle time, is the lookup; it is sent only if the bank has nothing.
  // Not part of the intent's identity (ignored when comparing with an existing row).
  bool may_have_reached_bank = false;
};

struct OutboxItem {
  std::int64_t id = 0;
  OutboxRequest request;
  OutboxState state = OutboxState::kPending;
  int attempts = 0;           // sends tried
  int lookups = 0;            // lookups tried
  bool reached_bank = false;  // a send may have reached the bank
  bool dropped = false;       // dropped by an operator
  std::int64_t next_attempt_at_ms = 0;
  std::int64_t created_at_ms = 0;
  std::int64_t updated_at_ms = 0;
  std::string last_error;
  int http_status = 0;
  std::string bank_codes;  // "code: message" lines of the bank's 400
  std::string bank_id;
  std::string response;  // the bank's answer once done (JSON)
};

struct OutboxPolicy {
  int max_attempts = 12;                         // sends before dead
  int max_lookups = 50;                          // failed lookups before dead (still unknown!)
  std::int64_t max_age_ms = 72LL * 3600 * 1000;  // not sent after this: dead
  std::int64_t backoff_initial_ms = 1000;
  std::int64_t backoff_max_ms = 5 * 60 * 1000;
  // An unknown outcome is looked up only this long after it became unknown (or after
  // the restart that found it in flight): the first request may still be running at
  // the bank, and a lookup that races it would find nothing and resend. Longer than
  // the client's total timeout.
  std::int64_t unknown_settle_ms = 30'000;
};

// Capped exponential backoff with full jitter in [delay/2, delay]: attempt 1 waits
// about initial, each next one twice as long, up to max. `unit` in [0, 1).
std::int64_t BackoffDelayMs(const OutboxPolicy& policy, int attempt, double unit);

struct OutboxMetrics {
  std::int64_t depth = 0;  // pending + inflight + unknown
  std::int64_t unknown = 0;
  std::int64_t failed = 0;  // failed + dead, not dropped
  std::int64_t dropped = 0;
  std::int64_t oldest_age_ms = 0;   // of the rows still in the queue
  std::int64_t amount_at_risk = 0;  // cents of every row not done and not dropped
};

// What the drainer is told to do with a claimed row.
struct OutboxWork {
  enum Action { kSend, kLookup };
  Action action = kSend;
  OutboxItem item;
};

class Outbox {
 public:
  explicit Outbox(Store& store, OutboxPolicy policy = {});

  // Validates and stores the request. Enqueueing the same key again with the same
  // request returns the existing row's id; with a different request it is
  // kAlreadyExists (a key is one intent). Bodies carrying card data are refused.
  StatusOr<std::int64_t> Enqueue(const OutboxRequest& request);
  // Several requests in one transaction (one sync): all stored, or none.
  StatusOr<std::vector<std::int64_t>> EnqueueAll(const std::vector<OutboxRequest>& requests);
  // The same, plus a journal event of the sale, in one transaction.
  StatusOr<std::int64_t> EnqueueWithJournal(const OutboxRequest& request, std::int64_t journal_seq,
                                            const std::string& journal_kind, const std::string& journal_payload);

  StatusOr<OutboxItem> Get(std::int64_t id);
  StatusOr<OutboxItem> GetByKey(const std::string& key);
  // Newest first; state filter optional; `sale_id` filter when non-empty.
  StatusOr<std::vector<OutboxItem>> List(std::optional<OutboxState> state = std::nullopt, int limit = 100,
                                         const std::string& sale_id = "");
  StatusOr<OutboxMetrics> Metrics();

  // --- the drainer's side. Requires the owner lock (Store::is_owner). ---
  // Rows due at `now_ms`, at most `limit`, never a row whose sale has an earlier row
  // not finished, never one in `busy_lanes` (a lane is the sale id, or the key when
  // there is none). kSend rows are committed as inflight (attempts+1) before this
  // returns; kLookup rows stay unknown. Rows past the age limit go to dead here.
  StatusOr<std::vector<OutboxWork>> ClaimDue(std::int64_t now_ms, int limit,
                                             const std::vector<std::string>& busy_lanes);
  static std::string LaneOf(const OutboxRequest& request);
  // When the next pending/unknown row becomes due (epoch ms); nullopt when none waits.
  StatusOr<std::optional<std::int64_t>> NextDueAtMs();

  // The outcome of a send or a lookup, applied in one transaction.
  Status MarkDone(std::int64_t id, const std::string& bank_id, const std::string& response);
  Status MarkNotSent(std::int64_t id, const std::string& error, double jitter_unit);       // -> pending
  Status MarkUnknown(std::int64_t id, const std::string& error, double jitter_unit);       // -> unknown
  Status MarkFailed(std::int64_t id, const Status& bank_answer);                           // -> failed
  Status MarkAbsent(std::int64_t id);                                                      // unknown -> pending
  Status MarkLookupFailed(std::int64_t id, const std::string& error, double jitter_unit);  // stays unknown

  // --- the operator's side (`balcao queue`). Both are journaled in operator_actions. ---
  // failed/dead -> pending, or unknown when a send may have reached the bank (so the
  // next step is a lookup, never a blind resend). Due now.
  Status Retry(std::int64_t id, const std::string& operator_name, const std::string& reason);
  // Takes a row that is not done out of the queue (dead, dropped), keeping it visible.
  // Refused without a reason, and for a row being sent right now.
  Status Drop(std::int64_t id, const std::string& operator_name, const std::string& reason);

  const OutboxPolicy& policy() const { return policy_; }
  // The store the rows live in; its clock (StoreOptions::clock) says what "now" is for ClaimDue.
  Store& store() const { return store_; }

 private:
  Store& store_;
  OutboxPolicy policy_;
};

}  // namespace balcao::offline
