// The outbox on the store: validation, the state machine, operator actions.
#include "offline/outbox.h"

#include <algorithm>
#include <cmath>

#include "offline/card_scan.h"
#include "offline/internal/db.h"
#include "offline/internal/journal_rows.h"

namespace balcao::offline {
namespace {

using internal::Stmt;
using internal::Txn;

constexpr const char* kSelect =
    "SELECT id, key, kind, method, path, body, lookup, lookup_path, lookup_value, sale_id, amount, state, attempts, "
    "lookups, reached_bank, dropped, next_attempt_at, created_at, updated_at, last_error, http_status, bank_codes, "
    "bank_id, response FROM outbox ";

constexpr OutboxState kAllStates[] = {OutboxState::kPending, OutboxState::kInflight, OutboxState::kUnknown,
                                      OutboxState::kDone,    OutboxState::kFailed,   OutboxState::kDead};

std::optional<LookupBy> ParseLookup(const std::string& s) {
  for (auto l : {LookupBy::kExternalId, LookupBy::kTags, LookupBy::kEntity})
    if (s == LookupByName(l)) return l;
  return std::nullopt;
}

StatusOr<OutboxItem> ReadItem(const Stmt& row) {
  OutboxItem item;
  OutboxRequest& r = item.request;
  std::string lookup_name, state_name;
  row.ReadInto(item.id, r.key, r.kind, r.method, r.path, r.body, lookup_name, r.lookup_path, r.lookup_value, r.sale_id,
               r.amount, state_name, item.attempts, item.lookups, item.reached_bank, item.dropped,
               item.next_attempt_at_ms, item.created_at_ms, item.updated_at_ms, item.last_error, item.http_status,
               item.bank_codes, item.bank_id, item.response);
  auto lookup = ParseLookup(lookup_name);
  auto state = ParseOutboxState(state_name);
  if (!lookup || !state) return InternalError("outbox row " + std::to_string(item.id) + " has an unknown state/lookup");
  r.lookup = *lookup;
  item.state = *state;
  return item;
}

bool IsKeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == ':' || c == '/' || c == '-';
}

// Fills defaults and checks every field; the error names the field and the rule.
StatusOr<OutboxRequest> Validate(OutboxRequest r) {
  if (r.key.empty() || r.key.size() > 128 || !std::all_of(r.key.begin(), r.key.end(), IsKeyChar))
    return InvalidArgumentError("outbox key: must be 1-128 characters of [a-z0-9._:/-] (the bank lowercases tags)");
  if (r.kind.empty()) return InvalidArgumentError("outbox kind: must not be empty");
  if (r.method != "POST" && r.method != "PATCH" && r.method != "PUT" && r.method != "DELETE")
    return InvalidArgumentError("outbox method: must be POST, PATCH, PUT or DELETE (reads are never queued)");
  auto valid_path = [](const std::string& p) {
    return p.starts_with("/v2/") && p.find_first_of(" ?#\r\n") == std::string::npos;
  };
  if (!valid_path(r.path)) return InvalidArgumentError("outbox path: must start with /v2/ and carry no query");
  if (r.lookup_path.empty()) r.lookup_path = r.path;
  if (r.lookup_value.empty()) r.lookup_value = r.key;
  if (!valid_path(r.lookup_path))
    return InvalidArgumentError("outbox lookup_path: must start with /v2/ and carry no query");
  const bool by_entity = r.lookup == LookupBy::kEntity;
  if (r.method == "POST" && by_entity)
    return InvalidArgumentError("outbox lookup: a POST create is looked up by tags or externalId, not by entity");
  if ((r.method == "PATCH" || r.method == "DELETE") && !by_entity)
    return InvalidArgumentError("outbox lookup: a PATCH or DELETE is checked by reading its entity");
  if (r.method == "DELETE" ? !r.body.empty() : r.body.empty())
    return InvalidArgumentError("outbox body: required for POST, PATCH and PUT; empty for DELETE");
  if (!r.body.empty()) BALCAO_RETURN_IF_ERROR(RejectCardData(r.body, "outbox body"));
  if (r.amount < 0) return InvalidArgumentError("outbox amount: cents must be >= 0");
  return r;
}

bool SameRequest(const OutboxRequest& a, const OutboxRequest& b) {
  return a.key == b.key && a.kind == b.kind && a.method == b.method && a.path == b.path && a.body == b.body &&
         a.lookup == b.lookup && a.lookup_path == b.lookup_path && a.lookup_value == b.lookup_value &&
         a.sale_id == b.sale_id && a.amount == b.amount;
}

StatusOr<std::int64_t> InsertRequest(Txn& txn, const OutboxRequest& request, std::int64_t settle_ms) {
  BALCAO_ASSIGN_OR_RETURN(OutboxRequest r, Validate(request));
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt existing(txn, std::string(kSelect) + "WHERE key=?1");
  BALCAO_ASSIGN_OR_RETURN(bool found, existing.Bind(1, r.key).Step());
  if (found) {
    BALCAO_ASSIGN_OR_RETURN(OutboxItem item, ReadItem(existing));
    if (SameRequest(item.request, r)) return item.id;
    return AlreadyExistsError("outbox key " + r.key + " is already used by a different request (one key per intent)");
  }
  const std::int64_t now = internal::StoreOf(txn).NowMs();
  const bool unknown = r.may_have_reached_bank;  // look up (after the settle time) before any send
  Stmt insert(txn,
              "INSERT INTO outbox (key, kind, method, path, body, lookup, lookup_path, lookup_value, sale_id, amount, "
              "state, reached_bank, next_attempt_at, created_at, updated_at) "
              "VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?12,?13,?14,?11,?11) RETURNING id");
  insert.BindAll(r.key, r.kind, r.method, r.path, r.body);
  insert.BindFrom(6, LookupByName(r.lookup), r.lookup_path, r.lookup_value, r.sale_id);
  insert.BindFrom(10, r.amount, now, std::string(unknown ? "unknown" : "pending"));
  insert.BindFrom(13, static_cast<std::int64_t>(unknown ? 1 : 0), unknown ? now + settle_ms : now);
  BALCAO_ASSIGN_OR_RETURN(bool row, insert.Step());
  if (!row) return InternalError("outbox insert returned no id");
  const std::int64_t id = insert.Int(0);
  BALCAO_RETURN_IF_ERROR(insert.Run());
  return id;
}

// One guarded state transition of outbox row `id` (see internal::GuardedUpdate).
template <typename Bind>
Status Transition(Store& store, std::int64_t id, const std::string& sql, const char* rule, Bind bind) {
  return internal::GuardedUpdate(store.impl(), "outbox", "outbox row", id, sql, rule, bind);
}

// The transitions of a try that did not settle an outbox row: each binds ?3 the row's next
// state (`again` for another try, dead once its tries are spent), ?4 its last error and ?5 the
// delay before the next try.
struct FailedTry {
  const char* sql;
  const char* rule;  // why a row in another state cannot take it
  const char* again;
};
// A send that did not reach the bank: sent again after the backoff.
constexpr FailedTry kNotSent = {
    "UPDATE outbox SET state=?3, last_error=?4, next_attempt_at=?2+?5, updated_at=?2 WHERE id=?1 AND state='inflight'",
    "only a row being sent can be marked not sent", "pending"};
// A lookup found nothing at the bank: sent again at once with the same key.
constexpr FailedTry kAbsent = {
    "UPDATE outbox SET state=?3, lookups=lookups+1, last_error=?4, next_attempt_at=?2+?5, updated_at=?2 "
    "WHERE id=?1 AND state='unknown'",
    "only a row whose outcome is unknown can be found absent", "pending"};
// A lookup that failed: looked up again after the backoff.
constexpr FailedTry kLookupFailed = {
    "UPDATE outbox SET state=?3, lookups=lookups+1, last_error=?4, next_attempt_at=?2+?5, updated_at=?2 "
    "WHERE id=?1 AND state='unknown'",
    "only a row whose outcome is unknown can be looked up", "unknown"};

Status AfterFailedTry(Store& store, std::int64_t id, const FailedTry& t, bool spent, const std::string& error,
                      std::int64_t delay_ms) {
  return Transition(store, id, t.sql, t.rule,
                    [&](Stmt& s) { s.BindFrom(3, spent ? "dead" : t.again, error, delay_ms); });
}

}  // namespace

