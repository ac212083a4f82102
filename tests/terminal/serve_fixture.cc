#include "tests/terminal/serve_fixture.h"

#include <curl/curl.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <regex>
#include <sstream>
#include <thread>
#include <tuple>

extern char** environ;

namespace balcao::terminal::testing {

Reply Http(const std::string& method, const std::string& url, const std::string& body,
           const std::map<std::string, std::string>& headers, const std::string& ca_file) {
  Reply reply;
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
  curl_slist* list =
      headers.count("Content-Type") ? nullptr : curl_slist_append(nullptr, "Content-Type: application/json");
  for (const auto& [name, value] : headers) list = curl_slist_append(list, (name + ": " + value).c_str());
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> owned(list, &curl_slist_free_all);
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_CUSTOMREQUEST, method.c_str());
  if (method != "GET") curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT, 40L);
  curl_easy_setopt(curl.get(), CURLOPT_USERAGENT, kTestUserAgent);
  if (!ca_file.empty()) curl_easy_setopt(curl.get(), CURLOPT_CAINFO, ca_file.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &reply.body);
  curl_easy_setopt(curl.get(), CURLOPT_HEADERDATA, &reply.set_cookie);
  curl_easy_setopt(
      curl.get(), CURLOPT_HEADERFUNCTION, +[](char* data, size_t size, size_t count, void* user) {
        const std::string line(data, size * count);
        if (line.size() > 12 && strncasecmp(line.c_str(), "set-cookie: ", 12) == 0) {
          auto* out = static_cast<std::string*>(user);
          *out = line.substr(12);
          while (!out->empty() && (out->back() == '\r' || out->back() == '\n')) out->pop_back();
        }
        return size * count;
      });
  curl_easy_setopt(
      curl.get(), CURLOPT_WRITEFUNCTION, +[](char* data, size_t size, size_t count, void* user) {
        static_cast<std::string*>(user)->append(data, size * count);
        return size * count;
      });
  if (curl_easy_perform(curl.get()) == CURLE_OK) {
    curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &reply.status);
    char* type = nullptr;
    curl_easy_getinfo(curl.get(), CURLINFO_CONTENT_TYPE, &type);
    if (type) reply.content_type = type;
  }
  reply.json = Json::parse(reply.body, nullptr, false);
  return reply;
}

ServeProcess::~ServeProcess() { Kill(); }

void WithKeyedEntry(std::vector<std::string>& argv, const std::filesystem::path& data_dir);

