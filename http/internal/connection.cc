// The only balcao_http TU with Beast (style: Beast fenced into few TUs). One Session per
// connection, on its own strand: read a request under the limits, hand it to the handler, write
// the answer (now or when Respond is called), and again while keep-alive holds.
#include "http/internal/connection.h"

#include <algorithm>
#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <exception>
#include <functional>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/log.h"

namespace balcao::http::internal {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

// RFC 9110's IMF-fixdate of the wall clock, "Sun, 06 Nov 1994 08:49:37 GMT": an origin server
// with a clock sends it on every answer, and the bank's clients learn the bank's time from it.
std::string HttpDateNow() {
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  char text[40];
  std::snprintf(text, sizeof text, "%s, %02d %s %04d %02d:%02d:%02d GMT", kDays[tm.tm_wday], tm.tm_mday,
                kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return text;
}
using PlainStream = beast::tcp_stream;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;
using Parser = bhttp::request_parser<bhttp::string_body>;

// How long after a request's read_timeout its 408 may take to go out.
constexpr std::chrono::seconds kTimeoutAnswerGrace{2};

// A parse error of the request itself (answered 400), as opposed to the peer leaving.
bool IsMalformed(const beast::error_code& ec) {
  return ec.category() == bhttp::make_error_code(bhttp::error::bad_target).category() &&
         ec != bhttp::error::end_of_stream && ec != bhttp::error::partial_message;
}

// The Content-Length the client declared (Beast has checked its syntax), if any.
std::optional<std::uint64_t> DeclaredLength(const Parser::value_type& message) {
  const auto it = message.find(bhttp::field::content_length);
  if (it == message.end()) return std::nullopt;
  const auto text = it->value();
  std::uint64_t length = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), length);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return length;
}

