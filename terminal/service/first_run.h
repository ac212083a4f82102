// The first run of a box (docs/terminal.md, "First run"): nobody can log in until an operator
// exists, and operators are made on the box's command line (`balcao operator add`), never
// through the web. So the login screen and `balcao serve` say exactly what to type.
// Thread-safety: free functions, no shared state.
#pragma once

#include <string>

namespace balcao::terminal::service {

// serve's data dir when neither --data-dir nor the config names one, relative to where it runs;
// the local tools look there too (FindBox) when nothing else names a store.
inline constexpr const char* kDefaultDataDir = "balcao-data";

// The command that adds the first operator, and where to type it ("" = anywhere).
struct AddOperatorHint {
  std::string command;
  std::string directory;
};

// Pure. `program`: how the shell reaches this executable ("balcao" when on PATH); `data_dir`
// and `cwd` absolute. Where serve runs with the default data dir and no config, the tools find
// the store by themselves: the short command, typed in `cwd`. Otherwise the store is named.
// The operator's name is the literal word NAME, which the screen shows in its language.
AddOperatorHint AddFirstOperatorHint(const std::string& program, const std::string& data_dir, const std::string& cwd,
                                     bool config_named);

// "balcao" when `balcao` on $PATH is this very executable, else its absolute path.
std::string ProgramAsTyped();

}  // namespace balcao::terminal::service
