// The operator's side of the outbox (`balcao queue retry|drop`): every action is
// journaled in operator_actions with who did it and why.
#include "offline/internal/db.h"
#include "offline/outbox.h"

namespace balcao::offline {
namespace {

using internal::Stmt;
using internal::Txn;

Status RecordAction(Txn& txn, const char* action, std::int64_t id, const std::string& operator_name,
                    const std::string& reason) {
  Stmt stmt(txn, "INSERT INTO operator_actions (at, action, target, operator, reason) VALUES (?1, ?2, ?3, ?4, ?5)");
  return stmt.BindAll(internal::StoreOf(txn).NowMs(), action, "outbox:" + std::to_string(id), operator_name, reason)
      .Run();
}

bool Blank(const std::string& s) { return s.find_first_not_of(" \t\r\n") == std::string::npos; }

}  // namespace

Status Outbox::Retry(std::int64_t id, const std::string& operator_name, const std::string& reason) {
  Txn txn(store_.impl(), Txn::kWrite);
  Stmt stmt(txn,
            "UPDATE outbox SET state=CASE WHEN reached_bank=1 AND state='dead' THEN 'unknown' ELSE 'pending' END, "
            "attempts=0, lookups=0, dropped=0, next_attempt_at=?2, updated_at=?2 "
            "WHERE id=?1 AND state IN ('failed','dead')");
  BALCAO_RETURN_IF_ERROR(stmt.BindAll(id, store_.impl().NowMs()).Run());
  if (stmt.Changes() == 0) {
    BALCAO_ASSIGN_OR_RETURN(bool found, Stmt(txn, "SELECT 1 FROM outbox WHERE id=?1").Bind(1, id).Step());
    if (!found) return NotFoundError("outbox row " + std::to_string(id) + " does not exist");
    return FailedPreconditionError("outbox row " + std::to_string(id) + ": only failed or dead rows can be retried");
  }
  BALCAO_RETURN_IF_ERROR(RecordAction(txn, "retry", id, operator_name, Blank(reason) ? "operator retry" : reason));
  return txn.Commit();
}

Status Outbox::Drop(std::int64_t id, const std::string& operator_name, const std::string& reason) {
  if (Blank(reason)) return InvalidArgumentError("drop reason: required (it is journaled with the drop)");
  Txn txn(store_.impl(), Txn::kWrite);
  Stmt stmt(txn,
            "UPDATE outbox SET state='dead', dropped=1, last_error='dropped by ' || ?3 || ': ' || ?4 || "
            "CASE WHEN reached_bank=1 THEN ' (it may have reached the bank)' ELSE '' END, updated_at=?2 "
            "WHERE id=?1 AND state IN ('pending','unknown','failed','dead') AND dropped=0");
  stmt.BindAll(id, store_.impl().NowMs(), operator_name.empty() ? "operator" : operator_name);
  BALCAO_RETURN_IF_ERROR(stmt.Bind(4, reason).Run());
  if (stmt.Changes() == 0) {
    Stmt current(txn, "SELECT state, dropped FROM outbox WHERE id=?1");
    BALCAO_ASSIGN_OR_RETURN(bool found, current.Bind(1, id).Step());
    if (!found) return NotFoundError("outbox row " + std::to_string(id) + " does not exist");
    return FailedPreconditionError("outbox row " + std::to_string(id) + " is " + current.Text(0) +
                                   (current.Int(1) ? " (already dropped)" : "") +
                                   ": only a row not done and not being sent can be dropped");
  }
  BALCAO_RETURN_IF_ERROR(RecordAction(txn, "drop", id, operator_name, reason));
  return txn.Commit();
}

}  // namespace balcao::offline
