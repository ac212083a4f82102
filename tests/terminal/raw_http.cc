#include "tests/terminal/raw_http.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

namespace balcao::terminal::testing {

RawConnection::RawConnection(unsigned short port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const timeval stall{10, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &stall, sizeof stall);
  const int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

RawConnection::~RawConnection() {
  if (fd_ >= 0) ::close(fd_);
}

bool RawConnection::Send(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void RawConnection::ShutdownWrite() { ::shutdown(fd_, SHUT_WR); }

bool RawConnection::Fill(std::chrono::steady_clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  if (left.count() <= 0) return timed_out_ = true, false;
  pollfd p{fd_, POLLIN, 0};
  const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
  if (ready == 0) return timed_out_ = true, false;
  if (ready < 0) return errno == EINTR;
  char chunk[16384];
  const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
  if (n < 0 && errno == EINTR) return true;
  if (n <= 0) return false;
  buffer_.append(chunk, static_cast<std::size_t>(n));
  return true;
}

RawAnswer RawConnection::Read(std::chrono::milliseconds timeout) {
  RawAnswer answer;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::size_t end = std::string::npos;
  while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
    if (!Fill(deadline)) {
      answer.closes = true;
      return answer;
    }
  }
  answer.head = buffer_.substr(0, end + 2);
  buffer_.erase(0, end + 4);
  if (answer.head.rfind("HTTP/1.", 0) != 0 || answer.head.size() < 12) {
    answer.closes = true;
    return answer;
  }
  answer.status = std::atoi(answer.head.c_str() + 9);
  std::size_t length = 0;
  for (std::size_t at = answer.head.find("\r\n"); at != std::string::npos; at = answer.head.find("\r\n", at + 2)) {
    const char* line = answer.head.c_str() + at + 2;
    if (strncasecmp(line, "content-length:", 15) == 0) length = std::strtoul(line + 15, nullptr, 10);
    if (strncasecmp(line, "connection: close", 17) == 0) answer.closes = true;
  }
  while (buffer_.size() < length) {
    if (!Fill(deadline)) {
      answer.closes = true;
      return answer;  // a cut answer is no answer
    }
  }
  answer.body = buffer_.substr(0, length);
  buffer_.erase(0, length);
  answer.answered = true;
  return answer;
}

}  // namespace balcao::terminal::testing
