// Whether the bank can be reached, and what waits for it (docs/offline.md): the connectivity
// monitor's probes and the outbox's drainer, both on the HTTP server's io_context, over their
// own gateway client (its own connections: a slow bank call of the driver never delays them).
// Owns: the gateway, the drainer, the monitor, and the last verdict (online). Calls: the bank
// (probes, queued requests), the store's outbox.
// Thread-safety: Start/Stop from one thread; online() from any; the callbacks the service
// subscribes run on the io_context.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <memory>
#include <string>

#include "api/bank_clock.h"
#include "api/client.h"
#include "offline/api_gateway.h"
#include "offline/connectivity.h"
#include "offline/drainer.h"
#include "offline/outbox.h"
#include "offline/store.h"

namespace balcao::terminal::service {

class BankReach {
 public:
  // The gateway reads `credentials_path` ("" = the environment); every call is reported to
  // `observe` and signed with `clock`.
  static StatusOr<std::unique_ptr<BankReach>> Make(boost::asio::io_context& io, offline::Store& store,
                                                   offline::Outbox& outbox, const std::string& credentials_path,
                                                   const api::CallObserver& observe,
                                                   const std::shared_ptr<api::BankClock>& clock,
                                                   const offline::ConnectivityOptions& connectivity);
  BankReach(const BankReach&) = delete;
  BankReach& operator=(const BankReach&) = delete;

  void Start();
  void Stop();
  offline::ApiGateway& gateway() { return *gateway_; }
  offline::Drainer& drainer() { return *drainer_; }
  offline::ConnectivityMonitor& monitor() { return *monitor_; }
  const offline::ConnectivityMonitor& monitor() const { return *monitor_; }
  // The monitor's last verdict, as the service's subscriber recorded it.
  bool online() const { return online_.load(); }
  void SetOnline(bool online) { online_ = online; }

 private:
  BankReach() = default;

  std::unique_ptr<offline::ApiGateway> gateway_;
  std::unique_ptr<offline::Drainer> drainer_;
  std::unique_ptr<offline::ConnectivityMonitor> monitor_;
  std::atomic<bool> online_{true};
};

}  // namespace balcao::terminal::service
