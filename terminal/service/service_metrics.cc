#include "terminal/service/service_metrics.h"

#include <chrono>

namespace balcao::terminal::service {

StatusOr<std::unique_ptr<ScrapeGauges>> ScrapeGauges::Create() {
  auto g = std::make_unique<ScrapeGauges>();
  metrics::Registry& r = g->registry;
  BALCAO_ASSIGN_OR_RETURN(g->sales, r.AddGauge("balcao_sales_today",
                                               "Sales opened today (store day, Brasilia time) on this box, by method "
                                               "(none before one is chosen) and status (paid, refunded, voided, "
                                               "pay-later, queued, pix...). Read from the sale book at each scrape.",
                                               {"method", "status"}));
  BALCAO_ASSIGN_OR_RETURN(
      g->collected, r.AddGauge("balcao_sales_today_collected_cents",
                               "Money collected by today's sales, refunds deducted, by method, in cents.", {"method"}));
  BALCAO_ASSIGN_OR_RETURN(
      g->outbox_depth, r.AddGauge("balcao_outbox_depth", "Outbox requests not yet done (pending, inflight, unknown)."));
  BALCAO_ASSIGN_OR_RETURN(g->outbox_unknown, r.AddGauge("balcao_outbox_unknown",
                                                        "Outbox requests whose outcome is unknown (to be looked up)."));
  BALCAO_ASSIGN_OR_RETURN(
      g->outbox_failed,
      r.AddGauge("balcao_outbox_failed", "Outbox requests refused by the bank or given up, and not dropped."));
  BALCAO_ASSIGN_OR_RETURN(g->outbox_oldest_age,
                          r.AddGauge("balcao_outbox_oldest_age_seconds",
                                     "Age of the oldest outbox request not yet done; 0 when none waits."));
  BALCAO_ASSIGN_OR_RETURN(g->outbox_at_risk, r.AddGauge("balcao_outbox_amount_at_risk_cents",
                                                        "Cents of the outbox requests not done and not dropped."));
  BALCAO_ASSIGN_OR_RETURN(g->print_jobs, r.AddGauge("balcao_print_jobs",
                                                    "Print jobs in the store by state: queued, printing, printed, "
                                                    "failed (paid but not printed, until reprinted).",
                                                    {"state"}));
  BALCAO_ASSIGN_OR_RETURN(g->settlement_at, r.AddGauge("balcao_settlement_last_run_timestamp_seconds",
                                                       "When the latest settlement recorded in the store ran (Unix "
                                                       "time); 0 before the first."));
  BALCAO_ASSIGN_OR_RETURN(g->settlement_status,
                          r.AddGauge("balcao_settlement_last_status",
                                     "1 for the latest settlement's result, 0 for the other: reconciled, or attention "
                                     "(something for the operator); absent before the first.",
                                     {"status"}));
  BALCAO_ASSIGN_OR_RETURN(g->settlement_attention,
                          r.AddGauge("balcao_settlement_last_attention_items",
                                     "Items of the latest settlement that need the operator; 0 before the first."));
  BALCAO_ASSIGN_OR_RETURN(
      g->bank_online,
      r.AddGauge("balcao_bank_online", "1 while the connectivity monitor's last probe reached the bank."));
  BALCAO_ASSIGN_OR_RETURN(g->store_errors,
                          r.AddGauge("balcao_metrics_store_errors",
                                     "Store reads that failed while building this page (their gauges are left out)."));
  BALCAO_ASSIGN_OR_RETURN(g->clock_offset,
                          r.AddGauge("balcao_clock_offset_seconds",
                                     "The bank's clock minus the box's, learned from the Date of the bank's answers "
                                     "(requests are signed with the bank's time); 0 before the first answer."));
  BALCAO_ASSIGN_OR_RETURN(g->disk_free, r.AddGauge("balcao_data_dir_free_bytes",
                                                   "Free space for the service in the data dir's filesystem "
                                                   "(new sales are refused below disk_free_floor_mb)."));
  BALCAO_ASSIGN_OR_RETURN(g->failed_accepts,
                          r.AddCounter("balcao_http_failed_accepts_total",
                                       "Connections the service could not accept for want of file descriptors (or "
                                       "memory): it waits 100 ms to 1 s between tries. Since the process started."));
  return g;
}

StatusOr<std::unique_ptr<ServiceMetrics>> ServiceMetrics::Create() {
  BALCAO_RETURN_IF_ERROR(ScrapeGauges::Create().status());  // declared right, or serve does not start
  std::unique_ptr<ServiceMetrics> m(new ServiceMetrics());
  // Bank answers take tens of milliseconds; a call with retries and backoff, or one that
  // times out, takes seconds (the client's total timeout is 30 s, the drainer's 15 s).
  BALCAO_ASSIGN_OR_RETURN(
      m->bank_calls_, m->registry_.AddHistogram(
                          "balcao_bank_call_duration_seconds",
                          "Bank API calls, retries and backoff included, by method, endpoint template and outcome "
                          "(ok, not_sent, unknown, rejected, server_error, bad_answer). Since the process started.",
                          {"method", "route", "outcome"}, {0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}));
  BALCAO_ASSIGN_OR_RETURN(
      m->unknown_resolved_,
      m->registry_.AddCounter("balcao_unknown_outcomes_resolved_total",
                              "Writes whose outcome was unknown, settled by a lookup at the bank: where (checkout: the "
                              "sale's driver; outbox: the drainer) and result (found: it had taken effect; absent: it "
                              "had not, sent again). Since the process started.",
                              {"where", "result"}));
  BALCAO_ASSIGN_OR_RETURN(m->webhooks_,
                          m->registry_.AddCounter("balcao_webhook_deliveries_total",
                                                  "Bank webhook deliveries received, by result: applied, ignored, "
                                                  "not-yet (409), replayed (an event taken before: 200, nothing done), "
                                                  "rejected (bad or missing signature 401, unreadable event 400), "
                                                  "too-old (older than the replay window, 422), unavailable (key, bank "
                                                  "or store unreadable, 503). Since the process started.",
                                                  {"result"}));
  BALCAO_ASSIGN_OR_RETURN(m->store_failures_,
                          m->registry_.AddCounter("balcao_store_write_failures_total",
                                                  "Store writes the disk refused (full, I/O error), by where they were "
                                                  "asked: api, timer, webhook, book. Since the process started.",
                                                  {"where"}));
  for (const char* where : {"api", "timer", "webhook", "book"}) m->store_failures_->With({where});
  // The known label values show as 0 from the start, so a rate over them is defined.
  for (const char* where : {"checkout", "outbox"})
    for (const char* result : {"found", "absent"}) m->unknown_resolved_->With({where, result});
  for (const char* result : {"applied", "ignored", "not-yet", "replayed", "rejected", "too-old", "unavailable"})
    m->webhooks_->With({result});
  return m;
}

void ServiceMetrics::ObserveBankCall(const api::CallRecord& call) {
  bank_calls_->With({call.method, call.route, call.outcome})
      .Observe(std::chrono::duration<double>(call.elapsed).count());
}

void ServiceMetrics::CountUnknownResolved(std::string_view where, bool found) {
  unknown_resolved_->With({where, found ? "found" : "absent"}).Inc();
}

void ServiceMetrics::CountWebhook(std::string_view result) { webhooks_->With({result}).Inc(); }

void ServiceMetrics::CountStoreFailure(std::string_view where) { store_failures_->With({where}).Inc(); }

std::string ServiceMetrics::Render() const { return registry_.Render(); }

}  // namespace balcao::terminal::service
