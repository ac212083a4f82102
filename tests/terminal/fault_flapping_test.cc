// A flapping bank: `balcao serve` reaches the sandbox through a loopback proxy that, while it
// flaps, closes some connections at once, resets others a random moment after they opened (a
// request may have reached the bank and its answer be lost: an unknown outcome), holds others
// without an answer, and passes the rest; and the sandbox itself runs a fault script
// (docs/style.md S11) on the Pix routes: answers 500, answers late, resets before storing, and
// stores then drops the answer. Cashiers keep ringing Pix sales (choosing Pix again when it did
// not go through) and customers pay what they were shown; then the network settles. Every
// sale answered 201 is there once, every payment is counted once, and the books balance to
// the cent.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "sandbox/sandbox.h"
#include "tests/terminal/fault_fixture.h"
#include "tests/testing/loopback.h"

namespace balcao::terminal::testing {
namespace {

class FlappingProxy {
 public:
  FlappingProxy(unsigned short upstream, std::uint64_t seed) : upstream_(upstream), listener_(128), rng_(seed) {
    acceptor_ = std::thread([this] { Accept(); });
  }
  ~FlappingProxy() {
    stop_ = true;
    listener_.Shutdown();
    acceptor_.join();
    for (std::thread& t : pumps_) t.join();
  }
  unsigned short port() const { return listener_.port(); }
  // Connections dropped, reset or held so far.
  int faults() {
    std::lock_guard lock(mu_);
    return faults_;
  }
  void Flap(bool on) {
    std::lock_guard lock(mu_);
    flapping_ = on;
  }

 private:
  static int Upstream(unsigned short port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) return fd;
    ::close(fd);
    return -1;
  }
  static void Reset(int fd) {
    linger l{1, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    ::close(fd);
  }

  void Accept() {
    while (!stop_) {
      const int client = listener_.Accept();
      if (client < 0) continue;
      // 0 pass, then close after `after_ms` (so that no keep-alive connection outlives the
      // flapping), 1 close at once, 2 pass then reset after `after_ms`, 3 hang: swallow the
      // request for `after_ms` without passing it on, then close (bounded, so that the suite
      // stays short: the client's own timeout is 30 s).
      int mode = 0, after_ms = 0;
      {
        std::lock_guard lock(mu_);
        if (flapping_) {
          const int roll = std::uniform_int_distribution<int>(0, 99)(rng_);
          mode = roll < 40 ? 0 : roll < 60 ? 1 : roll < 80 ? 2 : 3;
          after_ms = std::uniform_int_distribution<int>(0, 300)(rng_);
          if (mode == 0) after_ms = std::uniform_int_distribution<int>(50, 400)(rng_);
          if (mode != 0) ++faults_;
        }
      }
      if (mode == 1) {
        ::close(client);
        continue;
      }
      if (mode == 3) {
        pumps_.emplace_back([this, client, after_ms] { Hang(client, after_ms); });
        continue;
      }
      const int server = Upstream(upstream_);
      if (server < 0) {
        ::close(client);
        continue;
      }
      const bool limited = mode == 2 || (mode == 0 && after_ms > 0);
      pumps_.emplace_back(
          [this, client, server, mode, after_ms, limited] { Pump(client, server, limited, mode == 2, after_ms); });
    }
  }

  void Hang(int client, int after_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(after_ms);
    char buffer[16 << 10];
    while (!stop_ && std::chrono::steady_clock::now() < deadline) {
      pollfd p{client, POLLIN, 0};
      if (::poll(&p, 1, 20) > 0 && ::read(client, buffer, sizeof buffer) <= 0) break;
    }
    ::close(client);
  }

  // Copies both ways; with `limited`, ends after `after_ms` (a reset when `reset`, else a close).
  void Pump(int client, int server, bool limited, bool reset, int after_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(after_ms);
    char buffer[16 << 10];
    while (!stop_) {
      if (limited && std::chrono::steady_clock::now() >= deadline) break;
      pollfd p[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
      if (::poll(p, 2, 50) <= 0) continue;
      bool closed = false;
      for (int i = 0; i < 2 && !closed; ++i) {
        if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        const ssize_t n = ::read(p[i].fd, buffer, sizeof buffer);
        closed = n <= 0 || ::write(p[1 - i].fd, buffer, static_cast<std::size_t>(n)) != n;
      }
      if (closed) {
        reset = false;
        break;
      }
    }
    if (reset) {
      Reset(client);
      Reset(server);
    } else {
      ::close(client);
      ::close(server);
    }
  }

  unsigned short upstream_;
  test_util::LoopbackListener listener_;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::mt19937_64 rng_;             // guarded by mu_
  bool flapping_ = false;           // guarded by mu_
  int faults_ = 0;                  // guarded by mu_
  std::vector<std::thread> pumps_;  // the acceptor's only
  std::thread acceptor_;
};

TEST(FaultFlapping, SalesThroughAFlappingBankAreCountedOnceAndBalance) {
  const std::uint64_t seed = FaultSeed();
  std::mt19937_64 rng(seed);
  const auto dir = FreshDir("fault-flapping");
  sandbox::SandboxOptions options;
  options.data_dir = (dir / "bank").string();
  options.https = false;
  options.tick_millis = 100;
  auto bank = sandbox::Sandbox::Start(options);
  ASSERT_TRUE(bank.ok()) << bank.status().ToString();
  const std::string bank_url = "http://127.0.0.1:" + std::to_string((*bank)->port());
  FlappingProxy proxy((*bank)->port(), seed);
  const std::string config = WriteConfig(
      dir, {{"checkout", {{"poll_interval_s", 1}, {"lookup_retry_s", 1}}},
            {"connectivity", {{"online_interval_ms", 300}, {"backoff_initial_ms", 100}, {"backoff_max_ms", 500}}}});
  // The bank's own faults, drawn from the seed: the QR's create, and the lookups of its payment.
  const std::vector<std::string> kinds = {"http-500", "reset-before-processing", "commit-then-drop-response", "delay"};
  Json script = Json::object();
  for (const char* route : {"POST /v2/dynamic-brcode", "GET /v2/deposit"}) {
    const int count = std::uniform_int_distribution<int>(2, 4)(rng);
    for (int i = 0; i < count; ++i) {
      const std::string kind = kinds[std::uniform_int_distribution<std::size_t>(0, kinds.size() - 1)(rng)];
      script[route].push_back(
          kind != "delay" ? kind : "delay-" + std::to_string(std::uniform_int_distribution<int>(200, 1500)(rng)));
    }
  }
  const Reply scripted = Http("POST", bank_url + "/sandbox/faults", script.dump());
  ASSERT_EQ(scripted.status, 200) << scripted.body;
  std::printf("bank faults: %s\n", script.dump().c_str());
  proxy.Flap(true);  // from the start: no keep-alive connection made before it escapes it
  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config},
              {{"BALCAO_CREDENTIALS", (*bank)->credentials().credentials_path},
               {"BALCAO_BANK_URL", "http://127.0.0.1:" + std::to_string(proxy.port()) + "/v2"}});
  ASSERT_TRUE(serve.running());

