// The accept back-off: the pure schedule, then a real server out of file descriptors (a forked
// child with a low RLIMIT_NOFILE) that must neither spin nor log more than once, and must
// accept again once descriptors are free.
#include "http/internal/accept_backoff.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "common/log.h"
#include "tests/http/loopback.h"
#include "tests/testing/lone_fork.h"
#include "tests/testing/temp_dir.h"

namespace balcao::http::testing {
namespace {

using std::chrono::milliseconds;

TEST(AcceptBackoff, WaitsDoubleUpToTheLongestAndASuccessEndsTheBurst) {
  internal::AcceptBackoff backoff;
  std::vector<long> waits;
  std::vector<bool> starts;
  for (int i = 0; i < 7; ++i) {
    const auto step = backoff.Failed();
    waits.push_back(step.wait.count());
    starts.push_back(step.starts_burst);
  }
  EXPECT_EQ(waits, (std::vector<long>{100, 200, 400, 800, 1000, 1000, 1000}));
  EXPECT_EQ(starts, (std::vector<bool>{true, false, false, false, false, false, false}));
  EXPECT_EQ(backoff.Succeeded(), 7);
  EXPECT_EQ(backoff.Succeeded(), 0);
  const auto next = backoff.Failed();
  EXPECT_EQ(next.wait, milliseconds(100));
  EXPECT_TRUE(next.starts_burst);
}

TEST(AcceptBackoff, OnlyResourceShortagesWait) {
  for (int e : {ECONNABORTED, EPROTO, EPERM, EINTR, EAGAIN}) EXPECT_TRUE(internal::IsPerConnectionAcceptError(e)) << e;
  for (int e : {EMFILE, ENFILE, ENOBUFS, ENOMEM, EBADF}) EXPECT_FALSE(internal::IsPerConnectionAcceptError(e)) << e;
}

// CPU time (user + system) of a process, in clock ticks.
long CpuTicks(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  std::istringstream fields(text.substr(text.rfind(')') + 2));  // after "pid (comm) "
  std::string field;
  long utime = 0, stime = 0;
  for (int i = 3; fields >> field; ++i) {
    if (i == 14) utime = std::stol(field);
    if (i == 15) {
      stime = std::stol(field);
      break;
    }
  }
  return utime + stime;
}

int CountLines(const std::string& path, const std::string& needle) {
  std::ifstream in(path);
  int n = 0;
  for (std::string line; std::getline(in, line);) n += line.find(needle) != std::string::npos;
  return n;
}

// The child: a server whose process has room for four more descriptors, then nothing.
[[noreturn]] void RunStarvedServer(int port_pipe, const std::string& log_path) {
  (void)logging::SetLogFile(log_path);
  ServerOptions options;
  options.threads = 1;
  Server server(options, Synchronous([](HttpRequest&) { return HttpResponse{200, "text/plain", "ok"}; }));
  auto port = server.Listen("127.0.0.1", 0);
  if (!port.ok()) ::_exit(3);
  server.Start();
  // New descriptors take the lowest free numbers: from the lowest free one, four more fit.
  const int lowest_free = ::dup(0);
  ::close(lowest_free);
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = static_cast<rlim_t>(lowest_free) + 4;
  if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) ::_exit(4);
  const unsigned short value = *port;
  if (::write(port_pipe, &value, sizeof value) != sizeof value) ::_exit(5);
  for (;;) ::pause();
}

TEST(AcceptBackoff, OutOfDescriptorsTheServerWaitsInsteadOfSpinning) {
#if defined(__SANITIZE_ADDRESS__)
  // UBSan's vptr check opens a pipe to probe memory for each new type it meets; in a process
  // out of descriptors that probe fails and is reported as a bad object, so the sanitizer
  // build would measure its own runtime. The regular build runs this test.
  GTEST_SKIP() << "the sanitizer runtime needs descriptors of its own";
#endif
  const test_util::TempDir scratch("http-emfile");
  const std::string log_path = scratch.File("child.log");
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t child = balcao::test_util::ForkOfLoneThread();  // the child runs the test's code: one thread only
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(pipe_fds[0]);
    RunStarvedServer(pipe_fds[1], log_path);
  }
  ::close(pipe_fds[1]);
  struct Reaper {
    pid_t pid;
    ~Reaper() {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
  } reaper{child};
  pollfd ready{pipe_fds[0], POLLIN, 0};
  unsigned short port = 0;
  ASSERT_EQ(::poll(&ready, 1, 10000), 1) << "the child server did not start";
  ASSERT_EQ(::read(pipe_fds[0], &port, sizeof port), static_cast<ssize_t>(sizeof port));
  ::close(pipe_fds[0]);

  // Twelve connections: four are accepted, the rest wait in the backlog and keep the
  // listening socket readable while every accept fails with EMFILE.
  std::vector<std::unique_ptr<RawConnection>> clients;
  for (int i = 0; i < 12; ++i) clients.push_back(std::make_unique<RawConnection>(port));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (CountLines(log_path, "accept failing") == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(milliseconds(20));
  ASSERT_EQ(CountLines(log_path, "accept failing"), 1) << "no accept failed: the limit did not bite";

  const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
  const long before = CpuTicks(child);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const long used = CpuTicks(child) - before;
  EXPECT_LT(used, ticks_per_second / 5) << "the child used " << used << " ticks in 2 s: it spins on EMFILE";
  EXPECT_EQ(CountLines(log_path, "accept failing"), 1) << "one line per burst, not per failed accept";

  // Descriptors come back: the server accepts and answers again.
  clients.clear();
  std::optional<RawResponse> response;
  for (int attempt = 0; attempt < 20 && !response; ++attempt) {
    RawConnection client(port);
    if (client.Send(Get("/"))) response = client.ReadResponse(milliseconds(3000));
  }
  ASSERT_TRUE(response) << "the server never accepted again";
  EXPECT_EQ(response->status, 200);
  EXPECT_GE(CountLines(log_path, "accepting again"), 1);
}

}  // namespace
}  // namespace balcao::http::testing
