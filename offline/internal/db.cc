// The store's guarded state transition (the SQLite plumbing itself is common/sqlite.cc).
#include "offline/internal/db.h"

#include <string>

namespace balcao::offline::internal {

Status GuardedUpdate(Store::Impl& store, std::string_view table, std::string_view noun, std::int64_t id,
                     std::string_view sql, std::string_view rule, const std::function<void(Stmt&)>& bind) {
  Txn txn(store, Txn::kWrite);
  Stmt stmt(txn, sql);
  stmt.BindAll(id, store.NowMs());
  if (bind) bind(stmt);
  BALCAO_RETURN_IF_ERROR(stmt.Run());
  const std::string name = std::string(noun) + " " + std::to_string(id);
  if (stmt.Changes() == 0) {
    Stmt current(txn, "SELECT state FROM " + std::string(table) + " WHERE id=?1");
    BALCAO_ASSIGN_OR_RETURN(bool found, current.Bind(1, id).Step());
    if (!found) return NotFoundError(name + " does not exist");
    return FailedPreconditionError(name + " is " + current.Text(0) + ": " + std::string(rule));
  }
  return txn.Commit();
}

}  // namespace balcao::offline::internal