  std::map<std::string, long long> opened, paid;
  const int sales = std::uniform_int_distribution<int>(4, 7)(rng);
  // At least `sales`, and on until the proxy has broken a few connections (at most 15).
  for (int i = 0; i < 15 && (i < sales || proxy.faults() < 3); ++i) {
    const long long amount = std::uniform_int_distribution<long long>(100, 99'999)(rng);
    const Reply made = serve.Post("/api/sales", {{"amount", amount}});
    ASSERT_EQ(made.status, 201) << made.body;  // opening a sale needs no bank
    const std::string id = made.json["id"].get<std::string>();
    opened[id] = amount;
    // The cashier chooses Pix until the QR shows (the bank refused, or could not be reached).
    std::string uuid;
    for (int attempt = 0; attempt < 40 && uuid.empty(); ++attempt) {
      const Reply view = serve.Get("/api/sales/" + id);
      const std::string status = view.json.value("status", "");
      if (status == "pix") {
        uuid = BankId(view.json, "brcode");
      } else if (status == "choosing" || status == "declined") {
        (void)serve.Post("/api/sales/" + id + "/method", {{"method", "pix"}});
      }
      if (uuid.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    ASSERT_FALSE(uuid.empty()) << "no Pix QR for " << id << ": " << serve.Get("/api/sales/" + id).body;
    const Reply pay =
        Http("POST", bank_url + "/sandbox/dynamic-brcode/pay", Json{{"uuid", uuid}, {"name", "Cliente"}}.dump());
    ASSERT_EQ(pay.status, 200) << pay.body;
    paid[id] = amount;
  }
  EXPECT_GE(proxy.faults(), 3) << "the proxy hardly flapped";
  proxy.Flap(false);  // the network settles: every payment is found
  for (const auto& [id, amount] : paid) serve.WaitFor(id, "paid");
  ExpectBooksBalance(serve, opened, paid);
  const Reply pending = Http("GET", bank_url + "/sandbox/faults");
  EXPECT_TRUE(pending.json.value("faults", Json{{"?", 1}}).empty())
      << "the bank's faults not all met: " << pending.body;
  // The bank received each payment once: one deposit per sale paid.
  EXPECT_EQ((*bank)->CountForTest("deposit"), static_cast<std::int64_t>(paid.size()));
  serve.Stop();
  (*bank)->Stop();
}

}  // namespace
}  // namespace balcao::terminal::testing
