#include "offline/cash_registers.h"

#include "offline/internal/db.h"

namespace balcao::offline {
namespace {

using internal::Stmt;
using internal::Txn;

constexpr const char* kKeyColumns =
    "SELECT register_id, key_identifier, key_version, derived_keys, created_at, retired_at, disabled FROM pos_keys ";
constexpr const char* kRequestColumns =
    "SELECT register_id, service_id, transaction_id, kind, sale_id, request, outcome, created_at FROM "
    "register_requests ";

PosKey ReadKey(const Stmt& row) {
  return PosKey{row.Text(0), row.Text(1),    static_cast<int>(row.Int(2)), row.Text(3), row.Int(4),
                row.Int(5),  row.Int(6) != 0};
}
RegisterRequestRow ReadRequest(const Stmt& row) {
  return RegisterRequestRow{row.Text(0), row.Text(1), row.Text(2), row.Text(3),
                            row.Text(4), row.Text(5), row.Text(6), row.Int(7)};
}

Status Insert(Txn& txn, const PosKey& key) {
  Stmt insert(txn,
              "INSERT INTO pos_keys (register_id, key_identifier, key_version, derived_keys, created_at) "
              "VALUES (?1, ?2, ?3, ?4, ?5)");
  return insert.BindAll(key.register_id, key.key_identifier, key.key_version, key.derived_keys, key.created_at_ms)
      .Run();
}

}  // namespace

Status CashRegisters::AddRegister(const PosKey& key) {
  Txn txn(store_.impl(), Txn::kWrite);
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt exists(txn, "SELECT 1 FROM pos_keys WHERE register_id = ?1 OR key_identifier = ?2");
  BALCAO_ASSIGN_OR_RETURN(const bool found, exists.BindAll(key.register_id, key.key_identifier).Step());
  if (found) return AlreadyExistsError("cash register '" + key.register_id + "' has a key already (pos rotate)");
  PosKey first = key;
  first.key_version = 1;
  first.created_at_ms = store_.impl().NowMs();
  BALCAO_RETURN_IF_ERROR(Insert(txn, first));
  return txn.Commit();
}

StatusOr<PosKey> CashRegisters::Rotate(const std::string& register_id, const std::string& derived_keys) {
  Txn txn(store_.impl(), Txn::kWrite);
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt latest(txn, std::string(kKeyColumns) + "WHERE register_id = ?1 ORDER BY key_version DESC LIMIT 1");
  BALCAO_ASSIGN_OR_RETURN(const bool found, latest.Bind(1, register_id).Step());
  if (!found) return NotFoundError("no cash register '" + register_id + "'");
  PosKey next = ReadKey(latest);
  if (next.disabled) return FailedPreconditionError("cash register '" + register_id + "' is disabled");
  const std::int64_t now = store_.impl().NowMs();
  Stmt retire(txn, "UPDATE pos_keys SET retired_at = ?2 WHERE register_id = ?1 AND retired_at = 0");
  BALCAO_RETURN_IF_ERROR(retire.BindAll(register_id, now).Run());
  next.key_version += 1;
  next.derived_keys = derived_keys;
  next.created_at_ms = now;
  next.retired_at_ms = 0;
  BALCAO_RETURN_IF_ERROR(Insert(txn, next));
  BALCAO_RETURN_IF_ERROR(txn.Commit());
  return next;
}

Status CashRegisters::Disable(const std::string& register_id) {
  BALCAO_ASSIGN_OR_RETURN(
      const int disabled,
      internal::RunWrite(store_.impl(), "UPDATE pos_keys SET disabled = 1 WHERE register_id = ?1", register_id));
  if (disabled == 0) return NotFoundError("no cash register '" + register_id + "'");
  return OkStatus();
}

StatusOr<std::vector<PosKey>> CashRegisters::List() {
  Txn txn(store_.impl(), Txn::kRead);
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt select(txn, std::string(kKeyColumns) + "ORDER BY register_id, key_version");
  return sqlite::ReadAll(select, ReadKey);
}

StatusOr<PosKey> CashRegisters::FindKey(const std::string& key_identifier, int key_version) {
  Txn txn(store_.impl(), Txn::kRead);
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt select(txn, std::string(kKeyColumns) + "WHERE key_identifier = ?1 AND key_version = ?2");
  BALCAO_ASSIGN_OR_RETURN(const bool found, select.BindAll(key_identifier, key_version).Step());
  if (!found) return NotFoundError("no key " + key_identifier + " version " + std::to_string(key_version));
  return ReadKey(select);
}

Status CashRegisters::RememberNonce(const std::string& key_identifier, const std::string& nonce) {
  BALCAO_ASSIGN_OR_RETURN(
      const int remembered,
      internal::RunWrite(store_.impl(),
                         "INSERT OR IGNORE INTO pos_nonces (key_identifier, nonce, seen_at) VALUES (?1, ?2, ?3)",
                         key_identifier, nonce, store_.impl().NowMs()));
  if (remembered == 0) return AlreadyExistsError("SecurityTrailer.Nonce: already used (a replayed message)");
  return OkStatus();
}

Status CashRegisters::BeginRequest(const RegisterRequestRow& row) {
  BALCAO_ASSIGN_OR_RETURN(
      const int begun,
      internal::RunWrite(store_.impl(),
                         "INSERT OR IGNORE INTO register_requests (register_id, service_id, transaction_id, kind, "
                         "sale_id, request, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                         row.register_id, row.service_id, row.transaction_id, row.kind, row.sale_id, row.request,
                         store_.impl().NowMs()));
  if (begun == 0) return AlreadyExistsError("request " + row.register_id + "/" + row.service_id + " was seen before");
  return OkStatus();
}

StatusOr<RegisterRequestRow> CashRegisters::FindRequest(const std::string& register_id, const std::string& service_id) {
  Txn txn(store_.impl(), Txn::kRead);
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt select(txn, std::string(kRequestColumns) + "WHERE register_id = ?1 AND service_id = ?2");
  BALCAO_ASSIGN_OR_RETURN(const bool found, select.BindAll(register_id, service_id).Step());
  if (!found) return NotFoundError("no request " + register_id + "/" + service_id);
  return ReadRequest(select);
}

StatusOr<RegisterRequestRow> CashRegisters::FindPaymentOfSale(const std::string& sale_id) {
  Txn txn(store_.impl(), Txn::kRead);
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt select(txn, std::string(kRequestColumns) + "WHERE sale_id = ?1 AND kind = 'payment'");
  BALCAO_ASSIGN_OR_RETURN(const bool found, select.Bind(1, sale_id).Step());
  if (!found) return NotFoundError("no cash-register payment made sale " + sale_id);
  return ReadRequest(select);
}

Status CashRegisters::SetSale(const std::string& register_id, const std::string& service_id,
                              const std::string& sale_id) {
  return internal::RunWrite(store_.impl(),
                            "UPDATE register_requests SET sale_id = ?3 WHERE register_id = ?1 AND service_id = ?2",
                            register_id, service_id, sale_id)
      .status();
}

Status CashRegisters::Finish(const std::string& register_id, const std::string& service_id,
                             const std::string& outcome) {
  return internal::RunWrite(store_.impl(),
                            "UPDATE register_requests SET outcome = ?3, finished_at = ?4 WHERE register_id = ?1 AND "
                            "service_id = ?2 AND outcome = ''",
                            register_id, service_id, outcome, store_.impl().NowMs())
      .status();
}

StatusOr<std::vector<RegisterRequestRow>> CashRegisters::Running(const std::string& kind) {
  Txn txn(store_.impl(), Txn::kRead);
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt select(txn, std::string(kRequestColumns) + "WHERE kind = ?1 AND outcome = '' ORDER BY created_at");
  select.Bind(1, kind);
  return sqlite::ReadAll(select, ReadRequest);
}

}  // namespace balcao::offline
