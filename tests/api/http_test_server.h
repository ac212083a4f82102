// A real HTTP/1.1 server on 127.0.0.1 for the client tests and the benchmark: plain POSIX
// sockets, one thread per connection, keep-alive. It records every request (method,
// path, raw query, headers, body) and answers with what the test's handler returns,
// including misbehaviour: closing without an answer, a truncated body, a huge body.
// Thread-safety: Requests()/handler swaps are guarded by a mutex.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/testing/loopback.h"

namespace balcao::api::testing {

struct RecordedRequest {
  std::string method;
  std::string path;                            // without the query
  std::string query;                           // raw, as sent, without '?'
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  int connection = 0;  // which accepted connection carried it (1, 2, ...)
  std::string Header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
  }
};

struct Reply {
  enum class Kind {
    kNormal,
    kCloseWithoutAnswer,  // read the request, then close the connection
    kTruncated,           // declare Content-Length of the body, send half of it, close
    kChunked,             // send the body with chunked transfer encoding
  };
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
  Kind kind = Kind::kNormal;
};

class HttpTestServer {
 public:
  using Handler = std::function<Reply(const RecordedRequest&)>;

  explicit HttpTestServer(Handler handler);
  ~HttpTestServer();

  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  void SetHandler(Handler handler);
  std::vector<RecordedRequest> Requests() const;
  void ClearRequests();
  int connections() const { return connections_.load(); }

 private:
  void AcceptLoop();
  void Serve(int fd, int connection);

  Handler handler_;
  test_util::LoopbackListener listener_{64};
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> connections_{0};
  mutable std::mutex mu_;
  std::vector<RecordedRequest> requests_;
  std::vector<int> open_fds_;
  std::thread acceptor_;
  std::vector<std::thread> workers_;
};

}  // namespace balcao::api::testing
