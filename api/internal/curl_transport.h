// The one owner of libcurl handles. Send() takes an easy handle from a pool (keep-alive:
// each handle keeps its connections), performs one request and returns the handle.
// It decides, where curl's state is visible, whether a failed request could have reached
// the server (docs/style.md S7): nothing is "sent" until curl's PREREQ callback fires for a
// connected socket. A request that must not be repeated (POST/PATCH/PUT/DELETE) is
// aborted if curl tries to replay it on a fresh connection after a dead reused one.
// Thread-safety: Send() may be called concurrently.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"

namespace balcao::api::internal {

struct HttpRequest {
  std::string method;  // GET, POST, PUT, PATCH, DELETE
  std::string url;     // absolute
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  bool may_replay = false;  // true for GET: curl may silently replay on a dead reused connection
};

struct HttpAnswer {
  int status = 0;
  std::string body;
  std::string content_type;
  std::int64_t date_seconds = -1;  // the answer's Date header as Unix seconds, -1 when absent or unreadable
};

struct TransportOptions {
  std::string ca_file;
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds total_timeout{30000};
  std::size_t max_response_bytes = 20u << 20;
};

// Transport failures: kUnavailable with Delivery::kNotSent, or kDeadlineExceeded with
// Delivery::kOutcomeUnknown; an oversized answer is kResourceExhausted (kAnswered).
class CurlTransport {
 public:
  explicit CurlTransport(TransportOptions options);
  ~CurlTransport();
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  StatusOr<HttpAnswer> Send(const HttpRequest& request);

 private:
  void* Acquire();
  void Release(void* handle);

  TransportOptions options_;
  std::mutex mu_;
  std::vector<void*> idle_;  // CURL* easy handles
};

// True for "localhost", "127.x.x.x" and "::1" (http:// is allowed only to these).
bool IsLoopbackHost(std::string_view host);

}  // namespace balcao::api::internal
