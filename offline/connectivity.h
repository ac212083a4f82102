// The connectivity monitor: a cheap signed probe (GET /v2/balance) tells whether the
// bank answers. Online, it probes every `online_interval`; after `failures_to_offline`
// failed probes in a row the box is offline and it probes with capped exponential
// backoff (with jitter) until one answers. Subscribers hear every change, on the
// io_context. Other parts may report what they saw (a request not sent) to probe sooner.
// "Online" means the bank answered: a 200, or a 4xx (the bank is there, the request was
// wrong). 5xx, timeouts and transport failures count as failures.
// Thread-safety: all methods may be called from any thread.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "offline/bank_gateway.h"

namespace boost::asio {
class io_context;
}

namespace balcao::offline {

struct ConnectivityOptions {
  std::string probe_path = "/v2/balance";
  std::chrono::milliseconds online_interval{30'000};
  std::chrono::milliseconds backoff_initial{1'000};
  std::chrono::milliseconds backoff_max{60'000};
  int failures_to_offline = 2;
  bool start_online = true;  // assume online until a probe says otherwise
};

class ConnectivityMonitor {
 public:
  using Listener = std::function<void(bool online)>;
  ConnectivityMonitor(boost::asio::io_context& io, BankGateway& bank, ConnectivityOptions options = {});
  ~ConnectivityMonitor();  // Stop()s
  ConnectivityMonitor(const ConnectivityMonitor&) = delete;
  ConnectivityMonitor& operator=(const ConnectivityMonitor&) = delete;

  void Start();
  void Stop();  // waits for a probe in flight
  bool online() const;
  // Returns an id for Unsubscribe. The listener is not called for the current state.
  int Subscribe(Listener listener);
  void Unsubscribe(int id);
  // A request failed without reaching the bank: probe now instead of waiting.
  void ReportNotSent();
  int probes() const;  // probes sent so far

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace balcao::offline