void ServeProcess::Start(const std::filesystem::path& data_dir, const std::vector<std::string>& args,
                         const std::map<std::string, std::string>& env, const std::vector<std::string>& launcher) {
  std::filesystem::create_directories(data_dir);  // the log file goes there
  std::vector<std::string> argv = {BALCAO_CLI,   "--log-file",     (data_dir / "balcao.log").string(),
                                   "serve",      "--port",         "0",
                                   "--data-dir", data_dir.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  WithKeyedEntry(argv, data_dir);
  argv.insert(argv.begin(), launcher.begin(), launcher.end());
  AddOperators(data_dir / "balcao.db");
  log_file_ = data_dir / "balcao.log";
  StartProgram(argv, std::filesystem::current_path(), env);
  if (!url_.empty()) {
    const Reply in = LogIn(kCashier, kCashierPin);
    EXPECT_EQ(in.status, 200) << in.body;
    if (in.status == 0) Alive();  // no answer: says so if the service ended, and how
  }
}

// The tests of the keyed card form (typed on the touchscreen) run on a store that turned it on
// (`card.keyed_entry`, off as shipped since the customer pays on their phone: docs/adr/0009):
// the config a test gives gets it unless it says otherwise, and a test without one gets one.
void WithKeyedEntry(std::vector<std::string>& argv, const std::filesystem::path& data_dir) {
  auto given = std::find(argv.begin(), argv.end(), "--config");
  if (given != argv.end() && std::next(given) != argv.end()) {
    std::ifstream in(*std::next(given));
    Json config = Json::parse(in, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
    if (!config.is_object() || config.contains("card")) return;
    config["card"] = {{"keyed_entry", true}};
    std::ofstream(*std::next(given), std::ios::trunc) << config.dump(2);
    return;
  }
  const std::filesystem::path file = data_dir.parent_path() / (data_dir.filename().string() + "-keyed.conf");
  std::ofstream(file, std::ios::trunc) << R"({"card": {"keyed_entry": true}})";
  argv.push_back("--config");
  argv.push_back(file.string());
}

void ServeProcess::AddOperators(const std::filesystem::path& db) {
  std::filesystem::create_directories(db.parent_path());
  for (const auto& [name, role, pin] :
       {std::tuple{kCashier, "cashier", kCashierPin}, std::tuple{kSupervisor, "supervisor", kSupervisorPin}}) {
    // "exists" when they do already (a restart on the same data dir): fine. Any other failure
    // is said here, not later as a login refused.
    const std::string command = std::string("echo ") + pin + " | " + BALCAO_CLI + " operator add " + name + " --role " +
                                role + " --db '" + db.string() + "'";
    const ShellRun added = RunShell(command);
    if (added.code != 0 && added.out.find("exists") == std::string::npos)
      ADD_FAILURE() << "balcao operator add " << name << " failed (" << added.code << "):\n" << added.out;
  }
}

ShellRun RunShell(const std::string& command) {
  ShellRun run;
  FILE* out = ::popen((command + " 2>&1").c_str(), "r");
  if (out == nullptr) return run;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, out)) > 0;) run.out.append(buffer, n);
  const int status = ::pclose(out);
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

Reply ServeProcess::LogIn(const std::string& name, const std::string& pin) {
  cookie_.clear();
  Reply reply = Http("POST", url_ + "/api/login", Json{{"operator", name}, {"pin", pin}}.dump(), {}, ca_file_);
  if (reply.status == 200) cookie_ = reply.set_cookie.substr(0, reply.set_cookie.find(';'));
  return reply;
}

Reply ServeProcess::Call(const std::string& method, const std::string& path, const std::string& body,
                         std::map<std::string, std::string> headers) const {
  if (!cookie_.empty() && !headers.count("Cookie")) headers["Cookie"] = cookie_;
  // A keyed card needs a supervisor's approval (card.keyed_entry): the tests' card forms carry it.
  if (method == "POST" && path.size() > 5 && path.ends_with("/card") && path.rfind("/api/sales/", 0) == 0) {
    Json card = Json::parse(body, nullptr, false);
    if (card.is_object() && !card.contains("approval"))
      return Http(method, url_ + path, Approved(std::move(card)).dump(), headers, ca_file_);
  }
  return Http(method, url_ + path, body, headers, ca_file_);
}

Json ServeProcess::Approved(Json body) {
  body["approval"] = {{"supervisor", kSupervisor}, {"pin", kSupervisorPin}};
  return body;
}

pid_t Spawn(const std::vector<std::string>& argv_in, const std::filesystem::path& cwd,
            const std::map<std::string, std::string>& env, int& out_fd) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return -1;
  std::vector<std::string> argv = argv_in;
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  std::vector<std::string> environment;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    // The tests choose the bank: a configured one only when they say so.
    if (entry.rfind("BALCAO_", 0) == 0) continue;
    environment.push_back(entry);
  }
  for (const auto& [k, v] : env) environment.push_back(k + "=" + v);
  std::vector<char*> cenv;
  for (auto& e : environment) cenv.push_back(e.data());
  cenv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  // Nothing else of this process: a socket inherited from a sandbox the test runs (Asio's
  // are not close-on-exec) would keep that bank's port listening after the test stops it.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  pid_t pid = -1;
  const int spawned = posix_spawnp(&pid, argv[0].c_str(), &actions, nullptr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (spawned != 0) {
    ::close(fds[0]);
    return -1;
  }
  out_fd = fds[0];
  return pid;
}