const char* OutboxStateName(OutboxState s) {
  switch (s) {
    case OutboxState::kPending:
      return "pending";
    case OutboxState::kInflight:
      return "inflight";
    case OutboxState::kUnknown:
      return "unknown";
    case OutboxState::kDone:
      return "done";
    case OutboxState::kFailed:
      return "failed";
    case OutboxState::kDead:
      return "dead";
  }
  return "?";
}

std::optional<OutboxState> ParseOutboxState(const std::string& name) {
  for (auto s : kAllStates)
    if (name == OutboxStateName(s)) return s;
  return std::nullopt;
}

const char* LookupByName(LookupBy l) {
  switch (l) {
    case LookupBy::kExternalId:
      return "external_id";
    case LookupBy::kTags:
      return "tags";
    case LookupBy::kEntity:
      return "entity";
  }
  return "?";
}

std::int64_t BackoffDelayMs(const OutboxPolicy& policy, int attempt, double unit) {
  const int doublings = std::clamp(attempt - 1, 0, 40);
  const double uncapped = static_cast<double>(policy.backoff_initial_ms) * std::ldexp(1.0, doublings);
  const double delay = std::min(uncapped, static_cast<double>(policy.backoff_max_ms));
  return static_cast<std::int64_t>(delay * (0.5 + 0.5 * std::clamp(unit, 0.0, 1.0)));
}

