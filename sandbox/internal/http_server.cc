// The only sandbox TU that includes Asio/Beast (docs/style.md S10). Shape follows Beast's
// advanced_server_flex (1.74): one session template for plain and TLS streams, a strand
// per connection, a fresh parser per request.
#include "sandbox/internal/http_server.h"

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <cctype>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

namespace balcao::sandbox::internal {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

struct Shared {
  HttpServerOptions options;
  HttpHandler handler;
};

template <class Stream>
class Session : public std::enable_shared_from_this<Session<Stream>> {
 public:
  template <class... Args>
  Session(std::shared_ptr<Shared> shared, Args&&... args)
      : shared_(std::move(shared)),
        stream_(std::forward<Args>(args)...),
        timer_(beast::get_lowest_layer(stream_).get_executor()) {}

  void Run() {
    if constexpr (std::is_same_v<Stream, beast::tcp_stream>) {
      DoRead();
    } else {
      Lowest().expires_after(std::chrono::seconds(shared_->options.idle_timeout_seconds));
      stream_.async_handshake(ssl::stream_base::server, [self = this->shared_from_this()](beast::error_code ec) {
        if (!ec) self->DoRead();
      });
    }
  }

 private:
  beast::tcp_stream& Lowest() { return beast::get_lowest_layer(stream_); }

  void DoRead() {
    parser_.emplace();
    parser_->body_limit(shared_->options.body_limit);
    Lowest().expires_after(std::chrono::seconds(shared_->options.idle_timeout_seconds));
    http::async_read(stream_, buffer_, *parser_,
                     [self = this->shared_from_this()](beast::error_code ec, std::size_t) { self->OnRead(ec); });
  }

  void OnRead(beast::error_code ec) {
    if (ec == http::error::body_limit) return StartDrain();
    if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == net::error::operation_aborted ||
        ec == net::error::connection_reset || ec == net::error::eof || ec == ssl::error::stream_truncated)
      return Close(false);
    if (ec) return WriteFixed(400, shared_->options.bad_request_body);
    auto& msg = parser_->get();
    HttpRequest req;
    req.method = std::string(msg.method_string());
    req.target = std::string(msg.target());
    req.tls = !std::is_same_v<Stream, beast::tcp_stream>;
    for (const auto& field : msg) {
      std::string name(field.name_string());
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
      req.headers.emplace_back(std::move(name), std::string(field.value()));
    }
    req.body = std::move(msg.body());
    keep_alive_ = msg.keep_alive();
    version_ = msg.version();
    HttpResponse res = shared_->handler(req);
    if (res.disposition == Disposition::kReset) return Close(true);
    if (res.disposition == Disposition::kDrop) return Close(false);
    Respond(std::move(res));
  }

  // The declared body is larger than the limit: read and discard it (up to drain_limit),
  // so the client is not reset while still sending, then answer 413 and close.
  void StartDrain() {
    keep_alive_ = false;
    // Beast reports body_limit from inside header parsing, before content_length() is
    // defined (it asserts), so read the declared length from the parsed fields.
    std::optional<std::uint64_t> length;
    if (auto f = parser_->get().find(http::field::content_length); f != parser_->get().end()) {
      const auto v = f->value();
      if (!v.empty() && v.size() <= 18 && std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
        length = std::stoull(std::string(v));
    }
    if (!length || *length > shared_->options.drain_limit) return WriteFixed(413, shared_->options.too_large_body);
    drain_left_ = *length > buffer_.size() ? *length - buffer_.size() : 0;
    buffer_.consume(buffer_.size());
    Drain();
  }

  void Drain() {
    if (drain_left_ == 0) return WriteFixed(413, shared_->options.too_large_body);
    Lowest().expires_after(std::chrono::seconds(shared_->options.idle_timeout_seconds));
    auto chunk = std::min<std::size_t>(drain_left_, scratch_.size());
    stream_.async_read_some(net::buffer(scratch_.data(), chunk),
                            [self = this->shared_from_this()](beast::error_code ec, std::size_t n) {
                              if (ec) return self->Close(false);
                              self->drain_left_ -= std::min(n, self->drain_left_);
                              self->Drain();
                            });
  }

  void WriteFixed(int status, const std::string& body) {
    keep_alive_ = false;
    HttpResponse res;
    res.status = status;
    res.body = body;
    Respond(std::move(res));
  }

  void Respond(HttpResponse res) {
    auto out = std::make_shared<http::response<http::string_body>>();
    out->version(version_ ? version_ : 11);
    out->result(static_cast<http::status>(res.status));
    out->set(http::field::server, "balcao-sandbox");
    out->set(http::field::content_type, res.content_type);
    out->keep_alive(keep_alive_);
    out->body() = std::move(res.body);
    out->prepare_payload();
    response_ = out;
    if (res.delay_ms > 0) {
      timer_.expires_after(std::chrono::milliseconds(res.delay_ms));
      timer_.async_wait([self = this->shared_from_this()](beast::error_code) { self->DoWrite(); });
      return;
    }
    DoWrite();
  }

  void DoWrite() {
    Lowest().expires_after(std::chrono::seconds(shared_->options.idle_timeout_seconds));
    http::async_write(stream_, *response_, [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec || !self->keep_alive_) return self->Close(false);
      self->response_.reset();
      self->DoRead();
    });
  }