void ServeProcess::StartProgram(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                                const std::map<std::string, std::string>& env) {
  output_.clear();
  url_.clear();
  sandbox_.clear();
  pid_ = Spawn(argv, cwd, env, out_fd_);
  ASSERT_GT(pid_, 0) << "could not start " << argv[0];
  const std::regex listening(R"(listening on (https?)://([0-9.]+):(\d+)/)");
  const std::regex sandbox(R"(embedded sandbox at (http://127\.0\.0\.1:\d+))");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  std::smatch m;
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{out_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) > 0) {
      char buffer[4096];
      const ssize_t n = ::read(out_fd_, buffer, sizeof buffer);
      if (n <= 0) break;
      output_.append(buffer, static_cast<std::size_t>(n));
    }
    if (std::regex_search(output_, m, listening)) {
      // A wildcard listener takes loopback too, under the name the service answers to.
      url_ = m[1].str() + "://" + (m[2].str() == "0.0.0.0" ? std::string("127.0.0.1") : m[2].str()) + ":" + m[3].str();
      if (env.count("BALCAO_CREDENTIALS") || env.count("BALCAO_BANK_URL"))
        return;  // a configured bank: no sandbox line
      if (std::regex_search(output_, m, sandbox)) {
        sandbox_ = m[1].str();
        return;
      }
    }
  }
  FAIL() << "balcao serve did not start:\n" << output_;
}

std::string ServeProcess::output() const { return output_; }

std::string ServeProcess::Drain() {
  for (pollfd p{out_fd_, POLLIN, 0}; out_fd_ >= 0 && ::poll(&p, 1, 0) > 0;) {
    char buffer[4096];
    const ssize_t n = ::read(out_fd_, buffer, sizeof buffer);
    if (n <= 0) break;
    output_.append(buffer, static_cast<std::size_t>(n));
  }
  return output_;
}

void StopSpawned(pid_t& pid, int& out_fd, const std::string& name, std::string* output) {
  if (pid <= 0) return;
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  pid = -1;
  // What it wrote while stopping: a crash report (or a sanitizer's) comes last, on stderr.
  std::string last;
  for (pollfd p{out_fd, POLLIN, 0}; ::poll(&p, 1, 1000) > 0;) {
    char buffer[4096];
    const ssize_t n = ::read(out_fd, buffer, sizeof buffer);
    if (n <= 0) break;
    last.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(out_fd);
  out_fd = -1;
  if (output != nullptr) output->append(last);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << name << " exit status " << status << "; its last output:\n"
      << last;
}

void ServeProcess::Stop() {
  if (pid_ > 0) Drain();
  StopSpawned(pid_, out_fd_, "balcao serve", &output_);
  KeepLogIfFailed();
}

void ServeProcess::KeepLogIfFailed() {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  if (test == nullptr || !::testing::Test::HasFailure() || (output_.empty() && log_file_.empty())) return;
  const char* chosen = std::getenv("BALCAO_TEST_LOG_DIR");
  const std::filesystem::path dir =
      chosen != nullptr ? std::filesystem::path(chosen) : std::filesystem::temp_directory_path() / "balcao-test-logs";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string name = std::string(test->test_suite_name()) + "." + test->name();
  std::string file_name;
  for (char c : name) file_name += std::isalnum(static_cast<unsigned char>(c)) || c == '.' ? c : '_';
  const auto kept = dir / (file_name + "-" + std::to_string(::getpid()) + ".log");
  std::ofstream out(kept, std::ios::app);
  out << "=== balcao serve output ===\n" << output_ << "\n";
  if (!log_file_.empty()) out << "=== " << log_file_.string() << " ===\n" << std::ifstream(log_file_).rdbuf();
  std::cout << "[ serve log] the test failed: balcao serve's output and log kept in " << kept.string() << std::endl;
}

bool ServeProcess::Alive() {
  if (pid_ <= 0) return false;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == 0) return true;
  // What it wrote last (a sanitizer's report goes to stderr).
  for (pollfd p{out_fd_, POLLIN, 0}; ::poll(&p, 1, 1000) > 0;) {
    char buffer[4096];
    const ssize_t n = ::read(out_fd_, buffer, sizeof buffer);
    if (n <= 0) break;
    output_.append(buffer, static_cast<std::size_t>(n));
  }
  ADD_FAILURE() << "balcao serve ended, status " << status << ":\n" << output_;
  pid_ = -1;
  ::close(out_fd_);
  out_fd_ = -1;
  KeepLogIfFailed();
  return false;
}