Outbox::Outbox(Store& store, OutboxPolicy policy) : store_(store), policy_(policy) {}

std::string Outbox::LaneOf(const OutboxRequest& request) {
  return request.sale_id.empty() ? "key:" + request.key : "sale:" + request.sale_id;
}

StatusOr<std::int64_t> Outbox::Enqueue(const OutboxRequest& request) {
  Txn txn(store_.impl(), Txn::kWrite);
  BALCAO_ASSIGN_OR_RETURN(std::int64_t id, InsertRequest(txn, request, policy_.unknown_settle_ms));
  BALCAO_RETURN_IF_ERROR(txn.Commit());
  return id;
}

StatusOr<std::vector<std::int64_t>> Outbox::EnqueueAll(const std::vector<OutboxRequest>& requests) {
  Txn txn(store_.impl(), Txn::kWrite);
  std::vector<std::int64_t> ids;
  ids.reserve(requests.size());
  for (const OutboxRequest& r : requests) {
    auto id = InsertRequest(txn, r, policy_.unknown_settle_ms);
    if (!id.ok())
      return Status(id.status().code(),
                    "request " + std::to_string(ids.size()) + " (" + r.key + "): " + id.status().message());
    ids.push_back(*id);
  }
  BALCAO_RETURN_IF_ERROR(txn.Commit());
  return ids;
}

StatusOr<std::int64_t> Outbox::EnqueueWithJournal(const OutboxRequest& request, std::int64_t journal_seq,
                                                  const std::string& journal_kind, const std::string& journal_payload) {
  if (request.sale_id.empty()) return InvalidArgumentError("outbox sale_id: required to journal with the sale");
  Txn txn(store_.impl(), Txn::kWrite);
  BALCAO_RETURN_IF_ERROR(internal::AppendJournal(txn, request.sale_id, journal_seq, journal_kind, journal_payload));
  BALCAO_ASSIGN_OR_RETURN(std::int64_t id, InsertRequest(txn, request, policy_.unknown_settle_ms));
  BALCAO_RETURN_IF_ERROR(txn.Commit());
  return id;
}

StatusOr<OutboxItem> Outbox::Get(std::int64_t id) {
  Txn txn(store_.impl(), Txn::kRead);
  Stmt stmt(txn, std::string(kSelect) + "WHERE id=?1");
  BALCAO_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, id).Step());
  if (!found) return NotFoundError("outbox row " + std::to_string(id) + " does not exist");
  return ReadItem(stmt);
}

StatusOr<OutboxItem> Outbox::GetByKey(const std::string& key) {
  Txn txn(store_.impl(), Txn::kRead);
  Stmt stmt(txn, std::string(kSelect) + "WHERE key=?1");
  BALCAO_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, key).Step());
  if (!found) return NotFoundError("outbox key " + key + " does not exist");
  return ReadItem(stmt);
}

