// The only service TU that includes Beast (docs/style.md S10). Shape follows Beast's
// advanced_server (1.74): a strand per connection, a fresh parser per request with a body
// limit, a read timeout; the answer may come later from another thread (posted back onto
// the connection's strand). One request at a time per connection (HTTP/1.1 keep-alive).
#include "terminal/service/http_server.h"

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <cctype>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

namespace balcao::terminal::service {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

struct Shared {
  HttpServerOptions options;
  HttpHandler handler;
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(std::shared_ptr<Shared> shared, tcp::socket socket)
      : shared_(std::move(shared)), stream_(std::move(socket)) {}

  void DoRead() {
    parser_.emplace();
    parser_->body_limit(shared_->options.body_limit);
    stream_.expires_after(std::chrono::seconds(shared_->options.idle_timeout_seconds));
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) { self->OnRead(ec); });
  }

 private:
  void OnRead(beast::error_code ec) {
    if (ec == http::error::body_limit) {
      keep_alive_ = false;
      return Write(
          {413, "application/json; charset=utf-8", R"({"error":{"field":"body","rule":"at most 64 KiB"}})", {}});
    }
    if (ec) return Close();
    auto& msg = parser_->get();
    HttpRequest request;
    request.method = std::string(msg.method_string());
    const std::string target(msg.target());
    const auto q = target.find('?');
    request.path = target.substr(0, q);
    if (q != std::string::npos) request.query = target.substr(q + 1);
    for (const auto& field : msg) {
      std::string name(field.name_string());
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
      request.headers.emplace_back(std::move(name), std::string(field.value()));
    }
    request.body = std::move(msg.body());
    keep_alive_ = msg.keep_alive();
    version_ = msg.version();
    parser_.reset();
    // No read timeout while the handler works (a bank call may take a while).
    stream_.expires_never();
    Respond respond = [self = shared_from_this()](HttpResponse response) {
      net::post(self->stream_.get_executor(),
                [self, response = std::move(response)]() mutable { self->Write(std::move(response)); });
    };
    shared_->handler(std::move(request), std::move(respond));
  }

  void Write(HttpResponse response) {
    auto out = std::make_shared<http::response<http::string_body>>();
    out->version(version_ ? version_ : 11);
    out->result(static_cast<http::status>(response.status));
    out->set(http::field::server, "balcao");
    out->set(http::field::content_type, response.content_type);
    out->set(http::field::cache_control, "no-store");
    for (const auto& [name, value] : response.headers) out->set(name, value);
    out->keep_alive(keep_alive_);
    out->body() = std::move(response.body);
    out->prepare_payload();
    stream_.expires_after(std::chrono::seconds(shared_->options.idle_timeout_seconds));
    http::async_write(stream_, *out, [self = shared_from_this(), out](beast::error_code ec, std::size_t) {
      if (ec || !self->keep_alive_) return self->Close();
      self->DoRead();
    });
  }

  void Close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.socket().close(ignored);
  }

  std::shared_ptr<Shared> shared_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  bool keep_alive_ = true;
  unsigned version_ = 11;
};

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(net::io_context& io, std::shared_ptr<Shared> shared)
      : io_(io), acceptor_(net::make_strand(io)), shared_(std::move(shared)) {}

  Status Bind(const std::string& address, unsigned short port) {
    beast::error_code ec;
    const auto ip = net::ip::make_address(address, ec);
    if (ec) return InvalidArgumentError("not an IP address: " + address);
    tcp::endpoint ep(ip, port);
    acceptor_.open(ep.protocol(), ec);
    if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(ep, ec);
    if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (ec) return UnavailableError("cannot listen on " + address + ":" + std::to_string(port) + ": " + ec.message());
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
    acceptor_.async_accept(net::make_strand(io_), [self = shared_from_this()](beast::error_code ec, tcp::socket s) {
      if (ec == net::error::operation_aborted || !self->acceptor_.is_open()) return;
      if (!ec) {
        s.set_option(tcp::no_delay(true), ec);
        std::make_shared<Session>(self->shared_, std::move(s))->DoRead();
      }
      self->DoAccept();
    });
  }

  net::io_context& io_;
  tcp::acceptor acceptor_;
  std::shared_ptr<Shared> shared_;
};

}  // namespace

struct HttpServer::Impl {
  Impl(HttpServerOptions options, HttpHandler handler)
      : io(std::max(1, options.threads)),
        shared(std::make_shared<Shared>(Shared{std::move(options), std::move(handler)})) {}
  net::io_context io;
  std::shared_ptr<Shared> shared;
  std::vector<std::shared_ptr<Listener>> listeners;
  std::vector<std::thread> threads;
};

HttpServer::HttpServer(HttpServerOptions options, HttpHandler handler)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(handler))) {}

HttpServer::~HttpServer() { Stop(); }

StatusOr<unsigned short> HttpServer::Listen(const std::string& address, unsigned short port) {
  auto listener = std::make_shared<Listener>(impl_->io, impl_->shared);
  BALCAO_RETURN_IF_ERROR(listener->Bind(address, port));
  impl_->listeners.push_back(listener);
  return listener->port();
}

boost::asio::io_context& HttpServer::io() { return impl_->io; }

void HttpServer::Start() {
  for (auto& l : impl_->listeners) l->Start();
  const int n = std::max(1, impl_->shared->options.threads);
  for (int i = 0; i < n; ++i) impl_->threads.emplace_back([this] { impl_->io.run(); });
}

void HttpServer::Stop() {
  if (!impl_) return;
  for (auto& l : impl_->listeners) l->Close();
  impl_->io.stop();
  for (auto& t : impl_->threads)
    if (t.joinable()) t.join();
  impl_->threads.clear();
  impl_->listeners.clear();
}

}  // namespace balcao::terminal::service
