#include "tests/testing/spawn.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <unistd.h>

#include <cstring>

extern char** environ;

namespace balcao::test_util {

pid_t SpawnChild(const std::vector<std::string>& argv, const ChildIo& io,
                 const std::map<std::string, std::string>& env) {
  if (argv.empty()) {
    ADD_FAILURE() << "SpawnChild: no program";
    return -1;
  }
  std::vector<std::string> arguments = argv;
  std::vector<char*> cargv;
  for (std::string& a : arguments) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  std::vector<std::string> environment;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    if (!env.count(entry.substr(0, entry.find('=')))) environment.push_back(entry);
  }
  for (const auto& [name, value] : env) environment.push_back(name + "=" + value);
  std::vector<char*> cenv;
  for (std::string& e : environment) cenv.push_back(e.data());
  cenv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (io.in >= 0) posix_spawn_file_actions_adddup2(&actions, io.in, STDIN_FILENO);
  if (!io.out_file.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, io.out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  } else if (io.out >= 0) {
    posix_spawn_file_actions_adddup2(&actions, io.out, STDOUT_FILENO);
  }
  if (io.err >= 0) posix_spawn_file_actions_adddup2(&actions, io.err, STDERR_FILENO);
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, cargv[0], &actions, nullptr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    ADD_FAILURE() << "could not start " << argv[0] << ": " << std::strerror(spawned);
    return -1;
  }
  return pid;
}

}  // namespace balcao::test_util
