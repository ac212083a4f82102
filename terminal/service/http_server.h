// The touchscreen service's HTTP/1.1 server: Boost.Beast behind a pimpl (Beast lives only in
// http_server.cc, docs/style.md S10). It owns the process's one io_context (the offline drainer and
// the connectivity monitor run their timers on it too) and the threads that run it.
// Handlers are asynchronous: a handler gets the request and a Respond callback that may be
// called later, from any thread, exactly once (the driver's thread answers most API calls).
// Thread-safety: Listen before Start; Stop from any thread but a handler.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace boost::asio {
class io_context;
}

namespace balcao::terminal::service {

struct HttpRequest {
  std::string method;
  std::string path;                                          // without the query
  std::string query;                                         // after '?', raw
  std::vector<std::pair<std::string, std::string>> headers;  // names lowercased
  std::string body;
  // First header with this (lowercase) name, or "".
  std::string_view Header(std::string_view name) const {
    for (const auto& [k, v] : headers)
      if (k == name) return v;
    return {};
  }
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json; charset=utf-8";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra headers
};

using Respond = std::function<void(HttpResponse)>;
using HttpHandler = std::function<void(HttpRequest request, Respond respond)>;

struct HttpServerOptions {
  int threads = 2;
  std::size_t body_limit = 64 * 1024;  // larger bodies get 413
  int idle_timeout_seconds = 30;
};

class HttpServer {
 public:
  HttpServer(HttpServerOptions options, HttpHandler handler);
  ~HttpServer();  // Stop()s
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds address:port (0 = any free port); returns the bound port. kUnavailable naming the
  // address when it cannot be bound.
  StatusOr<unsigned short> Listen(const std::string& address, unsigned short port);
  boost::asio::io_context& io();
  void Start();  // accepts and runs the io_context on `threads` threads
  void Stop();   // stops accepting, stops the io_context, joins the threads

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace balcao::terminal::service
