// The connectivity monitor (see connectivity.h). The probe is a blocking HTTP call, so
// it runs on a one-thread pool; state changes are delivered on the io_context.
#include "offline/connectivity.h"

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <map>
#include <mutex>
#include <random>
#include <utility>

#include "common/log.h"

namespace balcao::offline {

struct ConnectivityMonitor::Impl : std::enable_shared_from_this<Impl> {
  Impl(boost::asio::io_context& io_, BankGateway& bank_, ConnectivityOptions options_)
      : io(io_), bank(bank_), options(std::move(options_)), timer(io_), is_online(options.start_online) {}

  boost::asio::io_context& io;
  BankGateway& bank;
  ConnectivityOptions options;
  boost::asio::steady_timer timer;
  std::unique_ptr<boost::asio::thread_pool> pool;
  std::atomic<bool> running{false};
  std::atomic<bool> is_online;
  std::atomic<bool> probing{false};
  // A probe asked for while one was in flight (a call not sent meanwhile): that probe may have
  // started before the outage and answer "reachable", so another one follows it at once.
  bool probe_again = false;  // io thread only
  std::atomic<int> probe_count{0};
  int failures = 0;  // io thread only
  std::chrono::milliseconds backoff{0};
  std::mt19937_64 rng{std::random_device{}()};
  std::mutex mu;
  std::map<int, Listener> listeners;
  int next_id = 1;

  void Schedule(std::chrono::milliseconds delay) {
    timer.expires_after(delay);
    timer.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
      if (!ec) self->Probe();
    });
  }

  void Probe() {
    if (!running) return;
    if (probing.exchange(true)) {
      probe_again = true;
      return;
    }
    ++probe_count;
    boost::asio::post(*pool, [self = shared_from_this()] {
      auto answer = self->bank.Call("GET", self->options.probe_path, {}, "");
      const Status& s = answer.status();
      const bool reachable =
          answer.ok() || (s.delivery() == Delivery::kAnswered && s.http_status() >= 400 && s.http_status() < 500);
      std::string why = reachable ? "" : s.ToString();
      boost::asio::post(self->io, [self, reachable, why = std::move(why)] { self->Observed(reachable, why); });
    });
  }

  void Observed(bool reachable, const std::string& why) {
    probing = false;
    if (!running) return;
    const bool again = std::exchange(probe_again, false);
    if (reachable) {
      failures = 0;
      backoff = options.backoff_initial;
      Change(true, "");
      Schedule(again ? std::chrono::milliseconds(0) : options.online_interval);
      return;
    }
    ++failures;
    logging::Debug("connectivity", "probe failed",
                   {{"probe", options.probe_path}, {"failures", failures}, {"error", why}});
    if (failures >= options.failures_to_offline) Change(false, why);
    // Capped exponential backoff with jitter in [delay/2, delay].
    backoff = std::min(options.backoff_max, failures == 1 ? options.backoff_initial : backoff * 2);
    const double unit = std::uniform_real_distribution<double>(0.5, 1.0)(rng);
    Schedule(std::chrono::milliseconds(static_cast<std::int64_t>(static_cast<double>(backoff.count()) * unit)));
  }

  void Change(bool online, const std::string& why) {
    if (is_online.exchange(online) == online) return;
    if (online)
      logging::Info("connectivity", "online: the bank answers", {{"probe", options.probe_path}});
    else
      logging::Warn("connectivity", "offline: the bank does not answer",
                    {{"probe", options.probe_path}, {"failures", failures}, {"error", why}});
    std::map<int, Listener> copy;
    {
      std::lock_guard<std::mutex> lock(mu);
      copy = listeners;
    }
    for (auto& [id, listener] : copy) listener(online);
  }
};

ConnectivityMonitor::ConnectivityMonitor(boost::asio::io_context& io, BankGateway& bank, ConnectivityOptions options)
    : impl_(std::make_shared<Impl>(io, bank, std::move(options))) {}

ConnectivityMonitor::~ConnectivityMonitor() { Stop(); }

void ConnectivityMonitor::Start() {
  if (impl_->running.exchange(true)) return;
  impl_->pool = std::make_unique<boost::asio::thread_pool>(1);
  boost::asio::post(impl_->io, [self = impl_] { self->Probe(); });
}

void ConnectivityMonitor::Stop() {
  if (!impl_->running.exchange(false)) return;
  boost::asio::post(impl_->io, [self = impl_] { self->timer.cancel(); });
  impl_->pool->join();
}

bool ConnectivityMonitor::online() const { return impl_->is_online.load(); }

int ConnectivityMonitor::Subscribe(Listener listener) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  const int id = impl_->next_id++;
  impl_->listeners[id] = std::move(listener);
  return id;
}

void ConnectivityMonitor::Unsubscribe(int id) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->listeners.erase(id);
}

void ConnectivityMonitor::ReportNotSent() {
  boost::asio::post(impl_->io, [self = impl_] { self->Probe(); });
}

int ConnectivityMonitor::probes() const { return impl_->probe_count.load(); }

}  // namespace balcao::offline
