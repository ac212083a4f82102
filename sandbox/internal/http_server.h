// A small HTTP/1.1 server (Boost.Beast behind a pimpl: Beast lives only in
// http_server.cc): plain and TLS listeners on 127.0.0.1, keep-alive, a body limit answered
// with 413 (the rest of the body is drained first so the client reads the answer), read
// timeouts, and the fault dispositions of the sandbox (reset, drop, delay).
// Thread-safety: the handler is called concurrently from the pool's threads.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace balcao::sandbox::internal {

struct HttpRequest {
  std::string method;
  std::string target;                                        // path and query, as received
  std::vector<std::pair<std::string, std::string>> headers;  // names lowercased
  std::string body;
  bool tls = false;
  // First header with this (lowercase) name, or "".
  std::string_view Header(std::string_view name) const {
    for (const auto& [k, v] : headers)
      if (k == name) return v;
    return {};
  }
};

enum class Disposition {
  kRespond,  // write the response (after delay_ms)
  kReset,    // close the connection with a TCP reset, no answer
  kDrop,     // close the connection without an answer (FIN)
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  Disposition disposition = Disposition::kRespond;
  int delay_ms = 0;
};

using HttpHandler = std::function<HttpResponse(HttpRequest& request)>;

struct HttpServerOptions {
  int threads = 2;
  std::size_t body_limit = 1 << 20;    // larger bodies get 413
  std::size_t drain_limit = 64 << 20;  // bodies up to this are drained before the 413
  int idle_timeout_seconds = 30;       // per read / keep-alive wait
  std::string tls_cert_pem;            // needed by ListenHttps
  std::string tls_key_pem;
  // Body of the 413 answer and of the 400 for unparseable HTTP.
  std::string too_large_body = R"({"errors":[{"code":"payloadTooLarge","message":"Request body exceeds 1 MB."}]})";
  std::string bad_request_body = R"({"errors":[{"code":"invalidRequest","message":"Malformed HTTP request."}]})";
};

class HttpServer {
 public:
  HttpServer(HttpServerOptions options, HttpHandler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Bind 127.0.0.1:port (0 = any free port); returns the bound port.
  StatusOr<unsigned short> ListenHttp(unsigned short port);
  StatusOr<unsigned short> ListenHttps(unsigned short port);
  void Start();  // starts the thread pool
  void Stop();   // stops accepting, closes connections, joins threads

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace balcao::sandbox::internal
