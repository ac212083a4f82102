// The real engines under the hub's end-to-end tests, each a child process in the test's temp
// dir writing its output to a log file there: nats-server with JetStream, PostgreSQL 15 in its
// own data dir (initdb and pg_ctl, as the unprivileged `nobody` when the test runs as root),
// Caddy with `tls internal` in front of the hub, and `balcao hub serve` itself. A missing engine
// is a skip whose reason names it (Missing()).
// Thread-safety: one test thread.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace balcao::hub::testing {

// "" when nats-server, caddy and PostgreSQL 15's initdb are all installed; else what is missing.
std::string Missing();

// A child process with its output in `log`.
class Child {
 public:
  Child() = default;
  ~Child() { Kill(); }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  bool Start(const std::vector<std::string>& argv, const std::filesystem::path& log,
             const std::map<std::string, std::string>& env = {});
  void Terminate();  // SIGTERM, waits
  void Kill();       // SIGKILL, waits
  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

// Whether something accepts TCP connections on 127.0.0.1:port within `seconds`.
bool WaitForPort(int port, int seconds);
// Runs argv to completion, its output appended to `log`; its exit status (-1: not started).
int Run(const std::vector<std::string>& argv, const std::filesystem::path& log);

class Nats {
 public:
  // nats-server -js on a free loopback port, its store and log in `dir`; `config` (nats-server
  // config text) replaces the command-line setup when given, with {PORT} and {DIR} filled in.
  bool Start(const std::filesystem::path& dir, const std::string& config = "");
  void Reload();  // SIGHUP: the server reads its config (and includes) again
  void Stop() { child_.Terminate(); }
  std::string url() const { return "nats://127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  Child child_;
  int port_ = 0;
  std::filesystem::path dir_;
};

class Postgres {
 public:
  // initdb (trust on loopback, superuser "balcao") and pg_ctl start on a free port.
  bool Start(const std::filesystem::path& dir);
  void Stop();
  std::string conninfo() const;
  const std::string& skip_reason() const { return skip_reason_; }

 private:
  std::vector<std::string> AsOwner(std::vector<std::string> argv) const;
  std::filesystem::path dir_;
  int port_ = 0;
  std::string skip_reason_;
  bool started_ = false;
};

class Caddy {
 public:
  // Caddy in front of 127.0.0.1:upstream_port, HTTPS with its internal CA on a free port.
  bool Start(const std::filesystem::path& dir, int upstream_port);
  void Stop() { child_.Terminate(); }
  std::string url() const { return "https://127.0.0.1:" + std::to_string(port_); }
  // The root certificate of Caddy's internal CA (what a client must trust).
  std::string root_ca() const { return (dir_ / "storage" / "pki" / "authorities" / "local" / "root.crt").string(); }

 private:
  Child child_;
  int port_ = 0;
  std::filesystem::path dir_;
};

}  // namespace balcao::hub::testing
