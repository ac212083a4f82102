// The spooler: takes print jobs from the store's durable queue (offline::PrintJobs),
// sends each to its printer, and marks it printed or failed. A failed job stays in the
// queue as "paid but not printed" with its error, until it is reprinted: automatically
// when its printer answers again (unless the job opens the cash drawer: a drawer is never
// kicked twice without an operator), or by the operator (PrintJobs::Requeue).
// It lives beside the queue it drains, as the drainer lives beside the outbox: offline/
// owns the jobs, printer/ only renders and transports them (docs/architecture.md).
// Thread-safety: RunOnce from one thread at a time; Start/Stop run it on a background thread.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "common/status.h"
#include "offline/print_jobs.h"
#include "printer/transport.h"

namespace balcao::offline {

struct SpoolerOptions {
  printer::SendOptions send;
  std::chrono::milliseconds poll_interval{500};
  // Automatic reprints of one job when its printer returns; beyond this only the operator.
  int max_auto_attempts = 10;
  // How a job's target becomes a transport (tests may substitute).
  std::function<StatusOr<std::unique_ptr<printer::Transport>>(const std::string& target)> open = printer::OpenTransport;
};

struct SpoolPass {
  int printed = 0;
  int failed = 0;
  int requeued = 0;  // failed jobs put back because their printer answered again
};

class Spooler {
 public:
  explicit Spooler(PrintJobs& jobs, SpoolerOptions options = {});
  ~Spooler();  // Stop()
  Spooler(const Spooler&) = delete;
  Spooler& operator=(const Spooler&) = delete;

  // One pass: requeue failed jobs whose printer is back, then print every queued job.
  StatusOr<SpoolPass> RunOnce();
  // RunOnce every poll_interval on a background thread, until Stop().
  void Start();
  void Stop();

 private:
  Status PrintOne(const PrintJob& job, SpoolPass& pass);
  StatusOr<int> RequeueWhereBack();

  PrintJobs& jobs_;
  SpoolerOptions options_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace balcao::offline
