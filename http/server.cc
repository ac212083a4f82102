// Server: the io_context, its threads, the listeners and the TLS context (Asio, no Beast; the
// connections are internal/connection.cc). A listener whose accept fails for want of a
// resource waits (AcceptBackoff) instead of retrying at once.
#include "http/server.h"

#include <algorithm>
#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <optional>
#include <thread>

#include "common/log.h"
#include "http/internal/accept_backoff.h"
#include "http/internal/connection.h"

namespace balcao::http {
namespace {

namespace net = boost::asio;
namespace ssl = net::ssl;

std::atomic<std::uint64_t> g_failed_accepts{0};
using tcp = net::ip::tcp;
using boost::system::error_code;

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(net::io_context& io, std::shared_ptr<internal::Shared> shared, ssl::context* tls)
      : io_(io),
        acceptor_(net::make_strand(io)),
        retry_timer_(acceptor_.get_executor()),
        shared_(std::move(shared)),
        tls_(tls) {}

  Status Bind(const std::string& address, unsigned short port) {
    error_code ec;
    const auto ip = net::ip::make_address(address, ec);
    if (ec) return InvalidArgumentError("not an IP address: " + address);
    const tcp::endpoint endpoint(ip, port);
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (ec) return UnavailableError("cannot listen on " + address + ":" + std::to_string(port) + ": " + ec.message());
    address_ = address + ":" + std::to_string(acceptor_.local_endpoint().port());
    return OkStatus();
  }
  unsigned short port() const { return acceptor_.local_endpoint().port(); }

  void Start() {
    net::dispatch(acceptor_.get_executor(), [self = shared_from_this()] { self->DoAccept(); });
  }
  void Close() {
    net::post(acceptor_.get_executor(), [self = shared_from_this()] {
      self->closed_ = true;
      error_code ignored;
      self->acceptor_.close(ignored);
      self->retry_timer_.cancel();
    });
  }

 private:
  void DoAccept() {
    if (closed_) return;
    acceptor_.async_accept(net::make_strand(io_), [self = shared_from_this()](error_code ec, tcp::socket socket) {
      self->OnAccept(ec, std::move(socket));
    });
  }

  void OnAccept(error_code ec, tcp::socket socket) {
    if (closed_ || ec == net::error::operation_aborted) return;
    if (ec && ec.category() == boost::system::system_category() && internal::IsPerConnectionAcceptError(ec.value()))
      return DoAccept();
    if (ec) {
      // EMFILE and the like: the pending connection keeps the socket readable, so an accept
      // at once would fail again at once. Wait, log once per burst.
      g_failed_accepts.fetch_add(1, std::memory_order_relaxed);
      const auto step = backoff_.Failed();
      if (step.starts_burst)
        logging::Warn("http", "accept failing, retrying with back-off (100 ms doubling to 1 s)",
                      {{"server", shared_->options.server_name}, {"address", address_}, {"reason", ec.message()}});
      retry_timer_.expires_after(step.wait);
      retry_timer_.async_wait([self = shared_from_this()](error_code wait_ec) {
        if (!wait_ec) self->DoAccept();
      });
      return;
    }
    if (const int failures = backoff_.Succeeded(); failures > 0)
      logging::Info("http", "accepting again",
                    {{"server", shared_->options.server_name}, {"address", address_}, {"failed_accepts", failures}});
    internal::ServeConnection(shared_, std::move(socket), tls_);
    DoAccept();
  }

  net::io_context& io_;
  tcp::acceptor acceptor_;
  net::steady_timer retry_timer_;
  std::shared_ptr<internal::Shared> shared_;
  ssl::context* tls_;
  std::string address_;
  internal::AcceptBackoff backoff_;  // on the acceptor's strand
  bool closed_ = false;              // on the acceptor's strand
};

}  // namespace

std::uint64_t FailedAccepts() { return g_failed_accepts.load(std::memory_order_relaxed); }

struct Server::Impl {
  Impl(ServerOptions options, Handler handler) : io(std::max(1, options.threads)) {
    shared = std::make_shared<internal::Shared>();
    shared->options = std::move(options);
    shared->handler = std::move(handler);
  }

  StatusOr<unsigned short> Add(const std::string& address, unsigned short port, ssl::context* context) {
    auto listener = std::make_shared<Listener>(io, shared, context);
    BALCAO_RETURN_IF_ERROR(listener->Bind(address, port));
    listeners.push_back(listener);
    return listener->port();
  }

  std::unique_ptr<ssl::context> tls;  // declared before io: outlives the connections io destroys
  net::io_context io;
  std::optional<net::executor_work_guard<net::io_context::executor_type>> work;
  std::shared_ptr<internal::Shared> shared;
  std::vector<std::shared_ptr<Listener>> listeners;
  std::vector<std::thread> threads;
  bool stopped = false;
};

Server::Server(ServerOptions options, Handler handler)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(handler))) {}

Server::~Server() { Stop(); }

StatusOr<unsigned short> Server::Listen(const std::string& address, unsigned short port) {
  return impl_->Add(address, port, nullptr);
}

StatusOr<unsigned short> Server::ListenTls(const std::string& address, unsigned short port) {
  if (!impl_->tls) {
    const ServerOptions& o = impl_->shared->options;
    if (o.tls_cert_pem.empty() || o.tls_key_pem.empty())
      return InvalidArgumentError("TLS needs tls_cert_pem and tls_key_pem");
    auto context = std::make_unique<ssl::context>(ssl::context::tls_server);
    context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                         ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    error_code ec;
    context->use_certificate_chain(net::buffer(o.tls_cert_pem), ec);
    if (!ec) context->use_private_key(net::buffer(o.tls_key_pem), ssl::context::pem, ec);
    if (ec) return InvalidArgumentError("TLS certificate or key rejected: " + ec.message());
    impl_->tls = std::move(context);
  }
  return impl_->Add(address, port, impl_->tls.get());
}

boost::asio::io_context& Server::io() { return impl_->io; }

void Server::Start() {
  impl_->work.emplace(impl_->io.get_executor());
  for (auto& listener : impl_->listeners) listener->Start();
  const int n = std::max(1, impl_->shared->options.threads);
  for (int i = 0; i < n; ++i) impl_->threads.emplace_back([this] { impl_->io.run(); });
}

void Server::Stop() {
  if (!impl_ || impl_->stopped) return;
  impl_->stopped = true;
  for (auto& listener : impl_->listeners) listener->Close();
  impl_->shared->connections.ShutdownAll();
  if (!impl_->threads.empty())
    impl_->shared->connections.WaitEmpty(std::chrono::steady_clock::now() + impl_->shared->options.stop_grace);
  impl_->work.reset();
  impl_->io.stop();
  for (auto& thread : impl_->threads)
    if (thread.joinable()) thread.join();
  impl_->threads.clear();
  impl_->listeners.clear();
}

}  // namespace balcao::http
