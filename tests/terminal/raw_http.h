// A raw HTTP/1.1 client over a TCP socket, for requests no HTTP library would send (broken
// framing, NUL bytes, partial requests): the caller writes bytes, and reads back one answer at
// a time (status line, headers, a Content-Length body). Thread-safety: one thread per connection.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace balcao::terminal::testing {

struct RawAnswer {
  bool answered = false;  // a whole answer came back
  int status = 0;
  std::string head;  // status line and headers, as received
  std::string body;
  bool closes = false;  // "Connection: close", or the connection ended after it
};

class RawConnection {
 public:
  // Connects to 127.0.0.1:port; ok() says whether it did.
  explicit RawConnection(unsigned short port);
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  bool ok() const { return fd_ >= 0; }
  // Writes all of `bytes`; false when the peer closed or reset, or a write stalled for 10 s.
  bool Send(std::string_view bytes);
  void ShutdownWrite();  // no more bytes from this side (the server sees the end of the stream)
  // The next answer, waiting at most `timeout`; answered=false when the connection ended (or
  // the time ran out, then timed_out()) first.
  RawAnswer Read(std::chrono::milliseconds timeout);
  bool timed_out() const { return timed_out_; }

 private:
  // Reads more into buffer_ until `deadline`; false on the end of the stream, an error or time.
  bool Fill(std::chrono::steady_clock::time_point deadline);

  int fd_ = -1;
  std::string buffer_;
  bool timed_out_ = false;
};

}  // namespace balcao::terminal::testing
