// A raw TCP client of the tests of balcao_http: it writes exactly the bytes a test wants (a
// header flood, a body dripped a byte at a time) and reads what the server does with them,
// including how the connection ends. Every wait is bounded.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "http/server.h"

namespace balcao::http::testing {

struct RawResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // names lowercased
  std::string body;
  std::string Header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

// How a connection ended from the client's side.
struct Ending {
  std::string bytes;  // what came before the end
  std::string how;    // "eof", "reset" or "timeout"
  std::chrono::milliseconds after{0};
};

class RawConnection {
 public:
  explicit RawConnection(unsigned short port);  // to 127.0.0.1; sends time out after 10 s
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  bool connected() const { return fd_ >= 0; }
  // Writes all of `data`; false when the peer reset or closed (or 10 s passed).
  bool Send(std::string_view data);
  void CloseWrite();  // FIN: no more from the client
  // One response (status line, headers, Content-Length body unless `no_body`: the answer to
  // a HEAD has none); nullopt when the connection ended or `timeout` passed first.
  std::optional<RawResponse> ReadResponse(std::chrono::milliseconds timeout = std::chrono::seconds(5),
                                          bool no_body = false);
  // Reads until the server closes (or `timeout`).
  Ending ReadUntilClosed(std::chrono::milliseconds timeout);

 private:
  // More bytes into pending_; false on end or timeout (`how` says which).
  bool ReadMore(std::chrono::steady_clock::time_point deadline, std::string& how);

  int fd_ = -1;
  std::string pending_;
};

// A started server on 127.0.0.1:port (plain), stopped by its destructor.
struct LoopbackServer {
  LoopbackServer(ServerOptions options, Handler handler);
  std::unique_ptr<Server> server;
  unsigned short port = 0;
};

// "GET /path HTTP/1.1" with Host and the given extra header lines (each ending "\r\n").
std::string Get(const std::string& path, const std::string& extra_headers = "");

}  // namespace balcao::http::testing
