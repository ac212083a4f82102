#include "terminal/service/first_run.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <system_error>

#include "terminal/service/config.h"

namespace balcao::terminal::service {

namespace {

// A path as a shell reads it: quoted only when it has to be.
std::string ShellWord(const std::string& word) {
  if (!word.empty() &&
      word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:,@") ==
          std::string::npos)
    return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

AddOperatorHint AddFirstOperatorHint(const std::string& program, const std::string& data_dir, const std::string& cwd,
                                     bool config_named) {
  const std::string add = ShellWord(program) + " operator add NAME --role supervisor";
  const auto default_dir = (std::filesystem::path(cwd) / kDefaultDataDir).lexically_normal();
  if (!config_named && std::filesystem::path(data_dir).lexically_normal() == default_dir) return {add, cwd};
  return {add + " --db " + ShellWord((std::filesystem::path(data_dir) / kStoreFileName).string()), ""};
}

std::string ProgramAsTyped() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "balcao";
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    const auto candidate = std::filesystem::path(dir) / "balcao";
    if (::access(candidate.c_str(), X_OK) == 0) {
      // The first `balcao` on PATH is the one the shell runs: this one, or another.
      return std::filesystem::equivalent(candidate, self, ec) ? "balcao" : self.string();
    }
  }
  return self.string();
}

}  // namespace balcao::terminal::service
