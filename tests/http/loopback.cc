#include "tests/http/loopback.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "tests/testing/status_matchers.h"

namespace balcao::http::testing {

RawConnection::RawConnection(unsigned short port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd_);
    fd_ = -1;
    return;
  }
  timeval send_timeout{10, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &send_timeout, sizeof send_timeout);
}

RawConnection::~RawConnection() {
  if (fd_ >= 0) ::close(fd_);
}

bool RawConnection::Send(std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void RawConnection::CloseWrite() { ::shutdown(fd_, SHUT_WR); }

bool RawConnection::ReadMore(std::chrono::steady_clock::time_point deadline, std::string& how) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  pollfd p{fd_, POLLIN, 0};
  if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) {
    how = "timeout";
    return false;
  }
  char buffer[65536];
  const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
  if (n > 0) {
    pending_.append(buffer, static_cast<std::size_t>(n));
    return true;
  }
  how = n == 0 ? "eof" : (errno == ECONNRESET ? "reset" : "error");
  return false;
}

std::optional<RawResponse> RawConnection::ReadResponse(std::chrono::milliseconds timeout, bool no_body) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string how;
  std::size_t head_end;
  while ((head_end = pending_.find("\r\n\r\n")) == std::string::npos)
    if (!ReadMore(deadline, how)) return std::nullopt;
  RawResponse response;
  const std::string head = pending_.substr(0, head_end + 2);
  pending_.erase(0, head_end + 4);
  if (head.rfind("HTTP/1.", 0) != 0 || head.size() < 12) return std::nullopt;
  response.status = std::atoi(head.c_str() + 9);
  for (std::size_t line = head.find("\r\n") + 2; line < head.size();) {
    const std::size_t end = head.find("\r\n", line);
    const std::string text = head.substr(line, end - line);
    const std::size_t colon = text.find(':');
    if (colon != std::string::npos) {
      std::string name = text.substr(0, colon);
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const std::size_t value = text.find_first_not_of(' ', colon + 1);
      response.headers[name] = value == std::string::npos ? "" : text.substr(value);
    }
    line = end + 2;
  }
  const std::size_t length = no_body ? 0 : std::strtoul(response.Header("content-length").c_str(), nullptr, 10);
  while (pending_.size() < length)
    if (!ReadMore(deadline, how)) return std::nullopt;
  response.body = pending_.substr(0, length);
  pending_.erase(0, length);
  return response;
}

Ending RawConnection::ReadUntilClosed(std::chrono::milliseconds timeout) {
  const auto start = std::chrono::steady_clock::now();
  Ending ending;
  while (ReadMore(start + timeout, ending.how)) {
  }
  ending.bytes = std::move(pending_);
  pending_.clear();
  ending.after = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  return ending;
}

LoopbackServer::LoopbackServer(ServerOptions options, Handler handler)
    : server(std::make_unique<Server>(std::move(options), std::move(handler))) {
  auto bound = server->Listen("127.0.0.1", 0);
  EXPECT_OK(bound);
  if (bound.ok()) port = *bound;
  server->Start();
}

std::string Get(const std::string& path, const std::string& extra_headers) {
  return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra_headers + "\r\n";
}

}  // namespace balcao::http::testing