std::string Lowercase(beast::string_view text) {
  std::string out(text.data(), text.size());
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

template <class Stream>
class Session final : public Connection, public std::enable_shared_from_this<Session<Stream>> {
 public:
  static constexpr bool kTls = std::is_same_v<Stream, TlsStream>;

  template <class... StreamArgs>
  explicit Session(std::shared_ptr<Shared> shared, StreamArgs&&... stream_args)
      : shared_(std::move(shared)),
        stream_(std::forward<StreamArgs>(stream_args)...),
        delay_timer_(stream_.get_executor()),
        request_timer_(stream_.get_executor()) {}

  ~Session() override {
    if (id_ != 0) shared_->connections.Remove(id_);
  }

  auto executor() { return stream_.get_executor(); }

  // On the strand: joins the server's connections, then the TLS handshake or the first read.
  void Start() {
    id_ = shared_->connections.Add(this->weak_from_this());
    if (id_ == 0) return Close(false);  // Stop() is under way
    beast::error_code ec;
    const auto peer = Lowest().socket().remote_endpoint(ec);
    if (!ec) {
      remote_address_ = peer.address().to_string();
      remote_port_ = peer.port();
    }
    Lowest().socket().set_option(tcp::no_delay(true), ec);
    if constexpr (kTls) {
      Lowest().expires_after(options().read_timeout);
      reading_ = true;
      stream_.async_handshake(ssl::stream_base::server, [self = this->shared_from_this()](beast::error_code error) {
        self->reading_ = false;
        if (error || self->stopping_) return self->Close(false);
        self->DoRead();
      });
    } else {
      DoRead();
    }
  }

  void Shutdown() override {
    net::post(stream_.get_executor(), [self = this->shared_from_this()] {
      self->stopping_ = true;
      self->keep_alive_ = false;
      if (self->reading_) self->Close(false);  // idle, or a request not complete: nothing is lost
    });
  }

 private:
  const ServerOptions& options() const { return shared_->options; }
  beast::tcp_stream& Lowest() { return beast::get_lowest_layer(stream_); }

  void DoRead() {
    if (stopping_) return Close(false);
    parser_.emplace();
    parser_->body_limit(options().body_limit);
    parser_->header_limit(static_cast<std::uint32_t>(std::min<std::size_t>(options().header_limit, UINT32_MAX)));
    // One deadline for the whole request (Beast's stream timer is not re-armed per read), so
    // a client dripping bytes cannot hold the connection past it. At read_timeout the read is
    // cancelled, and a request begun gets its 408; the stream's own deadline, a little later,
    // bounds the answer to a client that does not read it.
    Lowest().expires_after(options().read_timeout + kTimeoutAnswerGrace);
    request_timer_.expires_after(options().read_timeout);
    request_timer_.async_wait([self = this->shared_from_this(), read = ++reads_](beast::error_code ec) {
      // A wait that fired as its request completed must not cancel the next one's read.
      if (ec || !self->reading_ || read != self->reads_) return;
      self->timed_out_ = true;
      beast::error_code ignored;
      self->Lowest().socket().cancel(ignored);
    });
    reading_ = true;
    bhttp::async_read(stream_, buffer_, *parser_,
                      [self = this->shared_from_this()](beast::error_code ec, std::size_t) { self->OnRead(ec); });
  }

  void OnRead(beast::error_code ec) {
    reading_ = false;
    request_timer_.cancel();
    const bool timed_out = std::exchange(timed_out_, false);
    if (!ec) return Dispatch();
    if (stopping_) return Close(false);
    version_ = parser_->get().version() == 10 ? 10 : 11;
    head_ = false;
    if (ec == bhttp::error::body_limit) return RefuseBody();
    if (ec == bhttp::error::header_limit) {
      // Past the limit before the end of the request line: the URL itself is too long.
      const std::string_view head(static_cast<const char*>(buffer_.data().data()), buffer_.size());
      if (head.find("\r\n") == std::string_view::npos)
        return Refuse({414, "target", "a request line of at most " + DescribeBytes(options().header_limit),
                       options().header_limit},
                      /*linger=*/true);
      return Refuse({431, "headers", "at most " + DescribeBytes(options().header_limit), options().header_limit},
                    /*linger=*/true);
    }
    if (IsMalformed(ec)) return Refuse({400, "request", "well-formed HTTP/1.1", 0}, /*linger=*/true);
    if (timed_out && (buffer_.size() > 0 || parser_->got_some()))
      return Refuse({408, "request", "complete within " + std::to_string(options().read_timeout.count()) + " ms", 0},
                    /*linger=*/false);
    Close(false);  // the peer left, or an idle keep-alive connection timed out
  }

  void Dispatch() {
    auto& message = parser_->get();
    HttpRequest request;
    request.method = std::string(message.method_string());
    request.target = std::string(message.target());
    const auto q = request.target.find('?');
    request.path = request.target.substr(0, q);
    if (q != std::string::npos) request.query = request.target.substr(q + 1);
    for (const auto& field : message)
      request.headers.emplace_back(Lowercase(field.name_string()), std::string(field.value()));
    request.body = std::move(message.body());
    request.remote_address = remote_address_;
    request.remote_port = remote_port_;
    request.tls = kTls;
    request.version = message.version();
    keep_alive_ = message.keep_alive() && !stopping_;
    version_ = message.version();
    head_ = message.method() == bhttp::verb::head;
    parser_.reset();
    Lowest().expires_never();  // the handler may take its time (a bank call)
    auto answered = std::make_shared<std::atomic<bool>>(false);
    Respond respond = [self = this->shared_from_this(), answered](HttpResponse response) {
      if (answered->exchange(true)) return;
      net::post(self->stream_.get_executor(),
                [self, response = std::move(response)]() mutable { self->OnAnswer(std::move(response)); });
    };
    try {
      shared_->handler(std::move(request), respond);
    } catch (const std::exception& e) {  // a handler's bug costs its request, not the server
      logging::Error("http", "handler failed", {{"server", options().server_name}, {"reason", e.what()}});
      respond(options().refusal({500, "service", "internal error", 0}));
    }
  }

  void OnAnswer(HttpResponse response) {
    if (response.disposition == Disposition::kReset) return Close(true);
    if (response.disposition == Disposition::kDrop) return Close(false);
    if (response.delay.count() > 0) {
      delay_timer_.expires_after(response.delay);
      delay_timer_.async_wait([self = this->shared_from_this(), response = std::move(response)](
                                  beast::error_code) mutable { self->Write(std::move(response)); });
      return;
    }
    Write(std::move(response));
  }

  void Write(HttpResponse response) {
    auto out = std::make_shared<bhttp::response<bhttp::string_body>>();
    out->version(version_);
    out->result(static_cast<unsigned>(response.status));
    out->set(bhttp::field::server, options().server_name);
    out->set(bhttp::field::date, HttpDateNow());
    out->set(bhttp::field::content_type, response.content_type);
    for (const auto& [name, value] : options().response_headers) out->set(name, value);
    // A handler's header replaces the server's of that name; its own may repeat (two Set-Cookie).
    for (const auto& [name, value] : response.headers) out->erase(name);
    for (const auto& [name, value] : response.headers) out->insert(name, value);
    out->keep_alive(keep_alive_);
    if (head_) {
      out->content_length(response.body.size());  // the length of what GET would send, no body
    } else {
      out->body() = std::move(response.body);
      out->prepare_payload();
    }
    Lowest().expires_after(options().read_timeout);  // a client that does not read loses the answer
    bhttp::async_write(stream_, *out, [self = this->shared_from_this(), out](beast::error_code ec, std::size_t) {
      if (ec) return self->Close(false);
      if (self->linger_) return self->Linger();
      if (!self->keep_alive_) return self->Close(false);
      self->DoRead();
    });
  }

  // The body is over the limit; the part already read goes with the buffer.
  void RefuseBody() {
    const Refusal refusal{413, "body", "at most " + DescribeBytes(options().body_limit), options().body_limit};
    const auto& message = parser_->get();
    const auto declared = DeclaredLength(message);
    // A client waiting for "100 Continue" has not sent its body: answer it at once instead.
    const bool expects_continue = beast::iequals(message[bhttp::field::expect], "100-continue");
    const std::size_t buffered = buffer_.size();
    buffer_.consume(buffered);
    if (declared && !expects_continue) {
      const std::uint64_t left = *declared > buffered ? *declared - buffered : 0;
      if (left <= options().drain_limit) {
        // Read the rest first, so that a client that writes its whole body before reading gets
        // the answer rather than a reset.
        return Discard(left, [self = this->shared_from_this(), refusal](bool complete) {
          if (!complete) return self->Close(false);
          self->Refuse(refusal, /*linger=*/false);
        });
      }
    }
    Refuse(refusal, /*linger=*/true);
  }

  // Answers `refusal` and closes; with `linger`, the rest of the request may still be coming.
  void Refuse(const Refusal& refusal, bool linger) {
    keep_alive_ = false;
    linger_ = linger;
    Write(options().refusal(refusal));
  }

  // The answer is written while the client may still be sending: closing with unread data
  // would reset the connection, which can destroy the answer before the client reads it. So
  // stop sending (FIN), drop what still comes (bounded), then close.
  void Linger() {
    beast::error_code ignored;
    Lowest().socket().shutdown(tcp::socket::shutdown_send, ignored);
    Discard(options().drain_limit, [self = this->shared_from_this()](bool) { self->Close(false); });
  }

  // Reads and drops up to `bytes` (fewer when the peer closes), all within one read_timeout;
  // `done(true)` when all were read.
  void Discard(std::uint64_t bytes, std::function<void(bool complete)> done) {
    discard_left_ = bytes;
    discard_done_ = std::move(done);
    discard_buffer_.resize(16 << 10);
    Lowest().expires_after(options().read_timeout);
    reading_ = true;  // what is discarded is a refused request: Stop() need not wait for it
    DiscardSome();
  }

  void DiscardSome() {
    if (discard_left_ == 0) return EndDiscard(true);
    const auto chunk = static_cast<std::size_t>(std::min<std::uint64_t>(discard_left_, discard_buffer_.size()));
    stream_.async_read_some(net::buffer(discard_buffer_.data(), chunk),
                            [self = this->shared_from_this()](beast::error_code ec, std::size_t n) {
                              self->discard_left_ -= std::min<std::uint64_t>(n, self->discard_left_);
                              if (ec) return self->EndDiscard(false);
                              self->DiscardSome();
                            });
  }

  void EndDiscard(bool complete) {
    reading_ = false;
    std::exchange(discard_done_, nullptr)(complete);
  }

  void Close(bool reset) {
    auto& socket = Lowest().socket();
    delay_timer_.cancel();
    request_timer_.cancel();
    if (!socket.is_open()) return;
    beast::error_code ignored;
    if (reset) {
      socket.set_option(net::socket_base::linger(true, 0), ignored);
    } else {
      socket.shutdown(tcp::socket::shutdown_send, ignored);
    }
    Lowest().close();
  }

  std::shared_ptr<Shared> shared_;
  Stream stream_;
  net::steady_timer delay_timer_;
  net::steady_timer request_timer_;  // read_timeout of the request being read
  beast::flat_buffer buffer_;
  std::optional<Parser> parser_;
  std::uint64_t id_ = 0;  // in shared_->connections
  std::string remote_address_;
  unsigned short remote_port_ = 0;
  bool reading_ = false;   // a handshake, a request read or a discard is pending: Shutdown closes it
  bool stopping_ = false;  // Shutdown() came: no further request
  bool keep_alive_ = true;
  bool linger_ = false;      // after this answer, Linger() rather than read or close
  bool head_ = false;        // the request was HEAD: headers only
  bool timed_out_ = false;   // request_timer_ cancelled the read
  std::uint64_t reads_ = 0;  // requests read so far: which one request_timer_ is for
  unsigned version_ = 11;
  std::uint64_t discard_left_ = 0;
  std::function<void(bool)> discard_done_;
  std::vector<char> discard_buffer_;
};

template <class Stream, class... StreamArgs>
void Serve(std::shared_ptr<Shared> shared, StreamArgs&&... stream_args) {
  auto session = std::make_shared<Session<Stream>>(std::move(shared), std::forward<StreamArgs>(stream_args)...);
  net::dispatch(session->executor(), [session] { session->Start(); });
}

}  // namespace

void ServeConnection(std::shared_ptr<Shared> shared, tcp::socket socket, ssl::context* tls) {
  if (tls != nullptr) {
    Serve<TlsStream>(std::move(shared), std::move(socket), *tls);
  } else {
    Serve<PlainStream>(std::move(shared), std::move(socket));
  }
}

}  // namespace balcao::http::internal
