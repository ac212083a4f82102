// Operators on the store; PIN hashing through libsodium (Argon2id).
#include "offline/operators.h"

#include <sodium.h>

#include <algorithm>

#include "common/log.h"
#include "offline/internal/db.h"

namespace balcao::offline {
namespace {

using internal::Stmt;
using internal::Txn;

constexpr const char* kColumns =
    "SELECT id, name, role, disabled, failed_attempts, locked_until, created_at, language FROM operators ";
constexpr std::int64_t kFirstLockMs = 30'000;
constexpr std::int64_t kLongestLockMs = 3'600'000;

StatusOr<Operator> ReadOperator(const Stmt& row) {
  Operator op;
  std::string role;
  row.ReadInto(op.id, op.name, role, op.disabled, op.failed_attempts, op.locked_until_ms, op.created_at_ms,
               op.language);
  BALCAO_ASSIGN_OR_RETURN(op.role, ParseOperatorRole(role));
  return op;
}

Status CheckName(const std::string& name) {
  const bool shape =
      !name.empty() && name.size() <= 40 && name.front() != ' ' && name.back() != ' ' &&
      std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == ' ' || c == '.' || c == '-' || c == '_';
      });
  if (!shape)
    return InvalidArgumentError("name: 1 to 40 letters, digits, spaces, dots, dashes or underscores, not '" + name +
                                "'");
  return OkStatus();
}

// Argon2id at libsodium's "interactive" costs (64 MiB, 2 passes): a fraction of a second on
// the box's CPU per login, which is what slows an offline guesser of a stolen database.
StatusOr<std::string> HashPin(const std::string& pin) {
  if (sodium_init() < 0) return InternalError("libsodium could not start");
  char hash[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str(hash, pin.data(), pin.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                        crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
    return ResourceExhaustedError("not enough memory to hash the PIN (Argon2id needs 64 MiB)");
  return std::string(hash);
}

bool PinMatches(const std::string& hash, const std::string& pin) {
  return sodium_init() >= 0 && crypto_pwhash_str_verify(hash.c_str(), pin.data(), pin.size()) == 0;
}

StatusOr<Operator> GetIn(Txn& txn, const std::string& name, std::string* pin_hash = nullptr) {
  Stmt stmt(txn,
            std::string(kColumns).replace(std::string(kColumns).find(" FROM"), 0, ", pin_hash") + "WHERE name = ?1");
  BALCAO_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, name).Step());
  if (!found) return NotFoundError("no operator named '" + name + "'");
  if (pin_hash) *pin_hash = stmt.Text(8);
  return ReadOperator(stmt);
}

Status UpdateByName(Store& store, const std::string& name, std::string_view sql,
                    const std::function<void(Stmt&)>& bind) {
  Txn txn(store.impl(), Txn::kWrite);
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt stmt(txn, sql);
  stmt.BindAll(name, store.impl().NowMs());
  bind(stmt);
  BALCAO_RETURN_IF_ERROR(stmt.Run());
  if (stmt.Changes() == 0) return NotFoundError("no operator named '" + name + "'");
  return txn.Commit();
}

void LogAttempt(const std::string& name, const char* result) {
  logging::Log(std::string_view(result) == "ok" ? logging::Level::kInfo : logging::Level::kWarning, "operators",
               "PIN attempt", {{"operator", name}, {"result", result}});
}

}  // namespace

const char* OperatorRoleName(OperatorRole role) { return role == OperatorRole::kSupervisor ? "supervisor" : "cashier"; }

StatusOr<OperatorRole> ParseOperatorRole(const std::string& name) {
  if (name == "cashier") return OperatorRole::kCashier;
  if (name == "supervisor") return OperatorRole::kSupervisor;
  return InvalidArgumentError("role: must be cashier or supervisor, not '" + name + "'");
}

Status CheckPin(const std::string& pin, OperatorRole role) {
  const std::size_t min = role == OperatorRole::kSupervisor ? 6 : 4;
  const std::size_t max = role == OperatorRole::kSupervisor ? 12 : 8;
  const bool digits = std::all_of(pin.begin(), pin.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!digits || pin.size() < min || pin.size() > max)
    return InvalidArgumentError(std::string("pin: a ") + OperatorRoleName(role) + "'s PIN is " + std::to_string(min) +
                                " to " + std::to_string(max) + " digits");
  return OkStatus();
}

Operators::Operators(Store& store, const Clock& clock) : store_(store), clock_(clock) {}

StatusOr<Operator> Operators::Add(const std::string& name, OperatorRole role, const std::string& pin) {
  BALCAO_RETURN_IF_ERROR(CheckName(name));
  BALCAO_RETURN_IF_ERROR(CheckPin(pin, role));
  BALCAO_ASSIGN_OR_RETURN(std::string hash, HashPin(pin));
  {
    Txn txn(store_.impl(), Txn::kWrite);
    BALCAO_RETURN_IF_ERROR(txn.status());
    if (GetIn(txn, name).ok()) return AlreadyExistsError("name: an operator named '" + name + "' exists");
    Stmt insert(txn,
                "INSERT INTO operators (name, role, pin_hash, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)");
    BALCAO_RETURN_IF_ERROR(insert.BindAll(name, OperatorRoleName(role), hash, store_.impl().NowMs()).Run());
    BALCAO_RETURN_IF_ERROR(txn.Commit());
  }
  logging::Info("operators", "operator added", {{"operator", name}, {"role", OperatorRoleName(role)}});
  return Get(name);
}

