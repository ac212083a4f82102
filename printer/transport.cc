// Status parsing, OpenTransport, and the transports without sockets: device/plain file
// and CUPS `lp`. The TCP transport is in internal/tcp_transport.cc (Asio).
#include "printer/transport.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace balcao::printer {
namespace {

bool ValidFrame(int b) { return b >= 0 && (b & 0x93) == 0x12; }

std::string Errno(const std::string& what) { return what + ": " + std::strerror(errno); }

using Clock = std::chrono::steady_clock;

// Writes everything to fd before the deadline (fd may be non-blocking).
Status WriteAll(int fd, std::string_view data, Clock::time_point deadline, const std::string& what) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return UnavailableError(Errno(what));
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      return DeadlineExceededError(what + ": write stalled after " + std::to_string(done) + " of " +
                                   std::to_string(data.size()) + " bytes (printer busy or off?)");
    }
    pollfd p{fd, POLLOUT, 0};
    ::poll(&p, 1, static_cast<int>(left));
  }
  return OkStatus();
}

// "file:PATH": a character device (printer port) or a plain file the job is appended to.
class FileTransport final : public Transport {
 public:
  FileTransport(std::string target, std::string path) : target_(std::move(target)), path_(std::move(path)) {}

  StatusOr<SendReport> Send(std::string_view job, const SendOptions& options) override {
    struct stat st {};
    const bool device = ::stat(path_.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
    const int fd = device ? ::open(path_.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
                          : ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) return UnavailableError(Errno("open " + path_));
    Status s = WriteAll(fd, job, Clock::now() + WriteDeadline(job.size(), options), path_);
    if (s.ok() && !device && ::fsync(fd) != 0) s = UnavailableError(Errno("fsync " + path_));
    ::close(fd);
    if (!s.ok()) return s;
    return SendReport{};
  }

  StatusOr<PrinterStatus> Probe(const SendOptions&) override {
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0) {
      // A plain file that does not exist yet is fine if its folder is writable.
      const std::string dir = path_.find('/') == std::string::npos ? "." : path_.substr(0, path_.rfind('/') + 1);
      if (::access(dir.c_str(), W_OK) != 0) return UnavailableError(Errno("cannot create " + path_));
      return PrinterStatus{};
    }
    if (::access(path_.c_str(), W_OK) != 0) return UnavailableError(Errno("cannot write " + path_));
    return PrinterStatus{};
  }

  const std::string& target() const override { return target_; }

 private:
  std::string target_;
  std::string path_;
};

// "cups:QUEUE": `lp -d QUEUE -o raw` fed through a pipe (no shell involved). One-way:
// CUPS reports the job accepted, never the paper.
class CupsTransport final : public Transport {
 public:
  CupsTransport(std::string target, std::string queue) : target_(std::move(target)), queue_(std::move(queue)) {}

  StatusOr<SendReport> Send(std::string_view job, const SendOptions& options) override {
    int pipefd[2];
    if (::pipe2(pipefd, O_CLOEXEC) != 0) return InternalError(Errno("pipe"));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipefd[0], 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    std::string queue = queue_;
    char arg0[] = "lp", arg1[] = "-d", arg3[] = "-o", arg4[] = "raw", arg5[] = "-s";
    char* argv[] = {arg0, arg1, queue.data(), arg3, arg4, arg5, nullptr};
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, "lp", &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipefd[0]);
    if (rc != 0) {
      ::close(pipefd[1]);
      return UnavailableError(std::string("cannot run the CUPS client `lp` (is cups-client installed?): ") +
                              std::strerror(rc));
    }
    Status s = WriteAll(pipefd[1], job, Clock::now() + WriteDeadline(job.size(), options), "lp");
    ::close(pipefd[1]);
    int wstatus = 0;
    while (::waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
    }
    if (!s.ok()) return s;
    if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
      return UnavailableError("lp -d " + queue_ + " failed (exit " +
                              std::to_string(WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1) + ")");
    }
    return SendReport{};
  }

  StatusOr<PrinterStatus> Probe(const SendOptions&) override { return PrinterStatus{}; }
  const std::string& target() const override { return target_; }

 private:
  std::string target_;
  std::string queue_;
};

}  // namespace