StatusOr<std::vector<OutboxItem>> Outbox::List(std::optional<OutboxState> state, int limit,
                                               const std::string& sale_id) {
  if (limit < 1) return InvalidArgumentError("outbox list limit: must be at least 1");
  Txn txn(store_.impl(), Txn::kRead);
  Stmt stmt(txn,
            std::string(kSelect) + "WHERE (?1='' OR state=?1) AND (?2='' OR sale_id=?2) ORDER BY id DESC LIMIT ?3");
  stmt.BindAll(state ? OutboxStateName(*state) : "", sale_id, limit);
  return sqlite::ReadAll(stmt, ReadItem);
}

StatusOr<OutboxMetrics> Outbox::Metrics() {
  Txn txn(store_.impl(), Txn::kRead);
  Stmt stmt(txn,
            "SELECT "
            " count(*) FILTER (WHERE state IN ('pending','inflight','unknown')),"
            " count(*) FILTER (WHERE state='unknown'),"
            " count(*) FILTER (WHERE state IN ('failed','dead') AND dropped=0),"
            " count(*) FILTER (WHERE dropped=1),"
            " coalesce(min(created_at) FILTER (WHERE state IN ('pending','inflight','unknown')), 0),"
            " coalesce(sum(amount) FILTER (WHERE state<>'done' AND dropped=0), 0) "
            "FROM outbox");
  BALCAO_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return InternalError("outbox metrics returned no row");
  OutboxMetrics m;
  std::int64_t oldest_created_ms = 0;
  stmt.ReadInto(m.depth, m.unknown, m.failed, m.dropped, oldest_created_ms, m.amount_at_risk);
  m.oldest_age_ms = oldest_created_ms == 0 ? 0 : std::max<std::int64_t>(0, store_.impl().NowMs() - oldest_created_ms);
  return m;
}

StatusOr<std::vector<OutboxWork>> Outbox::ClaimDue(std::int64_t now_ms, int limit,
                                                   const std::vector<std::string>& busy_lanes) {
  if (!store_.is_owner()) return FailedPreconditionError("only the store's owner may send (Store::is_owner)");
  Txn txn(store_.impl(), Txn::kWrite);
  // Age limit: a request never sent (or confirmed absent) that is too old goes to
  // dead; an unknown one is still looked up (its outcome must be learnt first).
  Stmt expire(txn,
              "UPDATE outbox SET state='dead', updated_at=?1, "
              "last_error='not sent within the age limit; ' || last_error WHERE state='pending' AND created_at<?2");
  BALCAO_RETURN_IF_ERROR(expire.BindAll(now_ms, now_ms - policy_.max_age_ms).Run());

  Stmt due(txn, std::string(kSelect) +
                    "AS o WHERE o.state IN ('pending','unknown') AND o.next_attempt_at<=?1 "
                    "AND (o.state='pending' OR o.updated_at+?3<=?1) AND (o.sale_id='' OR NOT "
                    "EXISTS (SELECT 1 FROM outbox p WHERE p.sale_id=o.sale_id AND p.id<o.id AND p.state IN "
                    "('pending','inflight','unknown'))) ORDER BY o.next_attempt_at, o.id LIMIT ?2");
  due.BindAll(now_ms, limit + static_cast<std::int64_t>(busy_lanes.size()), policy_.unknown_settle_ms);
  BALCAO_ASSIGN_OR_RETURN(std::vector<OutboxItem> candidates, sqlite::ReadAll(due, ReadItem));

  std::vector<OutboxWork> work;
  for (OutboxItem& item : candidates) {
    if (static_cast<int>(work.size()) >= limit) break;
    if (std::find(busy_lanes.begin(), busy_lanes.end(), LaneOf(item.request)) != busy_lanes.end()) continue;
    // PATCH and DELETE are idempotent: an unknown one is simply sent again.
    const bool lookup_first = item.state == OutboxState::kUnknown && item.request.lookup != LookupBy::kEntity;
    if (lookup_first) {
      work.push_back({OutboxWork::kLookup, std::move(item)});
      continue;
    }
    Stmt claim(txn, "UPDATE outbox SET state='inflight', attempts=attempts+1, updated_at=?2 WHERE id=?1");
    BALCAO_RETURN_IF_ERROR(claim.BindAll(item.id, now_ms).Run());
    item.state = OutboxState::kInflight;
    item.attempts += 1;
    item.updated_at_ms = now_ms;
    work.push_back({OutboxWork::kSend, std::move(item)});
  }
  BALCAO_RETURN_IF_ERROR(txn.Commit());  // the inflight claims are durable before any send
  return work;
}

