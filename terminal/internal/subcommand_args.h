// What the store commands (`balcao pos`, `operator`, `queue`...) share before their own work:
// reading `VERB [OPERAND...] [--flag] [--option VALUE]` and opening the box's store.
// Thread-safety: free functions, no shared state.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/status.h"
#include "offline/store.h"
#include "terminal/service/config.h"

namespace balcao::terminal::internal {

// The options a subcommand takes: `flags` alone ("--json"), `valued` with the next argument
// ("--db FILE"). `usage` (when not "") follows the message of an unknown option.
struct SubcommandSpec {
  std::set<std::string> flags;
  std::set<std::string> valued;
  std::string usage;
};

struct SubcommandArgs {
  bool help = false;                           // --help or -h was given (the rest is not read)
  std::vector<std::string> positional;         // the verb and its operands, in order
  std::map<std::string, std::string> options;  // "--db" -> "FILE"; a flag -> ""
  bool Has(const std::string& option) const { return options.count(option) > 0; }
  // "" when the option was not given.
  std::string Get(const std::string& option) const;
};

// kInvalidArgument naming the option: "--db: needs a value" (none, or ""), "unknown option
// '--x'" (then the usage). Options may come anywhere among the words.
StatusOr<SubcommandArgs> ParseSubcommandArgs(const std::vector<std::string>& args, const SubcommandSpec& spec);

// One verb of a store command (`pos add`, `operator list`): `run` gets its operand, "" for a
// verb that takes none.
struct StoreVerb {
  std::string name;
  bool takes_operand = true;
  std::function<int(const std::string& operand)> run;
};
// Runs the verb `args.positional` names and returns its exit code. A verb without an operand
// runs as it is; otherwise exactly one operand must follow the verb (else `fail(1, "<verb>:
// <which>\n<usage>")`, `which` saying what is missing), and a verb not in `verbs` is `fail(1,
// "unknown subcommand '<verb>'\n<usage>")`. `args.positional` is not empty.
int RunStoreVerb(const SubcommandArgs& args, const std::vector<StoreVerb>& verbs, const std::string& which,
                 const std::string& usage, const std::function<int(int code, const std::string& message)>& fail);

// The box's store, opened for a command.
struct BoxStore {
  service::BoxTarget box;
  std::unique_ptr<offline::Store> store;
};
// `data_dir` (when not ""): the store is DIR/balcao.db, DIR created 0700 as `serve --data-dir`
// makes it. Otherwise the box FindBox names from `db` and `config` (--db, $BALCAO_DB, the
// config's data_dir). FindBox's errors (kInvalidArgument, kNotFound), kInternal when the data
// dir cannot be made, or Store::Open's.
StatusOr<BoxStore> OpenBoxStore(const std::string& db, const std::string& config, const std::string& data_dir = "");

// How a store command (`pos`, `operator`) starts: its words read with `spec`, --help
// answered on stdout (exit 0), no verb answered with the usage on stderr (exit 1), then the
// box's store opened from --db, --config and --data-dir (when `spec` takes it). A refusal of
// the words or of the store goes through `fail_with`, whose result is the exit code.
struct StoreCommand {
  int exit = -1;  // 0 or more: the command ends here with this code
  SubcommandArgs args;
  BoxStore box;
};
StoreCommand StartStoreCommand(const std::vector<std::string>& raw, const SubcommandSpec& spec,
                               const std::function<int(const Status&)>& fail_with);

}  // namespace balcao::terminal::internal
