// The box's operators: cashiers who sell and supervisors who approve money going back
// (docs/security.md, "Operators"). A PIN is kept only as an Argon2id hash with a per-operator
// salt (libsodium crypto_pwhash_str, docs/adr/0004-operator-pins.md); it is never logged.
// Five wrong PINs in a row lock the operator, for 30 s doubling with every further wrong PIN
// up to an hour; while locked, even the right PIN is refused (and not checked: a locked
// operator costs no hashing). Every attempt is in the operator log, by name and outcome.
// Thread-safety: as Store.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "common/time.h"
#include "offline/store.h"

namespace balcao::offline {

enum class OperatorRole { kCashier, kSupervisor };
const char* OperatorRoleName(OperatorRole role);  // "cashier", "supervisor"
StatusOr<OperatorRole> ParseOperatorRole(const std::string& name);

struct Operator {
  std::int64_t id = 0;
  std::string name;
  OperatorRole role = OperatorRole::kCashier;
  bool disabled = false;
  int failed_attempts = 0;
  std::int64_t locked_until_ms = 0;  // 0: not locked
  std::int64_t created_at_ms = 0;
  std::string language;  // the touchscreen's language they chose: "pt-BR", "en-US"; "" not yet
};

// The PIN rules: digits only; a cashier's 4 to 8, a supervisor's 6 to 12.
// kInvalidArgument naming "pin" and the rule.
Status CheckPin(const std::string& pin, OperatorRole role);

inline constexpr int kFreeAttempts = 5;  // wrong PINs before the first lock

class Operators {
 public:
  // `clock` times the locks (the store's own timestamps stay the store's).
  explicit Operators(Store& store, const Clock& clock = SystemClock::Instance());

  // kInvalidArgument (name: 1 to 40 letters, digits, space, dot, dash, underscore; the PIN
  // rules), kAlreadyExists (the name, any case).
  StatusOr<Operator> Add(const std::string& name, OperatorRole role, const std::string& pin);
  StatusOr<std::vector<Operator>> List();
  StatusOr<Operator> Get(const std::string& name);  // kNotFound
  Status Disable(const std::string& name);
  // A new PIN; also clears the wrong-PIN count and the lock.
  Status ResetPin(const std::string& name, const std::string& pin);
  // Remembers the screen's language the operator chose. kInvalidArgument naming "language"
  // for anything but "pt-BR" and "en-US"; kNotFound for no such operator.
  Status SetLanguage(const std::string& name, const std::string& language);

  // The operator when `pin` is theirs. kPermissionDenied for an unknown name or a wrong PIN
  // (the same message: a name is not confirmed to a guesser); kFailedPrecondition when
  // disabled; kResourceExhausted while locked, naming the seconds left.
  StatusOr<Operator> Authenticate(const std::string& name, const std::string& pin);

 private:
  Store& store_;
  const Clock& clock_;
};

}  // namespace balcao::offline
