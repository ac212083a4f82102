// Out of file descriptors: `balcao serve` under `prlimit --nofile=256` with 400 idle
// connections held open at it. The accept loop backs off instead of spinning (under 10% of a
// core while the connections wait), the shortage is logged and counted, and once they close
// the service answers and sells again.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <random>
#include <sstream>
#include <vector>

#include "tests/terminal/fault_fixture.h"

namespace balcao::terminal::testing {
namespace {

// User + system CPU seconds the process has used (/proc/<pid>/stat, fields 14 and 15).
double CpuSeconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), {});
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));  // after "pid (comm) "
  std::string skip;
  for (int i = 3; i < 14; ++i) fields >> skip;
  double user = 0, system = 0;
  fields >> user >> system;
  return (user + system) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

int Connect(unsigned short port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

TEST(FaultDescriptors, AtTheLimitTheAcceptLoopBacksOffAndRecovers) {
  std::mt19937_64 rng(FaultSeed());
  const auto dir = FreshDir("fault-fds");
  // Idle connections must outlast the measurement: the read timeout is the default 30 s.
  const std::string config = WriteConfig(dir, {{"checkout", {{"poll_interval_s", 2}}}});
  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config}, {}, {"/usr/bin/prlimit", "--nofile=256:256", "--"});
  ASSERT_TRUE(serve.running()) << serve.output();
  const unsigned short port = static_cast<unsigned short>(std::stoi(serve.url().substr(serve.url().rfind(':') + 1)));

  std::vector<int> idle;
  const int count = 400 + std::uniform_int_distribution<int>(0, 50)(rng);
  for (int i = 0; i < count; ++i) {
    const int fd = Connect(port);
    if (fd >= 0) idle.push_back(fd);
  }
  ASSERT_GE(idle.size(), 300u);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the accepts fail by now
  const double before = CpuSeconds(serve.pid());
  std::this_thread::sleep_for(std::chrono::seconds(3));
  const double used = CpuSeconds(serve.pid()) - before;
  EXPECT_LT(used / 3, 0.10) << "CPU share of one core while out of descriptors";
  EXPECT_TRUE(serve.Alive());

  for (int fd : idle) ::close(fd);
  // Back: the backlog drains, the service answers, logs the burst, counts it, and sells.
  std::string log;
  EXPECT_TRUE(Eventually([&] {
    std::ifstream file(dir / "data" / "balcao.log");
    log.assign(std::istreambuf_iterator<char>(file), {});
    return log.find("accepting again") != std::string::npos;
  })) << log;
  EXPECT_NE(log.find("accept failing"), std::string::npos) << log;
  EXPECT_GE(MetricValue(serve, "balcao_http_failed_accepts_total"), 1);
  const long long amount = std::uniform_int_distribution<long long>(100, 99'999)(rng);
  const std::string id = serve.NewSale(amount)["id"].get<std::string>();
  ASSERT_EQ(serve.Post("/api/sales/" + id + "/method", {{"method", "pix"}}).json["status"], "pix");
  ASSERT_EQ(serve.Post("/api/sales/" + id + "/simulate", Json::object()).status, 200);
  serve.WaitFor(id, "paid");
  ExpectBooksBalance(serve, {{id, amount}}, {{id, amount}});
  serve.Stop();
}

}  // namespace
}  // namespace balcao::terminal::testing
