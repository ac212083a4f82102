// balcao: the one executable. `balcao <command> [args]`; `balcao help` lists commands.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "common/log.h"
#include "terminal/command.h"

namespace balcao::terminal {

std::map<std::string, Command>& CommandRegistry() {
  static std::map<std::string, Command> registry;
  return registry;
}

CommandRegistrar::CommandRegistrar(std::string name, std::string summary, CommandFn run) {
  auto key = name;
  CommandRegistry()[key] = Command{std::move(name), std::move(summary), std::move(run)};
}

namespace {

int PrintHelp(FILE* out) {
  std::fprintf(out, "balcao %s: card and Pix acceptance terminal service\n\nusage: balcao <command> [options]\n\n",
               BALCAO_VERSION);
  for (const auto& [name, cmd] : CommandRegistry())
    std::fprintf(out, "  %-18s %s\n", name.c_str(), cmd.summary.c_str());
  std::fprintf(out,
               "\nGlobal options, before the command: --log-file PATH (append the operator log there;\n"
               "default stderr, or $BALCAO_LOG_FILE), --log-level debug|info|warn|error ($BALCAO_LOG_LEVEL).\n"
               "`balcao <command> --help` describes a command's options.\n");
  return 0;
}

}  // namespace
}  // namespace balcao::terminal

int main(int argc, char** argv) {
  using balcao::terminal::CommandRegistry;
  int first = 1;  // global options come before the command
  for (; first + 1 < argc; first += 2) {
    const std::string option = argv[first];
    if (option == "--log-file") {
      if (auto set = balcao::logging::SetLogFile(argv[first + 1]); !set.ok()) {
        std::fprintf(stderr, "balcao: --log-file: %s\n", set.message().c_str());
        return 2;
      }
    } else if (option == "--log-level") {
      auto level = balcao::logging::ParseLevel(argv[first + 1]);
      if (!level.ok()) {
        std::fprintf(stderr, "balcao: --log-level: %s\n", level.status().message().c_str());
        return 2;
      }
      balcao::logging::SetMinLevel(*level);
    } else {
      break;
    }
  }
  if (first >= argc) {
    balcao::terminal::PrintHelp(stderr);
    return 2;
  }
  const std::string name = argv[first];
  if (name == "help" || name == "--help" || name == "-h") return balcao::terminal::PrintHelp(stdout);
  if (name == "--version") {
    std::printf("balcao %s\n", BALCAO_VERSION);
    return 0;
  }
  auto it = CommandRegistry().find(name);
  if (it == CommandRegistry().end()) {
    std::fprintf(stderr, "balcao: unknown command '%s' (see `balcao help`)\n", name.c_str());
    return 2;
  }
  std::vector<std::string> args(argv + first + 1, argv + argc);
  // `--help` or `-h` anywhere after the command (`balcao queue retry --help`) asks for the
  // command's usage, whatever else was typed: each command answers a lone `--help` with it.
  if (std::find_if(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; }) !=
      args.end())
    args = {"--help"};
  try {
    return it->second.run(args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "balcao %s: %s\n", name.c_str(), e.what());
    return 2;
  }
}