std::string PrinterStatus::Describe() const {
  if (!known) return "unknown";
  std::string out;
  auto add = [&](bool on, const char* what) {
    if (!on) return;
    if (!out.empty()) out += ", ";
    out += what;
  };
  add(paper_out, "paper out");
  add(cover_open, "cover open");
  add(error, "printer error");
  add(offline && !paper_out && !cover_open && !error, "offline");
  add(paper_near_end, "paper near end");
  return out.empty() ? "ok" : out;
}

PrinterStatus ParseStatusReplies(int printer, int offline_cause, int roll_paper) {
  PrinterStatus s;
  if (!ValidFrame(printer)) return s;
  s.known = true;
  s.drawer_open = printer & 0x04;
  s.offline = printer & 0x08;
  if (ValidFrame(offline_cause)) {
    s.cover_open = offline_cause & 0x04;
    s.paper_out = offline_cause & 0x20;
    s.error = offline_cause & 0x40;
  }
  if (ValidFrame(roll_paper)) {
    s.paper_near_end = (roll_paper & 0x0C) != 0;
    s.paper_out = s.paper_out || (roll_paper & 0x60) != 0;
  }
  return s;
}

std::chrono::milliseconds WriteDeadline(std::size_t job_bytes, const SendOptions& o) {
  const int rate = o.min_bytes_per_second > 0 ? o.min_bytes_per_second : 1;
  return o.write_base + std::chrono::milliseconds(static_cast<std::int64_t>(job_bytes) * 1000 / rate);
}

StatusOr<std::unique_ptr<Transport>> OpenTransport(const std::string& target) {
  if (target.rfind("tcp://", 0) == 0) {
    std::string rest = target.substr(6);
    if (!rest.empty() && rest.back() == '/') rest.pop_back();
    std::string host = rest, port = "9100";
    if (!rest.empty() && rest.front() == '[') {  // [IPv6]:port
      const size_t close = rest.find(']');
      if (close == std::string::npos) return InvalidArgumentError("printer target '" + target + "': missing ']'");
      host = rest.substr(1, close - 1);
      if (close + 1 < rest.size()) {
        if (rest[close + 1] != ':') return InvalidArgumentError("printer target '" + target + "': expected ':port'");
        port = rest.substr(close + 2);
      }
    } else if (std::count(rest.begin(), rest.end(), ':') == 1) {
      host = rest.substr(0, rest.find(':'));
      port = rest.substr(rest.find(':') + 1);
    }
    if (host.empty()) return InvalidArgumentError("printer target '" + target + "': host is empty");
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(port) == 0 || std::stoi(port) > 65535) {
      return InvalidArgumentError("printer target '" + target + "': port must be 1-65535");
    }
    return MakeTcpTransport(target, host, port);
  }
  if (target.rfind("file:", 0) == 0) {
    std::string path = target.substr(5);
    if (path.rfind("//", 0) == 0) path = path.substr(2);
    if (path.empty()) return InvalidArgumentError("printer target '" + target + "': path is empty");
    return std::unique_ptr<Transport>(new FileTransport(target, path));
  }
  if (target.rfind("cups:", 0) == 0) {
    const std::string queue = target.substr(5);
    if (queue.empty() || queue.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.") !=
                             std::string::npos) {
      return InvalidArgumentError("printer target '" + target + "': CUPS queue names are letters, digits, _ - .");
    }
    return std::unique_ptr<Transport>(new CupsTransport(target, queue));
  }
  return InvalidArgumentError("printer target '" + target +
                              "' must start with tcp://, file: or cups: (e.g. tcp://192.168.0.50:9100)");
}

}  // namespace balcao::printer
