// Test helpers for `balcao serve`: the real executable started on a free port with its own
// data dir (and, without a configured bank, its embedded sandbox), a plain HTTP client over
// libcurl for its JSON API and the sandbox's simulation API, and waits on a sale's status.
// Thread-safety: one test thread.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace balcao::terminal::testing {

using Json = nlohmann::json;

struct Reply {
  long status = 0;  // 0: no answer
  std::string body;
  std::string content_type;
  Json json;               // discarded when the body is not JSON
  std::string set_cookie;  // the Set-Cookie header's value, "" when none
};
// `ca_file`: the PEM certificate an https:// URL must verify against (peer and host name).
Reply Http(const std::string& method, const std::string& url, const std::string& body = "",
           const std::map<std::string, std::string>& headers = {}, const std::string& ca_file = "");

// One `balcao serve` process.
class ServeProcess {
 public:
  ServeProcess() = default;
  ~ServeProcess();  // Kill()s
  // Starts `balcao --log-file <data_dir>/balcao.log serve --port 0 --data-dir <data_dir> ...`
  // with `env` added to the environment, and waits for its "listening" line. `launcher`, when
  // given, is a program (absolute path) and its arguments that exec balcao in its own process
  // (setpriv ... --), so the pid is still balcao's.
  void Start(const std::filesystem::path& data_dir, const std::vector<std::string>& args = {},
             const std::map<std::string, std::string>& env = {}, const std::vector<std::string>& launcher = {});
  // Runs `argv` (a program that ends in `balcao serve`, e.g. deploy/run.sh) in `cwd` and
  // waits for its "listening" line; `env` as for Start.
  void StartProgram(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                    const std::map<std::string, std::string>& env = {});
  // Stop and Kill keep serve's output and log file when the test has failed so far
  // (KeepLogIfFailed), since the test's temp dir is removed after.
  void Stop();  // SIGTERM, and the exit status must be 0
  void Kill();  // SIGKILL (a crash or a power cut)
  // When the current test has a failure: writes what serve printed and its log file to
  // $BALCAO_TEST_LOG_DIR (default <temp>/balcao-test-logs)/<suite>.<test>-<pid>.log and says where.
  void KeepLogIfFailed();
  bool running() const { return pid_ > 0; }
  // Whether the process is still there (it has not exited nor been killed by a signal).
  bool Alive();

  // Calls over https:// verify the service against this certificate (before Start: the login).
  void Trust(const std::filesystem::path& cert_pem) { ca_file_ = cert_pem.string(); }

  // http://127.0.0.1:<port> (https:// under TLS; 127.0.0.1 also for a wildcard address)
  const std::string& url() const { return url_; }
  const std::string& sandbox() const { return sandbox_; }  // embedded sandbox, "" when none
  std::string output() const;                              // what it printed so far
  // Reads what it printed since (without waiting) and returns all it printed so far.
  std::string Drain();
  pid_t pid() const { return pid_; }

  // The operators every test box has (cashier kCashier/kCashierPin, supervisor kSupervisor/
  // kSupervisorPin), added to the store at `db` before serve starts (Start does it).
  static void AddOperators(const std::filesystem::path& db);
  // POST /api/login; later calls carry its session cookie. Start logs the cashier in.
  Reply LogIn(const std::string& name, const std::string& pin);
  void LogOut() { cookie_.clear(); }
  const std::string& cookie() const { return cookie_; }  // "balcao_session=<token>", "" when logged out

  // With the session cookie, when logged in.
  Reply Call(const std::string& method, const std::string& path, const std::string& body = "",
             std::map<std::string, std::string> headers = {}) const;
  Reply Get(const std::string& path) const { return Call("GET", path); }
  Reply Post(const std::string& path, const Json& body) const { return Call("POST", path, body.dump()); }
  // `body` with the supervisor's approval added (refunds, cancelling a paid sale).
  static Json Approved(Json body);
  // POST /api/sales, then the method; returns the sale's view.
  Json NewSale(long long amount);
  // Polls GET /api/sales/{id} until `status` (or `limit`); returns the last view.
  Json WaitFor(const std::string& id, const std::string& status,
               std::chrono::seconds limit = std::chrono::seconds(20)) const;
  // The sandbox's simulation API (POST /sandbox/<route>).
  Reply Simulate(const std::string& route, const Json& body) const;

 private:
  pid_t pid_ = -1;
  int out_fd_ = -1;
  std::filesystem::path log_file_;  // <data_dir>/balcao.log (Start)
  std::string output_;
  std::string url_, sandbox_;
  std::string cookie_;   // "balcao_session=..." once logged in
  std::string ca_file_;  // Trust()
};

inline constexpr const char* kCashier = "caixa";
inline constexpr const char* kCashierPin = "73914682";
inline constexpr const char* kSupervisor = "gerente";
inline constexpr const char* kSupervisorPin = "58203917";

// The User-Agent every request of Http() carries: the device a card is typed on, for 3-D Secure.
inline constexpr const char* kTestUserAgent = "Mozilla/5.0 (X11; Linux x86_64) balcao-serve-tests/1";
// `card` (the card form's body) with what 3-D Secure asks of the customer besides the card:
// holder e-mail and phone, billing address, the browser's language, screen and timezone.
Json WithCardCustomer(Json card);
// What the customer's phone posts to the bank (<bank>/merchant-session/<uuid>/purchase): an
// approved debit card, the customer and the browser's metadata.
Json PhonePurchase(long long amount, const std::string& user_agent);

// Starts `argv` in `cwd` with `env` added to this process's environment (less its BALCAO_*
// variables), its stdout and stderr on a pipe whose read end goes to `out_fd`, and no other
// descriptor of this process; returns its pid, or -1 when it could not be started.
pid_t Spawn(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
            const std::map<std::string, std::string>& env, int& out_fd);
// Ends a process Spawn started (SIGTERM, then waits), closes its output and expects a clean
// exit; `name` tells which in the failure. Clears `pid`.
void StopSpawned(pid_t& pid, int& out_fd, const std::string& name, std::string* output = nullptr);

// `command` run by /bin/sh, its stdout and stderr together, waited for: its exit code (-1 when
// it did not exit) and what it printed. For the `balcao` commands a test runs beside serve.
struct ShellRun {
  int code = -1;
  std::string out;
};
ShellRun RunShell(const std::string& command);

// A fresh directory under the temp dir, removed first if it exists.
std::filesystem::path FreshDir(const std::string& name);
// The bank id of kind ("brcode", "invoice", "purchase"...) in a sale view's bank_ids; "" if none.
std::string BankId(const Json& view, const std::string& kind);
// Whether any file under `dir` (recursively) contains `needle`.
std::vector<std::string> FilesContaining(const std::filesystem::path& dir, const std::string& needle);

}  // namespace balcao::terminal::testing
