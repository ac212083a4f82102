// Loopback sockets for the tests and benchmarks of every part: a port where nothing listens (a
// bank that cannot be reached) and a raw listener for the peers a real server never is (one
// that completes handshakes and never reads, answers raw bytes, drops or resets connections).
// Header-only, so that a benchmark uses it without linking the test library.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace balcao::test_util {

// A TCP port on 127.0.0.1 that refuses every connection at once (a bank or printer that cannot
// be reached: a request "not sent") for as long as this object lives. The socket stays bound and
// never listens: the kernel refuses a connection to it, and hands the port to no other socket
// meanwhile (a port closed again at once could become another test's server).
class RefusingLoopbackPort {
 public:
  RefusingLoopbackPort() : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), len);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
  }
  ~RefusingLoopbackPort() { ::close(fd_); }
  RefusingLoopbackPort(const RefusingLoopbackPort&) = delete;
  RefusingLoopbackPort& operator=(const RefusingLoopbackPort&) = delete;

  int port() const { return port_; }
  // "http://127.0.0.1:<port><path>".
  std::string Url(const std::string& path = "") const { return "http://127.0.0.1:" + std::to_string(port_) + path; }

 private:
  int fd_;
  int port_ = 0;
};

// A TCP port on 127.0.0.1 free at the time of the call, for a server a test starts on it later
// (a child process told its port). Another process may take it in between; the server's bind
// then fails loudly, never silently.
inline int FreeLoopbackPort() { return RefusingLoopbackPort().port(); }

// A TCP socket listening on 127.0.0.1 at a port the kernel picks (close-on-exec, so a child a
// test spawns does not hold it). The kernel completes up to `backlog` handshakes whether or not
// anyone accepts. Thread-safety: Accept on one thread, Shutdown from another to end it.
class LoopbackListener {
 public:
  explicit LoopbackListener(int backlog = 64) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 || ::listen(fd_, backlog) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      if (fd_ >= 0) ::close(fd_);
      fd_ = -1;
      return;
    }
    port_ = ntohs(addr.sin_port);
  }
  ~LoopbackListener() {
    if (fd_ >= 0) ::close(fd_);
  }
  LoopbackListener(const LoopbackListener&) = delete;
  LoopbackListener& operator=(const LoopbackListener&) = delete;

  bool ok() const { return fd_ >= 0; }  // false: no socket could be bound (the port is 0)
  int fd() const { return fd_; }        // for poll()
  unsigned short port() const { return port_; }
  // "http://127.0.0.1:PORT" followed by `path`.
  std::string url(const std::string& path = "") const { return "http://127.0.0.1:" + std::to_string(port_) + path; }

  // The next connection (close-on-exec), or -1 after Shutdown or on an error.
  int Accept() const { return ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC); }
  // Ends a blocked Accept and refuses new connections; the socket closes with this object.
  void Shutdown() const { ::shutdown(fd_, SHUT_RDWR); }

 private:
  int fd_ = -1;
  unsigned short port_ = 0;
};

}  // namespace balcao::test_util
