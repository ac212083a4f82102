// balcao: the one executable. `balcao <command> [args]`; `balcao help` lists commands.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

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
  std::fprintf(out, "\n`balcao <command> --help` describes a command's options.\n");
  return 0;
}

}  // namespace
}  // namespace balcao::terminal

int main(int argc, char** argv) {
  using balcao::terminal::CommandRegistry;
  if (argc < 2) {
    balcao::terminal::PrintHelp(stderr);
    return 2;
  }
  const std::string name = argv[1];
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
  try {
    return it->second.run(std::vector<std::string>(argv + 2, argv + argc));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "balcao %s: %s\n", name.c_str(), e.what());
    return 2;
  }
}
