// `balcao operator`: the box's operators (offline/operators.h), managed as root on the box.
//   balcao operator add NAME --role cashier|supervisor   PIN asked twice on the terminal
//   balcao operator list [--json]                       (or one line on stdin when piped)
//   balcao operator disable NAME
//   balcao operator reset-pin NAME
// The store is the box's (FindBox: --db, $BALCAO_DB, the config's data_dir). A PIN never
// goes on the command line (it would be in the shell history and in /proc for all to read).
// Exit: 0 done, 1 refused (bad name or PIN, unknown operator), 2 errors.
#include <termios.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/time.h"
#include "offline/operators.h"
#include "terminal/command.h"
#include "terminal/internal/subcommand_args.h"

namespace balcao::terminal {
namespace {

constexpr const char* kUsage =
    "usage: balcao operator <add NAME --role cashier|supervisor | list [--json] | disable NAME | reset-pin NAME>\n"
    "                       [--db FILE] [--config FILE]\n"
    "  add        a new operator; the PIN is asked on the terminal (twice), or read as one line\n"
    "             from stdin when it is not a terminal. Cashiers: 4 to 8 digits; supervisors: 6 to 12.\n"
    "  list       every operator: role, disabled, locked\n"
    "  disable    the operator can no longer log in (their past actions keep their name)\n"
    "  reset-pin  a new PIN (asked as for add); clears a lock\n"
    "The store is --db FILE, else $BALCAO_DB, else the data_dir of the box's config.\n";

int Fail(int code, const std::string& message) {
  std::fprintf(stderr, "balcao operator: %s\n", message.c_str());
  return code;
}

int FailWith(const Status& status) {
  const bool refused = status.code() == StatusCode::kInvalidArgument || status.code() == StatusCode::kNotFound ||
                       status.code() == StatusCode::kAlreadyExists;
  return Fail(refused ? 1 : 2, status.message());
}

// One line from the terminal with echo off, or from stdin as it comes.
StatusOr<std::string> ReadSecretLine(const char* prompt) {
  const bool tty = ::isatty(STDIN_FILENO) == 1;
  termios saved{};
  if (tty) {
    std::fputs(prompt, stderr);
    std::fflush(stderr);
    ::tcgetattr(STDIN_FILENO, &saved);
    termios quiet = saved;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
  }
  std::string line;
  const bool got = static_cast<bool>(std::getline(std::cin, line));
  if (tty) {
    ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    std::fputc('\n', stderr);
  }
  if (!got) return InvalidArgumentError("pin: none was given (stdin ended)");
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

StatusOr<std::string> AskNewPin() {
  BALCAO_ASSIGN_OR_RETURN(std::string pin, ReadSecretLine("PIN: "));
  if (::isatty(STDIN_FILENO) == 1) {
    BALCAO_ASSIGN_OR_RETURN(std::string again, ReadSecretLine("PIN again: "));
    if (again != pin) return InvalidArgumentError("pin: the two entries differ");
  }
  return pin;
}

std::string LockText(const offline::Operator& op, std::int64_t now_ms) {
  if (op.locked_until_ms <= now_ms) return "";
  return "locked " + std::to_string((op.locked_until_ms - now_ms + 999) / 1000) + " s";
}

int List(offline::Operators& operators, bool as_json) {
  auto list = operators.List();
  if (!list.ok()) return FailWith(list.status());
  const std::int64_t now_ms = SystemClock::Instance().Now() / 1000;
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const offline::Operator& op : *list) {
    if (as_json) {
      out.push_back({{"name", op.name},
                     {"role", offline::OperatorRoleName(op.role)},
                     {"disabled", op.disabled},
                     {"failedAttempts", op.failed_attempts},
                     {"lockedUntil", op.locked_until_ms > now_ms ? FormatTimestamp(op.locked_until_ms * 1000) : ""},
                     {"created", FormatTimestamp(op.created_at_ms * 1000)}});
    } else {
      std::printf("%-24s %-10s %s%s\n", op.name.c_str(), offline::OperatorRoleName(op.role),
                  op.disabled ? "disabled " : "", LockText(op, now_ms).c_str());
    }
  }
  if (as_json) std::printf("%s\n", out.dump().c_str());
  if (!as_json && list->empty()) std::printf("no operators yet: balcao operator add NAME --role supervisor\n");
  return 0;
}

int Add(offline::Operators& operators, const std::string& name, const std::string& role) {
  if (role.empty()) return Fail(1, "add: --role cashier|supervisor is required");
  auto parsed = offline::ParseOperatorRole(role);
  if (!parsed.ok()) return FailWith(parsed.status());
  auto pin = AskNewPin();
  if (!pin.ok()) return FailWith(pin.status());
  auto added = operators.Add(name, *parsed, *pin);
  if (!added.ok()) return FailWith(added.status());
  std::printf("operator %s added (%s)\n", added->name.c_str(), offline::OperatorRoleName(added->role));
  return 0;
}

int ResetPin(offline::Operators& operators, const std::string& name) {
  auto pin = AskNewPin();
  if (!pin.ok()) return FailWith(pin.status());
  if (Status s = operators.ResetPin(name, *pin); !s.ok()) return FailWith(s);
  std::printf("operator %s: new PIN set\n", name.c_str());
  return 0;
}

int Disable(offline::Operators& operators, const std::string& name) {
  if (Status s = operators.Disable(name); !s.ok()) return FailWith(s);
  std::printf("operator %s disabled\n", name.c_str());
  return 0;
}

int RunOperator(const std::vector<std::string>& raw) {
  internal::StoreCommand command =
      internal::StartStoreCommand(raw, {{"--json"}, {"--role", "--db", "--config"}, kUsage}, FailWith);
  if (command.exit >= 0) return command.exit;
  const internal::SubcommandArgs& args = command.args;
  offline::Operators operators(*command.box.store);
  const std::vector<internal::StoreVerb> verbs = {
      {"list", false, [&](const std::string&) { return List(operators, args.Has("--json")); }},
      {"add", true, [&](const std::string& name) { return Add(operators, name, args.Get("--role")); }},
      {"reset-pin", true, [&](const std::string& name) { return ResetPin(operators, name); }},
      {"disable", true, [&](const std::string& name) { return Disable(operators, name); }}};
  return internal::RunStoreVerb(args, verbs, "which operator? (one NAME)", kUsage, Fail);
}

}  // namespace

BALCAO_COMMAND("operator", "the box's operators: add, list, disable, reset-pin (PINs as Argon2id hashes)", RunOperator);

}  // namespace balcao::terminal
