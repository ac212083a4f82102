// The process counters of `balcao serve` (docs/terminal.md, "Health and metrics"), recorded
// where things happen: every bank call (the api client's observer), every lookup that settled
// an unknown outcome (the driver's and the drainer's), every webhook delivery. They start at
// zero with the process. The figures read from the store at each scrape (sales, outbox,
// print jobs, settlement) are built by health.cc next to these.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "api/options.h"
#include "common/metrics.h"
#include "common/status.h"

namespace balcao::terminal::service {

// The gauges read from the store and the sale book at each scrape, in a registry of their
// own made afresh every time (a label set that no longer applies, such as a status no sale of
// today has any more, does not linger). health.cc sets their values.
struct ScrapeGauges {
  static StatusOr<std::unique_ptr<ScrapeGauges>> Create();

  metrics::Registry registry;
  metrics::GaugeFamily* sales = nullptr;      // {method, status}
  metrics::GaugeFamily* collected = nullptr;  // {method}
  metrics::GaugeFamily* outbox_depth = nullptr;
  metrics::GaugeFamily* outbox_unknown = nullptr;
  metrics::GaugeFamily* outbox_failed = nullptr;
  metrics::GaugeFamily* outbox_oldest_age = nullptr;
  metrics::GaugeFamily* outbox_at_risk = nullptr;
  metrics::GaugeFamily* print_jobs = nullptr;  // {state}
  metrics::GaugeFamily* settlement_at = nullptr;
  metrics::GaugeFamily* settlement_status = nullptr;  // {status}
  metrics::GaugeFamily* settlement_attention = nullptr;
  metrics::GaugeFamily* bank_online = nullptr;
  metrics::GaugeFamily* store_errors = nullptr;
  metrics::GaugeFamily* clock_offset = nullptr;
  metrics::GaugeFamily* disk_free = nullptr;
  metrics::CounterFamily* failed_accepts = nullptr;  // http::FailedAccepts(), copied at each scrape
};

class ServiceMetrics {
 public:
  // kInvalidArgument only if a family (here or in ScrapeGauges) were misdeclared.
  static StatusOr<std::unique_ptr<ServiceMetrics>> Create();

  // api::ClientOptions::observer of every client serve uses (driver, intake, drainer, probes).
  void ObserveBankCall(const api::CallRecord& call);
  // `where`: "checkout" (the driver's lookup) or "outbox" (the drainer's).
  void CountUnknownResolved(std::string_view where, bool found);
  // `result`: "applied", "ignored", "not-yet", "replayed" (the intake's), "rejected" (bad or
  // missing signature 401, unreadable event 400), "too-old" (older than the replay window,
  // 422) or "unavailable" (the key, the bank or the store could not be read, 503).
  void CountWebhook(std::string_view result);
  // A store write the disk refused (offline::IsDiskFailure), by where it was asked: "api" (a
  // cashier's request), "timer" (a sale's poll or countdown), "webhook", "book" (the day index).
  void CountStoreFailure(std::string_view where);

  std::string Render() const;  // the text exposition of these families

 private:
  ServiceMetrics() = default;

  metrics::Registry registry_;
  metrics::HistogramFamily* bank_calls_ = nullptr;
  metrics::CounterFamily* unknown_resolved_ = nullptr;
  metrics::CounterFamily* webhooks_ = nullptr;
  metrics::CounterFamily* store_failures_ = nullptr;
};

}  // namespace balcao::terminal::service