StatusOr<std::optional<std::int64_t>> Outbox::NextDueAtMs() {
  Txn txn(store_.impl(), Txn::kRead);
  Stmt stmt(txn,
            "SELECT min(CASE WHEN state='unknown' THEN max(next_attempt_at, updated_at+?1) ELSE next_attempt_at END) "
            "FROM outbox WHERE state IN ('pending','unknown')");
  BALCAO_ASSIGN_OR_RETURN(bool row, stmt.Bind(1, policy_.unknown_settle_ms).Step());
  if (!row || stmt.IsNull(0)) return std::optional<std::int64_t>();
  return std::optional<std::int64_t>(stmt.Int(0));
}

Status Outbox::MarkDone(std::int64_t id, const std::string& bank_id, const std::string& response) {
  return Transition(store_, id,
                    "UPDATE outbox SET lookups=lookups+(state='unknown'), state='done', bank_id=?3, response=?4, "
                    "last_error='', updated_at=?2 WHERE id=?1 AND state IN ('inflight','unknown')",
                    "only a row being sent or looked up can be done",
                    [&](Stmt& s) { s.BindFrom(3, bank_id, response); });
}

Status Outbox::MarkNotSent(std::int64_t id, const std::string& error, double jitter_unit) {
  BALCAO_ASSIGN_OR_RETURN(OutboxItem item, Get(id));
  const bool spent = item.attempts >= policy_.max_attempts;
  return AfterFailedTry(store_, id, kNotSent, spent,
                        spent ? "not sent after " + std::to_string(item.attempts) + " attempts: " + error : error,
                        BackoffDelayMs(policy_, item.attempts, jitter_unit));
}

Status Outbox::MarkUnknown(std::int64_t id, const std::string& error, double jitter_unit) {
  BALCAO_ASSIGN_OR_RETURN(OutboxItem item, Get(id));
  const std::int64_t delay = BackoffDelayMs(policy_, item.attempts, jitter_unit);
  return Transition(store_, id,
                    "UPDATE outbox SET state='unknown', reached_bank=1, last_error=?3, next_attempt_at=?2+?4, "
                    "updated_at=?2 WHERE id=?1 AND state IN ('inflight','unknown')",
                    "only a row being sent can have an unknown outcome", [&](Stmt& s) { s.BindFrom(3, error, delay); });
}

Status Outbox::MarkFailed(std::int64_t id, const Status& bank_answer) {
  std::string codes;
  for (const ErrorEntry& e : bank_answer.errors()) codes += e.code + ": " + e.message + "\n";
  return Transition(store_, id,
                    "UPDATE outbox SET state='failed', http_status=?3, bank_codes=?4, last_error=?5, updated_at=?2 "
                    "WHERE id=?1 AND state IN ('inflight','unknown')",
                    "only a row being sent can fail",
                    [&](Stmt& s) { s.BindFrom(3, bank_answer.http_status(), codes, bank_answer.ToString()); });
}

Status Outbox::MarkAbsent(std::int64_t id) {
  BALCAO_ASSIGN_OR_RETURN(OutboxItem item, Get(id));
  const bool spent = item.attempts >= policy_.max_attempts;
  return AfterFailedTry(
      store_, id, kAbsent, spent,
      spent ? "the bank has no trace of it after " + std::to_string(item.attempts) + " attempts; " + item.last_error
            : "the bank has no trace of it: sending again with the same key",
      0);
}

Status Outbox::MarkLookupFailed(std::int64_t id, const std::string& error, double jitter_unit) {
  BALCAO_ASSIGN_OR_RETURN(OutboxItem item, Get(id));
  const int lookup = item.lookups + 1;
  const bool spent = lookup >= policy_.max_lookups;
  return AfterFailedTry(store_, id, kLookupFailed, spent,
                        (spent ? "OUTCOME UNKNOWN, lookups exhausted, check the bank: " : "lookup: ") + error,
                        BackoffDelayMs(policy_, lookup, jitter_unit));
}

}  // namespace balcao::offline