StatusOr<std::vector<Operator>> Operators::List() {
  Txn txn(store_.impl(), Txn::kRead);
  BALCAO_RETURN_IF_ERROR(txn.status());
  Stmt stmt(txn, std::string(kColumns) + "ORDER BY name");
  return sqlite::ReadAll(stmt, ReadOperator);
}

StatusOr<Operator> Operators::Get(const std::string& name) {
  Txn txn(store_.impl(), Txn::kRead);
  BALCAO_RETURN_IF_ERROR(txn.status());
  return GetIn(txn, name);
}

Status Operators::Disable(const std::string& name) {
  BALCAO_RETURN_IF_ERROR(
      UpdateByName(store_, name, "UPDATE operators SET disabled = 1, updated_at = ?2 WHERE name = ?1", [](Stmt&) {}));
  logging::Info("operators", "operator disabled", {{"operator", name}});
  return OkStatus();
}

Status Operators::SetLanguage(const std::string& name, const std::string& language) {
  if (language != "pt-BR" && language != "en-US")
    return InvalidArgumentError("language: pt-BR or en-US, not '" + language + "'");
  return UpdateByName(store_, name, "UPDATE operators SET language = ?3, updated_at = ?2 WHERE name = ?1",
                      [&](Stmt& stmt) { stmt.Bind(3, language); });
}

Status Operators::ResetPin(const std::string& name, const std::string& pin) {
  BALCAO_ASSIGN_OR_RETURN(Operator op, Get(name));
  BALCAO_RETURN_IF_ERROR(CheckPin(pin, op.role));
  BALCAO_ASSIGN_OR_RETURN(std::string hash, HashPin(pin));
  BALCAO_RETURN_IF_ERROR(UpdateByName(store_, name,
                                      "UPDATE operators SET pin_hash = ?3, failed_attempts = 0, locked_until = 0, "
                                      "updated_at = ?2 WHERE name = ?1",
                                      [&hash](Stmt& stmt) { stmt.Bind(3, hash); }));
  logging::Info("operators", "PIN reset", {{"operator", name}});
  return OkStatus();
}

StatusOr<Operator> Operators::Authenticate(const std::string& name, const std::string& pin) {
  const Status refused = PermissionDeniedError("wrong operator or PIN");
  std::string hash;
  Operator op;
  {
    Txn txn(store_.impl(), Txn::kRead);
    BALCAO_RETURN_IF_ERROR(txn.status());
    auto found = GetIn(txn, name, &hash);
    if (!found.ok()) {
      if (found.status().code() != StatusCode::kNotFound) return found.status();
      LogAttempt(name, "unknown-operator");
      return refused;
    }
    op = *found;
  }
  const std::int64_t now = clock_.Now() / 1000;
  if (op.disabled) {
    LogAttempt(name, "disabled");
    return FailedPreconditionError("operator '" + op.name + "' is disabled");
  }
  if (op.locked_until_ms > now) {
    LogAttempt(name, "locked");
    return ResourceExhaustedError("operator '" + op.name + "' is locked after " + std::to_string(op.failed_attempts) +
                                  " wrong PINs; try again in " +
                                  std::to_string((op.locked_until_ms - now + 999) / 1000) + " s");
  }
  // Hashing runs outside the store's lock: other components keep going meanwhile.
  const bool right = PinMatches(hash, pin);
  if (right) {
    BALCAO_RETURN_IF_ERROR(UpdateByName(
        store_, op.name, "UPDATE operators SET failed_attempts = 0, locked_until = 0, updated_at = ?2 WHERE name = ?1",
        [](Stmt&) {}));
    LogAttempt(op.name, "ok");
    op.failed_attempts = 0;
    op.locked_until_ms = 0;
    return op;
  }
  const int failed = op.failed_attempts + 1;
  std::int64_t locked_until = 0;
  if (failed >= kFreeAttempts) {
    const int doublings = std::min(failed - kFreeAttempts, 7);
    locked_until = now + std::min(kFirstLockMs << doublings, kLongestLockMs);
  }
  BALCAO_RETURN_IF_ERROR(UpdateByName(
      store_, op.name,
      "UPDATE operators SET failed_attempts = failed_attempts + 1, locked_until = ?3, updated_at = ?2 WHERE name = ?1",
      [locked_until](Stmt& stmt) { stmt.Bind(3, locked_until); }));
  LogAttempt(op.name, locked_until > 0 ? "wrong-pin-locked" : "wrong-pin");
  return refused;
}

}  // namespace balcao::offline
