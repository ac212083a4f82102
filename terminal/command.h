// The `balcao` executable's subcommands. Each subcommand lives in its own
// terminal/cmd_<name>.cc and registers itself with BALCAO_COMMAND, so adding one
// touches no shared file. Commands are thin: parse flags, call a library, print.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace balcao::terminal {

// argv without the program and subcommand names. Returns the process exit code.
using CommandFn = std::function<int(const std::vector<std::string>& args)>;

struct Command {
  std::string name;
  std::string summary;  // one line for `balcao help`
  CommandFn run;
};

std::map<std::string, Command>& CommandRegistry();

struct CommandRegistrar {
  CommandRegistrar(std::string name, std::string summary, CommandFn run);
};

}  // namespace balcao::terminal

#define BALCAO_COMMAND_CONCAT_INNER(a, b) a##b
#define BALCAO_COMMAND_CONCAT(a, b) BALCAO_COMMAND_CONCAT_INNER(a, b)
// BALCAO_COMMAND("keys", "create and inspect API key pairs", RunKeys);
#define BALCAO_COMMAND(name, summary, fn) \
  static const ::balcao::terminal::CommandRegistrar BALCAO_COMMAND_CONCAT(balcao_command_, __LINE__)(name, summary, fn)
