// The box's health (docs/terminal.md, "Health and metrics"): the bank (the connectivity
// monitor's last verdict), the clock's offset from the bank's, the disk (free space in the data
// dir, a store write refused) and the printer (the print jobs), in one place for /api/status,
// the touchscreen's status line and the hub's heartbeat; the probes GET /healthz and /readyz
// (which writes one probe file and one store row) and the Prometheus page GET /metrics (a few
// indexed queries of the store). Never calls the bank, and never waits for the driver.
// Owns: what it measured of the disk (free bytes, a failing store) and whether the clock's
// warning is in the log. Calls: the store, the outbox, the print jobs, the sale book (the day's
// tallies), the connectivity monitor, the bank's clock, the webhook's registration, the metrics.
// Thread-safety: CheckIfDue/CheckHealth on the driver's thread; the rest from any thread.
#pragma once

#include <atomic>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "api/bank_clock.h"
#include "http/server.h"
#include "offline/connectivity.h"
#include "offline/outbox.h"
#include "offline/print_jobs.h"
#include "offline/store.h"
#include "terminal/service/config.h"
#include "terminal/service/sale_book.h"
#include "terminal/service/service_metrics.h"
#include "terminal/service/webhook_registration.h"

namespace balcao::terminal::service {

class Health {
 public:
  Health(const ServeConfig& config, std::string data_dir, offline::Store& store, offline::Outbox& outbox,
         offline::PrintJobs& print_jobs, const SaleBook& book, const offline::ConnectivityMonitor& monitor,
         const api::BankClock& clock, const WebhookRegistration& webhook, ServiceMetrics& metrics);
  Health(const Health&) = delete;
  Health& operator=(const Health&) = delete;

  // A store write the disk refused: counted, and logged (the first of a run of failures as an
  // error naming the write and the system's reason; later ones until it works again at debug).
  void NoteStoreFailure(std::string_view where, const Status& status);
  // Free space, a store that works again after failing, the clock's offset: CheckHealth, when
  // `now` is past the next look (every few seconds).
  void CheckIfDue(UnixMicros now);
  void CheckHealth();
  // Free bytes in the data dir at the last look; -1 before the first.
  long long free_bytes() const { return free_bytes_.load(); }
  // The box's health in one place (bank, clock, disk, printer, webhook): /api/status's "health"
  // and the touchscreen's status line; /readyz adds the probes that write.
  nlohmann::json HealthJson();
  // --- probes and metrics, any io thread ---
  http::HttpResponse Healthz() const;  // 200 {"status":"ok"}
  http::HttpResponse Readyz();         // 200, or 503 naming each failing check
  http::HttpResponse MetricsPage();    // Prometheus text format 0.0.4

 private:
  const ServeConfig& config_;
  const std::string data_dir_;
  offline::Store& store_;
  offline::Outbox& outbox_;
  offline::PrintJobs& print_jobs_;
  const SaleBook& book_;
  const offline::ConnectivityMonitor& monitor_;
  const api::BankClock& clock_;
  const WebhookRegistration& webhook_;
  ServiceMetrics& metrics_;
  std::atomic<long long> free_bytes_{-1};
  std::atomic<bool> store_failing_{false};  // a store write failed since the last success
  UnixMicros next_check_ = 0;               // driver thread
  bool clock_warned_ = false;               // driver thread: the offset's warning is in the log
};

}  // namespace balcao::terminal::service
