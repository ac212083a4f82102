// Raw TCP 9100 ("JetDirect") transport: connect with a timeout, DLE EOT 1/2/4 before the
// job (refuse to print into a printer with no paper or the cover open), write with a
// deadline sized to the job, DLE EOT again after (a printer that ran out of paper or went
// away mid-job fails the job), then a graceful close so the last bytes are not lost.
// One of the two Asio TUs of the printer.
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <utility>

#include "printer/transport.h"

namespace balcao::printer {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

class TcpTransport final : public Transport {
 public:
  TcpTransport(std::string target, std::string host, std::string port)
      : target_(std::move(target)), host_(std::move(host)), port_(std::move(port)) {}

  StatusOr<SendReport> Send(std::string_view job, const SendOptions& options) override {
    asio::io_context io;
    tcp::socket socket(io);
    BALCAO_RETURN_IF_ERROR(Connect(io, socket, options));
    SendReport report;
    if (options.query_status) {
      BALCAO_ASSIGN_OR_RETURN(report.before, QueryStatus(io, socket, options));
      if (report.before.blocks_printing()) {
        return FailedPreconditionError("printer at " + target_ + " reports " + report.before.Describe() +
                                       "; nothing was sent");
      }
    }
    error_code ec;
    const auto deadline = WriteDeadline(job.size(), options);
    if (!RunWithTimeout(io, socket, deadline, [&](auto done) {
          asio::async_write(socket, asio::buffer(job.data(), job.size()), [&, done](error_code e, size_t) {
            ec = e;
            done();
          });
        })) {
      return DeadlineExceededError("printer at " + target_ + " did not take the " + std::to_string(job.size()) +
                                   "-byte job within " + std::to_string(deadline.count()) +
                                   " ms; it may be partly printed");
    }
    if (ec) return UnavailableError("printer at " + target_ + " went away mid-job: " + ec.message());
    if (options.query_status) {
      StatusOr<PrinterStatus> after = QueryStatus(io, socket, options);
      if (!after.ok()) {
        return UnavailableError("printer at " + target_ +
                                " went away before confirming the job: " + after.status().message());
      }
      report.after = *after;
      if (report.after.blocks_printing()) {
        return FailedPreconditionError("printer at " + target_ + " reports " + report.after.Describe() +
                                       " after the job; it may be partly printed");
      }
    }
    GracefulClose(io, socket, options);
    return report;
  }

  StatusOr<PrinterStatus> Probe(const SendOptions& options) override {
    asio::io_context io;
    tcp::socket socket(io);
    BALCAO_RETURN_IF_ERROR(Connect(io, socket, options));
    StatusOr<PrinterStatus> s = QueryStatus(io, socket, options);
    GracefulClose(io, socket, options);
    return s;
  }

  const std::string& target() const override { return target_; }

 private:
  // Runs one async operation started by `start(done)`; false when `timeout` passes first,
  // with the socket closed (or, for `keep_open`, only the operation cancelled).
  template <typename Start>
  static bool RunWithTimeout(asio::io_context& io, tcp::socket& socket, std::chrono::milliseconds timeout, Start start,
                             bool keep_open = false) {
    bool finished = false;
    start([&finished] { finished = true; });
    io.restart();
    io.run_for(timeout);
    if (finished) return true;
    error_code ignored;
    if (keep_open) {
      socket.cancel(ignored);  // completes the pending operation with operation_aborted
    } else {
      socket.close(ignored);
    }
    io.restart();
    io.run();
    return false;
  }

  Status Connect(asio::io_context& io, tcp::socket& socket, const SendOptions& options) {
    error_code ec;
    tcp::resolver resolver(io);
    const auto endpoints = resolver.resolve(host_, port_, ec);
    if (ec) return UnavailableError("printer at " + target_ + ": cannot resolve " + host_ + ": " + ec.message());
    if (!RunWithTimeout(io, socket, options.connect_timeout, [&](auto done) {
          asio::async_connect(socket, endpoints, [&, done](error_code e, const tcp::endpoint&) {
            ec = e;
            done();
          });
        })) {
      return UnavailableError("printer at " + target_ + " did not answer within " +
                              std::to_string(options.connect_timeout.count()) + " ms");
    }
    if (ec) return UnavailableError("printer at " + target_ + ": " + ec.message());
    socket.set_option(tcp::no_delay(true), ec);
    return OkStatus();
  }

  // DLE EOT 1, 2, 4. A printer that stays silent gives an unknown status, not an error; a
  // closed connection is an error.
  StatusOr<PrinterStatus> QueryStatus(asio::io_context& io, tcp::socket& socket, const SendOptions& options) {
    int replies[3] = {-1, -1, -1};
    const unsigned char kQueries[3] = {1, 2, 4};
    for (int i = 0; i < 3; ++i) {
      const unsigned char query[3] = {0x10, 0x04, kQueries[i]};
      error_code ec;
      asio::write(socket, asio::buffer(query), ec);
      if (ec) return UnavailableError("status query failed: " + ec.message());
      unsigned char byte = 0;
      if (!RunWithTimeout(
              io, socket, options.status_timeout,
              [&](auto done) {
                asio::async_read(socket, asio::buffer(&byte, 1), [&, done](error_code e, size_t) {
                  ec = e;
                  done();
                });
              },
              /*keep_open=*/true)) {
        return PrinterStatus{};  // a silent printer: status unknown, the job may still go
      }
      if (ec) return UnavailableError("connection closed by the printer: " + ec.message());
      replies[i] = byte;
    }
    return ParseStatusReplies(replies[0], replies[1], replies[2]);
  }

  // Half-close and wait briefly for the printer to close its side, so data still in
  // flight is not reset away.
  static void GracefulClose(asio::io_context& io, tcp::socket& socket, const SendOptions& options) {
    if (!socket.is_open()) return;
    error_code ec;
    socket.shutdown(tcp::socket::shutdown_send, ec);
    char sink[256];
    bool eof = false;
    while (!eof && socket.is_open()) {
      if (!RunWithTimeout(io, socket, options.status_timeout, [&](auto done) {
            socket.async_read_some(asio::buffer(sink), [&, done](error_code e, size_t) {
              eof = static_cast<bool>(e);
              done();
            });
          })) {
        break;
      }
    }
    socket.close(ec);
  }

  std::string target_;
  std::string host_;
  std::string port_;
};

}  // namespace

std::unique_ptr<Transport> MakeTcpTransport(std::string target, std::string host, std::string port) {
  return std::make_unique<TcpTransport>(std::move(target), std::move(host), std::move(port));
}

}  // namespace balcao::printer
