#include "tests/terminal/fault_fixture.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

namespace balcao::terminal::testing {

std::uint64_t FaultSeed() {
  const char* given = std::getenv("BALCAO_FAULT_SEED");
  const std::uint64_t seed =
      given != nullptr && *given != '\0' ? std::strtoull(given, nullptr, 10) : std::random_device{}();
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  char self[4096] = {0};
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  std::printf("replay: BALCAO_FAULT_SEED=%llu %s --gtest_filter=%s.%s\n", static_cast<unsigned long long>(seed),
              n > 0 ? self : "balcao_fault_tests", test->test_suite_name(), test->name());
  std::fflush(stdout);
  return seed;
}

void ExpectBooksBalance(const ServeProcess& serve, const std::map<std::string, long long>& opened,
                        const std::map<std::string, long long>& paid) {
  const Reply day = serve.Get("/api/sales");
  ASSERT_EQ(day.status, 200) << day.body;
  std::map<std::string, int> seen;
  long long collected = 0;
  for (const Json& sale : day.json["sales"]) {
    const std::string id = sale["id"].get<std::string>();
    ++seen[id];
    if (opened.count(id)) {
      EXPECT_EQ(sale["amount"].get<long long>(), opened.at(id)) << sale.dump();
    }
    if (paid.count(id)) {
      EXPECT_EQ(sale["status"], "paid") << sale.dump();
      EXPECT_EQ(sale["collected"].get<long long>(), paid.at(id)) << "paid once: " << sale.dump();
    }
    collected += sale["collected"].get<long long>();
  }
  for (const auto& [id, amount] : opened) EXPECT_EQ(seen[id], 1) << "sale " << id << " answered 201";
  long long expected = 0;
  for (const auto& [id, amount] : paid) expected += amount;
  EXPECT_EQ(collected, expected) << day.body;
  EXPECT_EQ(day.json["totals"]["collected"].get<long long>(), expected) << day.body;
}

double MetricValue(const ServeProcess& serve, const std::string& name) {
  const Reply page = serve.Get("/metrics");
  std::istringstream lines(page.body);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(name + " ", 0) == 0) return std::strtod(line.c_str() + name.size() + 1, nullptr);
  }
  return std::nan("");
}

SandboxProcess::~SandboxProcess() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  ::close(out_fd_);
}

void SandboxProcess::Start(const std::filesystem::path& data_dir, const std::vector<std::string>& args) {
  ASSERT_LE(pid_, 0) << "the sandbox runs already";
  data_dir_ = data_dir;
  std::vector<std::string> argv = {BALCAO_CLI,   "sandbox",         "--no-https", "--no-seed",
                                   "--data-dir", data_dir.string(), "--port",     std::to_string(port_)};
  argv.insert(argv.end(), args.begin(), args.end());
  pid_ = Spawn(argv, std::filesystem::current_path(), {}, out_fd_);
  ASSERT_GT(pid_, 0) << "could not start balcao sandbox";
  const std::regex listening(R"(simulation: http://127\.0\.0\.1:(\d+)/sandbox)");
  std::string output;
  std::smatch m;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline && !std::regex_search(output, m, listening)) {
    pollfd p{out_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    char buffer[4096];
    const ssize_t n = ::read(out_fd_, buffer, sizeof buffer);
    if (n <= 0) break;
    output.append(buffer, static_cast<std::size_t>(n));
  }
  ASSERT_TRUE(std::regex_search(output, m, listening)) << "balcao sandbox did not start:\n" << output;
  port_ = static_cast<unsigned short>(std::stoi(m[1].str()));
}

void SandboxProcess::Stop() { StopSpawned(pid_, out_fd_, "balcao sandbox"); }

Reply SandboxProcess::Simulate(const std::string& route, const Json& body) const {
  return Http("POST", url() + "/sandbox/" + route, body.dump());
}

Json SandboxProcess::List(const std::string& resource) const {
  const std::string command =
      std::string(BALCAO_CLI) + " api --credentials '" + credentials() + "' list " + resource + " --all 2>&1";
  std::string text;
  if (FILE* out = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, out)) > 0;) text.append(buffer, n);
    EXPECT_EQ(::pclose(out), 0) << command << ":\n" << text;
  }
  Json items = Json::parse(text, nullptr, false);
  EXPECT_TRUE(items.is_array()) << command << ":\n" << text;
  return items.is_array() ? items : Json::array();
}

std::string OpenSale(const ServeProcess& serve, std::mt19937_64& rng, std::map<std::string, long long>& opened) {
  const long long amount = std::uniform_int_distribution<long long>(100, 99'999)(rng);
  const Reply made = serve.Post("/api/sales", {{"amount", amount}});
  EXPECT_EQ(made.status, 201) << made.body;
  if (made.status != 201) return "";
  const std::string id = made.json["id"].get<std::string>();
  opened[id] = amount;
  return id;
}

void PayByPix(const ServeProcess& serve, const std::string& bank_url, const std::string& id,
              const std::map<std::string, long long>& opened, std::map<std::string, long long>& paid) {
  const Reply shown = serve.Post("/api/sales/" + id + "/method", {{"method", "pix"}});
  ASSERT_EQ(shown.status, 200) << shown.body;
  ASSERT_EQ(shown.json["status"], "pix") << shown.body;
  const Reply pay = Http("POST", bank_url + "/sandbox/dynamic-brcode/pay",
                         Json{{"uuid", BankId(shown.json, "brcode")}, {"name", "Cliente"}}.dump());
  ASSERT_EQ(pay.status, 200) << pay.body;
  serve.WaitFor(id, "paid");
  paid[id] = opened.at(id);
}

void PayByCard(const ServeProcess& serve, const std::string& id, const std::map<std::string, long long>& opened,
               std::map<std::string, long long>& paid) {
  ASSERT_EQ(serve.Post("/api/sales/" + id + "/method", {{"method", "card"}}).json["status"], "enter-card");
  const Reply charged = serve.Post("/api/sales/" + id + "/card", WithCardCustomer({{"number", "5277696455399733"},
                                                                                   {"expiry", "12/34"},
                                                                                   {"security_code", "737"},
                                                                                   {"holder_name", "MARIA SOUZA"},
                                                                                   {"installments", 1}}));
  ASSERT_EQ(charged.status, 200) << charged.body;
  EXPECT_EQ(charged.json["status"], "paid") << charged.body;
  paid[id] = opened.at(id);
}

Json InvoiceCustomer() { return {{"name", "Maria da Silva"}, {"tax_id", "337.451.076-08"}}; }

std::string FaketimeLibrary() {
  // The thread-safe variant: serve has many threads reading the clock.
  for (const char* path : {"/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1",
                           "/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1"})
    if (::access(path, R_OK) == 0) return path;
  return "";
}

}  // namespace balcao::terminal::testing
