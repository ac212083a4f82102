#include "tests/hub/engines.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "tests/testing/loopback.h"

extern char** environ;

namespace balcao::hub::testing {
namespace {

constexpr const char* kPgBin = "/usr/lib/postgresql/15/bin/";
constexpr const char* kNatsServer = "/usr/sbin/nats-server";  // Debian installs it in sbin
constexpr uid_t kNobody = 65534;

bool Executable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

pid_t SpawnTo(const std::vector<std::string>& argv_in, const std::filesystem::path& log,
              const std::map<std::string, std::string>& env) {
  std::vector<std::string> argv = argv_in;
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  std::vector<std::string> environment;
  for (char** e = environ; *e; ++e)
    if (std::string(*e).rfind("BALCAO_", 0) != 0) environment.emplace_back(*e);
  for (const auto& [k, v] : env) environment.push_back(k + "=" + v);
  std::vector<char*> cenv;
  for (auto& e : environment) cenv.push_back(e.data());
  cenv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  pid_t pid = -1;
  const int spawned = posix_spawnp(&pid, argv[0].c_str(), &actions, nullptr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&actions);
  return spawned == 0 ? pid : -1;
}

}  // namespace

std::string Missing() {
  std::string missing;
  for (const char* program : {kNatsServer, "/usr/bin/caddy"})
    if (!Executable(program)) missing += std::string(missing.empty() ? "" : ", ") + program;
  if (!Executable(std::string(kPgBin) + "initdb"))
    missing += std::string(missing.empty() ? "" : ", ") + kPgBin + "initdb";
  return missing.empty() ? "" : missing + " not installed (deploy/install-deps.sh)";
}

bool Child::Start(const std::vector<std::string>& argv, const std::filesystem::path& log,
                  const std::map<std::string, std::string>& env) {
  pid_ = SpawnTo(argv, log, env);
  return pid_ > 0;
}

void Child::Terminate() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

void Child::Kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

bool WaitForPort(int port, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    const bool up = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    ::close(fd);
    if (up) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

int Run(const std::vector<std::string>& argv, const std::filesystem::path& log) {
  const pid_t pid = SpawnTo(argv, log, {});
  if (pid <= 0) return -1;
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool Nats::Start(const std::filesystem::path& dir, const std::string& config) {
  dir_ = dir;
  std::filesystem::create_directories(dir / "js");
  if (port_ == 0) port_ = test_util::FreeLoopbackPort();  // the same port across restarts
  std::vector<std::string> argv = {kNatsServer};
  if (config.empty()) {
    argv.insert(argv.end(), {"-js", "-a", "127.0.0.1", "-p", std::to_string(port_), "-sd", (dir / "js").string()});
  } else {
    std::ofstream(dir / "nats.conf") << Replace(Replace(config, "{PORT}", std::to_string(port_)), "{DIR}",
                                                dir.string());
    argv.insert(argv.end(), {"-c", (dir / "nats.conf").string()});
  }
  return child_.Start(argv, dir / "nats.log") && WaitForPort(port_, 20);
}

void Nats::Reload() {
  if (child_.running()) ::kill(child_.pid(), SIGHUP);
}

std::vector<std::string> Postgres::AsOwner(std::vector<std::string> argv) const {
  if (::geteuid() != 0) return argv;
  // PostgreSQL refuses to run as root: as nobody, in a data dir that nobody owns.
  std::vector<std::string> wrapped = {"setpriv", "--reuid=" + std::to_string(kNobody),
                                      "--regid=" + std::to_string(kNobody), "--clear-groups", "--"};
  wrapped.insert(wrapped.end(), argv.begin(), argv.end());
  return wrapped;
}

bool Postgres::Start(const std::filesystem::path& dir) {
  dir_ = dir;
  std::filesystem::create_directories(dir);
  if (::geteuid() == 0 && ::chown(dir.c_str(), kNobody, kNobody) != 0) {
    skip_reason_ = "cannot give " + dir.string() + " to nobody for PostgreSQL";
    return false;
  }
  port_ = test_util::FreeLoopbackPort();
  if (Run(AsOwner({std::string(kPgBin) + "initdb", "-D", (dir / "data").string(), "-U", "balcao", "--auth=trust",
                   "--no-sync", "-E", "UTF8", "--locale=C"}),
          "/dev/null") != 0) {
    skip_reason_ = "initdb failed (as nobody when root): PostgreSQL cannot run here";
    return false;
  }
  const std::string server_options =
      "-c listen_addresses=127.0.0.1 -p " + std::to_string(port_) + " -k " + dir.string() + " -c fsync=on";
  if (Run(AsOwner({std::string(kPgBin) + "pg_ctl", "-D", (dir / "data").string(), "-o", server_options, "-l",
                   (dir / "postgres.log").string(), "-w", "-t", "60", "start"}),
          "/dev/null") != 0)
    return false;
  started_ = true;
  return true;
}

void Postgres::Stop() {
  if (!started_) return;
  Run(AsOwner({std::string(kPgBin) + "pg_ctl", "-D", (dir_ / "data").string(), "-m", "immediate", "-w", "stop"}),
      "/dev/null");
  started_ = false;
}

std::string Postgres::conninfo() const {
  return "host=127.0.0.1 port=" + std::to_string(port_) + " user=balcao dbname=postgres connect_timeout=5";
}

bool Caddy::Start(const std::filesystem::path& dir, int upstream_port) {
  dir_ = dir;
  std::filesystem::create_directories(dir);
  port_ = test_util::FreeLoopbackPort();
  const int http_port = test_util::FreeLoopbackPort();
  // Production uses a public name and automatic HTTPS (docs/hub.md); here Caddy's own CA.
  std::ofstream(dir / "Caddyfile") << "{\n  admin off\n  auto_https disable_redirects\n  skip_install_trust\n"
                                   << "  http_port " << http_port << "\n  https_port " << port_
                                   << "\n  storage file_system " << (dir / "storage").string() << "\n}\n"
                                   << "https://127.0.0.1:" << port_
                                   << " {\n  tls internal\n  reverse_proxy 127.0.0.1:" << upstream_port << "\n}\n";
  const std::map<std::string, std::string> env = {{"HOME", dir.string()},
                                                  {"XDG_DATA_HOME", (dir / "data").string()},
                                                  {"XDG_CONFIG_HOME", (dir / "config").string()}};
  return child_.Start({"caddy", "run", "--config", (dir / "Caddyfile").string(), "--adapter", "caddyfile"},
                      dir / "caddy.log", env) &&
         WaitForPort(port_, 30);
}

}  // namespace balcao::hub::testing