  void Close(bool reset) {
    beast::error_code ignored;
    auto& socket = Lowest().socket();
    if (reset)
      socket.set_option(net::socket_base::linger(true, 0), ignored);
    else
      socket.shutdown(tcp::socket::shutdown_send, ignored);
    socket.close(ignored);
  }

  std::shared_ptr<Shared> shared_;
  Stream stream_;
  net::steady_timer timer_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<http::response<http::string_body>> response_;
  bool keep_alive_ = true;
  unsigned version_ = 11;
  std::size_t drain_left_ = 0;
  std::array<char, 16384> scratch_{};
};

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(net::io_context& ioc, std::shared_ptr<Shared> shared, ssl::context* tls)
      : ioc_(ioc), acceptor_(net::make_strand(ioc)), shared_(std::move(shared)), tls_(tls) {}

  Status Bind(unsigned short port) {
    beast::error_code ec;
    tcp::endpoint ep(net::ip::make_address("127.0.0.1"), port);
    acceptor_.open(ep.protocol(), ec);
    if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(ep, ec);
    if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (ec) return UnavailableError("cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + ec.message());
    return OkStatus();
  }
  unsigned short port() const { return acceptor_.local_endpoint().port(); }
  void Start() { DoAccept(); }
  void Close() {
    net::post(acceptor_.get_executor(), [self = shared_from_this()] {
      beast::error_code ignored;
      self->acceptor_.close(ignored);
    });
  }

 private:
  void DoAccept() {
    acceptor_.async_accept(net::make_strand(ioc_), [self = shared_from_this()](beast::error_code ec, tcp::socket s) {
      if (ec == net::error::operation_aborted || !self->acceptor_.is_open()) return;
      if (!ec) {
        s.set_option(tcp::no_delay(true), ec);
        if (self->tls_) {
          std::make_shared<Session<beast::ssl_stream<beast::tcp_stream>>>(self->shared_, std::move(s), *self->tls_)
              ->Run();
        } else {
          std::make_shared<Session<beast::tcp_stream>>(self->shared_, std::move(s))->Run();
        }
      }
      self->DoAccept();
    });
  }

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  std::shared_ptr<Shared> shared_;
  ssl::context* tls_;
};

}  // namespace

struct HttpServer::Impl {
  explicit Impl(HttpServerOptions options, HttpHandler handler)
      : ioc(options.threads),
        tls(ssl::context::tls_server),
        shared(std::make_shared<Shared>(Shared{std::move(options), std::move(handler)})) {}
  net::io_context ioc;
  ssl::context tls;
  bool tls_ready = false;
  std::shared_ptr<Shared> shared;
  std::vector<std::shared_ptr<Listener>> listeners;
  std::vector<std::thread> threads;
};

HttpServer::HttpServer(HttpServerOptions options, HttpHandler handler)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(handler))) {}

HttpServer::~HttpServer() { Stop(); }

StatusOr<unsigned short> HttpServer::ListenHttp(unsigned short port) {
  auto listener = std::make_shared<Listener>(impl_->ioc, impl_->shared, nullptr);
  BALCAO_RETURN_IF_ERROR(listener->Bind(port));
  impl_->listeners.push_back(listener);
  return listener->port();
}

StatusOr<unsigned short> HttpServer::ListenHttps(unsigned short port) {
  if (!impl_->tls_ready) {
    beast::error_code ec;
    const auto& o = impl_->shared->options;
    impl_->tls.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                           ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    impl_->tls.use_certificate_chain(net::buffer(o.tls_cert_pem), ec);
    if (!ec) impl_->tls.use_private_key(net::buffer(o.tls_key_pem), ssl::context::pem, ec);
    if (ec) return InvalidArgumentError("TLS certificate or key rejected: " + ec.message());
    impl_->tls_ready = true;
  }
  auto listener = std::make_shared<Listener>(impl_->ioc, impl_->shared, &impl_->tls);
  BALCAO_RETURN_IF_ERROR(listener->Bind(port));
  impl_->listeners.push_back(listener);
  return listener->port();
}

void HttpServer::Start() {
  for (auto& l : impl_->listeners) l->Start();
  const int n = std::max(1, impl_->shared->options.threads);
  for (int i = 0; i < n; ++i) impl_->threads.emplace_back([this] { impl_->ioc.run(); });
}

void HttpServer::Stop() {
  if (!impl_) return;
  for (auto& l : impl_->listeners) l->Close();
  impl_->ioc.stop();
  for (auto& t : impl_->threads)
    if (t.joinable()) t.join();
  impl_->threads.clear();
  impl_->listeners.clear();
}

}  // namespace balcao::sandbox::internal
