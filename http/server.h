// balcao_http: the one HTTP/1.1 server of the project (the sandbox and `balcao serve` both run
// on it). Plain and TLS listeners, keep-alive, and the limits that keep a bad client from
// costing more than it should: a body limit (the rest of the body is read and discarded, within
// bounds, then 413), a header limit (431), a read timeout (a request not complete in time closes
// its connection), a back-off after failed accepts (EMFILE does not spin), a graceful Stop.
// Boost.Beast stays behind http/internal/ (style: Beast in few TUs); this header names only
// the io_context, for callers that run their timers on the server's threads.
//
// Handlers are asynchronous: `void(HttpRequest, Respond)`, where Respond may be called later,
// from any thread, once (later calls are ignored; dropping it unanswered closes the
// connection); a Respond held on another thread is called or dropped before the Server is
// destroyed (it keeps its connection, whose timers live in the server's io_context). A check
// before every handler (a Host allow-list, a session) is a Handler that wraps the next one, e.g.
// `[next](HttpRequest r, Respond a) { if (bad(r)) return a(r421); next(std::move(r),
// std::move(a)); }`: the request carries its headers, peer and transport.
// Thread-safety: Listen/ListenTls before Start; Stop from any thread but a handler's.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
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

namespace balcao::http {

using Headers = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method;  // as sent: "GET", "POST"...
  std::string target;  // path and query, as received
  std::string path;    // the target before '?'
  std::string query;   // after '?', raw ("" when none)
  Headers headers;     // names lowercased, in the order received
  std::string body;
  std::string remote_address;  // the peer's IP ("127.0.0.1", "::1")
  unsigned short remote_port = 0;
  bool tls = false;       // came in on a ListenTls listener
  unsigned version = 11;  // 10 or 11
  // First header with this (lowercase) name, or "".
  std::string_view Header(std::string_view name) const;
};

// What becomes of the connection instead of (or with) the answer.
enum class Disposition {
  kRespond,  // write the response (after `delay`)
  kReset,    // close the connection with a TCP reset, no answer
  kDrop,     // close the connection without an answer (FIN)
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  Headers headers;  // extra headers, a name may repeat; they replace ServerOptions::response_headers of that name
  Disposition disposition = Disposition::kRespond;
  std::chrono::milliseconds delay{0};  // hold the answer this long (the sandbox's delay fault)
};

using Respond = std::function<void(HttpResponse)>;
using Handler = std::function<void(HttpRequest, Respond)>;
// A handler that answers before returning, on the server's thread.
using SyncHandler = std::function<HttpResponse(HttpRequest&)>;
Handler Synchronous(SyncHandler handler);

// A request the server answers by itself, before (or instead of) any handler.
struct Refusal {
  // 400 malformed, 408 not complete within read_timeout, 413 body too large, 414 request line
  // too long, 431 headers too large, 500 handler threw
  int status = 400;
  std::string field;      // "request", "body", "target", "headers", "service"
  std::string rule;       // "well-formed HTTP/1.1", "at most 64 KiB" (from the limit in force)...
  std::size_t limit = 0;  // the byte limit broken (413, 431), else 0
};
// {"error":{"field":...,"rule":...}} (the default ServerOptions::refusal).
HttpResponse JsonRefusal(const Refusal& refusal);
// "64 KiB", "1 MiB", "1000 bytes": a byte count as a person reads it, exact.
std::string DescribeBytes(std::size_t bytes);

struct ServerOptions {
  int threads = 2;
  std::size_t body_limit = 1 << 20;    // larger bodies get 413
  std::size_t header_limit = 8 << 10;  // start line + header fields; larger get 431
  // An oversized body is read and discarded before the 413 when what is left of it is at most
  // this (so a client that sends its whole body before reading gets the answer, not a reset);
  // past it, or without a length (chunked), the 413 goes at once and at most this much more is
  // discarded before the close. Either way within one read_timeout.
  std::size_t drain_limit = 64 << 20;
  // A request (or a TLS handshake, or a discard) must complete within this; an idle
  // keep-alive connection is closed after it; a response must be taken within it.
  std::chrono::milliseconds read_timeout{30'000};
  // Stop() lets requests in flight answer for this long before it closes them.
  std::chrono::milliseconds stop_grace{5'000};
  std::string server_name = "balcao";  // the Server header
  Headers response_headers;            // added to every answer, refusals included
  std::function<HttpResponse(const Refusal&)> refusal = JsonRefusal;
  std::string tls_cert_pem;  // certificate chain, for ListenTls
  std::string tls_key_pem;
};

// Accepts that failed for want of descriptors or memory (EMFILE, ENFILE, ENOBUFS...), by every
// server of the process since it started: the descriptor shortage, as a metric can show it.
std::uint64_t FailedAccepts();

class Server {
 public:
  Server(ServerOptions options, Handler handler);
  ~Server();  // Stop()s
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds address:port (0 = any free port) and returns the bound port. kInvalidArgument:
  // not an IP address (or, for TLS, the certificate or key rejected); kUnavailable: cannot bind.
  StatusOr<unsigned short> Listen(const std::string& address, unsigned short port);
  StatusOr<unsigned short> ListenTls(const std::string& address, unsigned short port);
  // The io_context the server's threads run (timers of the caller may share it).
  boost::asio::io_context& io();
  void Start();  // accepts, and runs the io_context on `threads` threads
  // Stops accepting, closes idle connections, lets requests in flight answer (with
  // Connection: close) for up to stop_grace, then stops the io_context and joins the threads.
  void Stop();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace balcao::http
