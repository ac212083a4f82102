#include "tests/api/http_test_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace balcao::api::testing {
namespace {

bool SendAll(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool SendAll(int fd, const std::string& s) { return SendAll(fd, s.data(), s.size()); }

const char* Reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    default:
      return "Status";
  }
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

}  // namespace

HttpTestServer::HttpTestServer(Handler handler) : handler_(std::move(handler)) {
  port_ = listener_.port();
  acceptor_ = std::thread([this] { AcceptLoop(); });
}

HttpTestServer::~HttpTestServer() {
  stopping_ = true;
  listener_.Shutdown();
  acceptor_.join();
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (int fd : open_fds_) ::shutdown(fd, SHUT_RDWR);
  }
  for (auto& t : workers_) t.join();
}

void HttpTestServer::SetHandler(Handler handler) {
  std::lock_guard<std::mutex> lock(mu_);
  handler_ = std::move(handler);
}

std::vector<RecordedRequest> HttpTestServer::Requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_;
}

void HttpTestServer::ClearRequests() {
  std::lock_guard<std::mutex> lock(mu_);
  requests_.clear();
}

void HttpTestServer::AcceptLoop() {
  while (!stopping_) {
    pollfd p{listener_.fd(), POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    int fd = listener_.Accept();
    if (fd < 0) continue;
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    const int connection = ++connections_;
    std::lock_guard<std::mutex> lock(mu_);
    open_fds_.push_back(fd);
    workers_.emplace_back([this, fd, connection] { Serve(fd, connection); });
  }
}

void HttpTestServer::Serve(int fd, int connection) {
  std::string buffer;
  char chunk[65536];
  const auto read_more = [&]() -> bool {
    ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer.append(chunk, static_cast<std::size_t>(n));
    return true;
  };
  while (!stopping_) {
    std::size_t header_end;
    while ((header_end = buffer.find("\r\n\r\n")) == std::string::npos)
      if (!read_more()) goto done;
    {
      RecordedRequest req;
      req.connection = connection;
      const std::string head = buffer.substr(0, header_end);
      buffer.erase(0, header_end + 4);
      std::size_t line_end = head.find("\r\n");
      const std::string request_line = head.substr(0, line_end);
      const auto sp1 = request_line.find(' ');
      const auto sp2 = request_line.rfind(' ');
      req.method = request_line.substr(0, sp1);
      std::string target = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
      const auto q = target.find('?');
      req.path = target.substr(0, q);
      if (q != std::string::npos) req.query = target.substr(q + 1);
      std::size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
      while (pos < head.size()) {
        std::size_t end = head.find("\r\n", pos);
        if (end == std::string::npos) end = head.size();
        const std::string line = head.substr(pos, end - pos);
        const auto colon = line.find(':');
        if (colon != std::string::npos) {
          std::string value = line.substr(colon + 1);
          value.erase(0, value.find_first_not_of(' '));
          req.headers[Lower(line.substr(0, colon))] = value;
        }
        pos = end + 2;
      }
      const std::size_t length = req.headers.count("content-length") ? std::stoul(req.headers["content-length"]) : 0;
      while (buffer.size() < length)
        if (!read_more()) goto done;
      req.body = buffer.substr(0, length);
      buffer.erase(0, length);

      Handler handler;
      {
        std::lock_guard<std::mutex> lock(mu_);
        requests_.push_back(req);
        handler = handler_;
      }
      const Reply reply = handler(req);
      if (reply.kind == Reply::Kind::kCloseWithoutAnswer) goto done;
      std::string head_out = "HTTP/1.1 " + std::to_string(reply.status) + " " + Reason(reply.status) + "\r\n";
      head_out += "Content-Type: " + reply.content_type + "\r\n";
      if (reply.kind == Reply::Kind::kChunked) {
        head_out += "Transfer-Encoding: chunked\r\n\r\n";
        if (!SendAll(fd, head_out)) goto done;
        const std::size_t step = 1 << 20;
        for (std::size_t off = 0; off < reply.body.size(); off += step) {
          const std::size_t n = std::min(step, reply.body.size() - off);
          char size_line[32];
          std::snprintf(size_line, sizeof size_line, "%zx\r\n", n);
          if (!SendAll(fd, size_line, std::strlen(size_line)) || !SendAll(fd, reply.body.data() + off, n) ||
              !SendAll(fd, "\r\n", 2))
            goto done;
        }
        if (!SendAll(fd, "0\r\n\r\n", 5)) goto done;
        continue;
      }
      head_out += "Content-Length: " + std::to_string(reply.body.size()) + "\r\n\r\n";
      if (reply.kind == Reply::Kind::kTruncated) {
        SendAll(fd, head_out);
        SendAll(fd, reply.body.data(), reply.body.size() / 2);
        goto done;
      }
      if (!SendAll(fd, head_out) || !SendAll(fd, reply.body)) goto done;
    }
  }
done : {
  std::lock_guard<std::mutex> lock(mu_);
  open_fds_.erase(std::remove(open_fds_.begin(), open_fds_.end(), fd), open_fds_.end());
}
  ::close(fd);
}

}  // namespace balcao::api::testing