void ServeProcess::Kill() {
  if (pid_ <= 0) return;
  Drain();
  // How it ended when it ended before the kill (a fault-injection exit, or a crash: the log
  // kept on failure says which).
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) {
    output_ += "\n[the test] balcao serve had ended before the kill: " +
               (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                    : "exit " + std::to_string(WEXITSTATUS(status))) +
               "\n";
  } else {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  pid_ = -1;
  ::close(out_fd_);
  out_fd_ = -1;
  KeepLogIfFailed();
}

Json ServeProcess::NewSale(long long amount) {
  Reply reply = Post("/api/sales", {{"amount", amount}});
  EXPECT_EQ(reply.status, 201) << reply.body;
  return reply.json;
}

Json ServeProcess::WaitFor(const std::string& id, const std::string& status, std::chrono::seconds limit) const {
  Reply reply;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    reply = Get("/api/sales/" + id);
    if (reply.status == 200 && reply.json.value("status", "") == status) return reply.json;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ADD_FAILURE() << "sale " << id << " never reached " << status << "; last: " << reply.body;
  return reply.json;
}

Reply ServeProcess::Simulate(const std::string& route, const Json& body) const {
  return Http("POST", sandbox_ + "/sandbox/" + route, body.dump());
}

std::filesystem::path FreshDir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("balcao-serve-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string BankId(const Json& view, const std::string& kind) {
  for (const auto& id : view.value("bank_ids", Json::array())) {
    const std::string text = id.get<std::string>();
    if (text.rfind(kind + "/", 0) == 0) return text.substr(kind.size() + 1);
  }
  return "";
}

std::vector<std::string> FilesContaining(const std::filesystem::path& dir, const std::string& needle) {
  std::vector<std::string> found;
  auto scan = [&](const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    if (bytes.str().find(needle) != std::string::npos) found.push_back(file.string());
  };
  if (!std::filesystem::exists(dir)) return found;
  if (std::filesystem::is_regular_file(dir)) {
    scan(dir);
    return found;
  }
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) scan(entry.path());
  return found;
}

Json PhonePurchase(long long amount, const std::string& user_agent) {
  return {{"amount", amount},
          {"installmentCount", 1},
          {"fundingType", "debit"},
          {"cardNumber", "4235647728025682"},
          {"cardExpiration", "2034-12"},
          {"cardSecurityCode", "321"},
          {"holderName", "MARIA SOUZA"},
          {"holderEmail", "maria@example.com"},
          {"holderPhone", "11987654321"},
          {"billingStreetLine1", "Rua Augusta, 1500"},
          {"billingStreetLine2", ""},
          {"billingCity", "Sao Paulo"},
          {"billingStateCode", "SP"},
          {"billingZipCode", "01304-001"},
          {"billingCountryCode", "BRA"},
          {"metadata",
           {{"userAgent", user_agent}, {"userIp", "127.0.0.1"}, {"language", "pt-BR"}, {"timezoneOffset", 180}}}};
}

Json WithCardCustomer(Json card) {
  card["holder_email"] = "maria.souza@example.com";
  card["holder_phone"] = "+55 11 98765-4321";
  card["billing"] = {{"street_line1", "Rua Augusta, 1500"},
                     {"street_line2", "apto 12"},
                     {"city", "Sao Paulo"},
                     {"state_code", "SP"},
                     {"zip_code", "01304-001"},
                     {"country_code", "BRA"}};
  card["browser"] = {{"language", "pt-BR"}, {"screen", "1080x1920"}, {"timezone_offset", 180}};
  return card;
}

}  // namespace balcao::terminal::testing
