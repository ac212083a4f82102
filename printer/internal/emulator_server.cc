// VirtualPrinterServer: the Asio side of the virtual printer. One of the two Asio TUs of
// the printer.
#include <array>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>
#include <utility>

#include "printer/emulator.h"

namespace balcao::printer {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;
namespace fs = std::filesystem;

bool WriteFileAtomically(const fs::path& path, const std::string& data) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out.write(data.data(), static_cast<std::streamsize>(data.size()))) return false;
  }
  std::error_code sec;
  fs::rename(tmp, path, sec);
  return !sec;
}

int HighestJobNumber(const fs::path& dir) {
  int highest = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    int n = 0;
    if (std::sscanf(name.c_str(), "job-%d.json", &n) == 1 && n > highest) highest = n;
  }
  return highest;
}

}  // namespace

struct VirtualPrinterServer::Impl : std::enable_shared_from_this<VirtualPrinterServer::Impl> {
  explicit Impl(EmulatorOptions o) : options(std::move(o)), acceptor(io), socket(io) {}

  EmulatorOptions options;
  asio::io_context io;
  tcp::acceptor acceptor;
  tcp::socket socket;
  std::unique_ptr<Interpreter> interpreter;
  std::array<char, 16384> buffer{};
  std::uint64_t connection_bytes = 0;
  std::thread thread;
  std::atomic<int> jobs{0};
  std::atomic<bool> is_dead{false};
  int next_job = 1;
  std::string last_base;  // path stem of the last job written on this connection
  VirtualPage last_page;  // its metadata (no pixels)
  mutable std::mutex mu;  // state and last_error
  PrinterState state;
  std::string error;

  void Accept() {
    acceptor.async_accept(socket, [self = shared_from_this()](error_code ec) {
      if (ec) return;  // acceptor closed: stopping
      InterpreterOptions io_opts = self->options.interpreter;
      {
        std::lock_guard<std::mutex> lock(self->mu);
        io_opts.state = self->state;
      }
      self->interpreter = std::make_unique<Interpreter>(io_opts);
      self->last_base.clear();
      self->connection_bytes = 0;
      error_code ignored;
      self->socket.set_option(tcp::no_delay(true), ignored);
      self->Read();
    });
  }

  void Read() {
    socket.async_read_some(asio::buffer(buffer),
                           [self = shared_from_this()](error_code ec, size_t n) { self->OnRead(ec, n); });
  }

  void OnRead(error_code ec, size_t n) {
    if (ec == asio::error::operation_aborted) return;
    if (ec) {  // the client closed: the job ends here
      interpreter->Finish();
      WritePages();
      AddTrailingQueries(interpreter->trailing_status_queries());
      CloseConnection();
      Accept();
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mu);
      interpreter->set_state(state);
    }
    size_t take = n;
    const std::uint64_t limit = options.die_after_bytes;
    const bool dying = limit != 0 && connection_bytes + n >= limit;
    if (dying) take = static_cast<size_t>(limit - connection_bytes);
    connection_bytes += take;
    const std::string replies = interpreter->Feed(std::string_view(buffer.data(), take));
    WritePages();  // pages completed by a cut are written now, not at close
    if (dying) {
      Die();
      return;
    }
    if (!replies.empty()) {
      error_code wec;
      asio::write(socket, asio::buffer(replies), wec);
    }
    Read();
  }

  // Power loss: reset the connection, forget the job in progress, accept nothing more.
  void Die() {
    is_dead = true;
    error_code ignored;
    socket.set_option(asio::socket_base::linger(true, 0), ignored);
    socket.close(ignored);
    acceptor.close(ignored);
    interpreter.reset();
  }

  void CloseConnection() {
    error_code ignored;
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
    interpreter.reset();
  }

  // Status queries sent after the last job's cut, on the same connection, belong to it:
  // its .json is rewritten with them.
  void AddTrailingQueries(const std::vector<StatusQuery>& queries) {
    if (queries.empty() || last_base.empty()) return;
    last_page.status_queries.insert(last_page.status_queries.end(), queries.begin(), queries.end());
    if (!WriteFileAtomically(last_base + ".json", last_page.Json())) {
      std::lock_guard<std::mutex> lock(mu);
      error = "cannot write " + last_base + ".json";
    }
  }

  void WritePages() {
    for (VirtualPage& page : interpreter->TakePages()) {
      char stem[32];
      std::snprintf(stem, sizeof stem, "job-%06d", next_job++);
      const fs::path base = fs::path(options.out_dir) / stem;
      last_base = base.string();
      bool ok = WriteFileAtomically(base.string() + ".txt", page.Text());
      if (options.write_png) {
        StatusOr<std::string> png = page.Png();
        ok = ok && png.ok() && WriteFileAtomically(base.string() + ".png", *png);
      }
      ok = ok && WriteFileAtomically(base.string() + ".json", page.Json());
      if (!ok) {
        std::lock_guard<std::mutex> lock(mu);
        error = "cannot write " + base.string() + ".*";
      }
      last_page = std::move(page);
      last_page.canvas.reset();
      ++jobs;
    }
  }
};

VirtualPrinterServer::VirtualPrinterServer(EmulatorOptions options)
    : impl_(std::make_shared<Impl>(std::move(options))) {}

VirtualPrinterServer::~VirtualPrinterServer() { Stop(); }

StatusOr<unsigned short> VirtualPrinterServer::Start() {
  Impl& s = *impl_;
  if (s.thread.joinable()) return FailedPreconditionError("virtual printer already started");
  if (s.options.out_dir.empty()) return InvalidArgumentError("virtual printer: out_dir is empty");
  std::error_code fec;
  fs::create_directories(s.options.out_dir, fec);
  if (fec) return UnavailableError("virtual printer: cannot create " + s.options.out_dir + ": " + fec.message());
  if (s.options.interpreter.draw == false) s.options.write_png = false;
  s.next_job = HighestJobNumber(s.options.out_dir) + 1;
  error_code ec;
  const auto address = asio::ip::make_address(s.options.address, ec);
  if (ec) return InvalidArgumentError("virtual printer: bad address '" + s.options.address + "'");
  const tcp::endpoint endpoint(address, s.options.port);
  s.acceptor.open(endpoint.protocol(), ec);
  if (!ec) s.acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) s.acceptor.bind(endpoint, ec);
  if (!ec) s.acceptor.listen(16, ec);
  if (ec) {
    return UnavailableError("virtual printer: cannot listen on " + s.options.address + ":" +
                            std::to_string(s.options.port) + ": " + ec.message());
  }
  const unsigned short port = s.acceptor.local_endpoint().port();
  s.Accept();
  s.thread = std::thread([impl = impl_] { impl->io.run(); });
  return port;
}

void VirtualPrinterServer::Stop() {
  Impl& s = *impl_;
  if (!s.thread.joinable()) return;
  asio::post(s.io, [impl = impl_] {
    error_code ignored;
    impl->acceptor.close(ignored);
    impl->socket.set_option(asio::socket_base::linger(true, 0), ignored);
    impl->socket.close(ignored);
    impl->io.stop();
  });
  s.thread.join();
  // Let the aborted operations complete so their handlers (which hold the Impl) are freed.
  s.io.restart();
  s.io.run();
}

void VirtualPrinterServer::set_state(const PrinterState& state) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->state = state;
}

int VirtualPrinterServer::jobs_written() const { return impl_->jobs.load(); }
bool VirtualPrinterServer::dead() const { return impl_->is_dead.load(); }
std::string VirtualPrinterServer::last_error() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->error;
}

}  // namespace balcao::printer
