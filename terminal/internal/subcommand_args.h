// What the store commands (`balcao pos`, `operator`, `queue`...) share before their own work:
// reading `VERB [OPERAND...] [--flag] [--option VALUE]` and opening the box's store.
// Thread-safety: free functions, no shared state.
#pragma once

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

}  // namespace balcao::terminal::internal
