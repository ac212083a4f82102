#include "offline/spooler.h"

#include <map>

#include "common/log.h"

namespace balcao::offline {

Spooler::Spooler(PrintJobs& jobs, SpoolerOptions options) : jobs_(jobs), options_(std::move(options)) {}

Spooler::~Spooler() { Stop(); }

Status Spooler::PrintOne(const PrintJob& job, SpoolPass& pass) {
  StatusOr<std::unique_ptr<printer::Transport>> transport = options_.open(job.target);
  Status result = transport.ok() ? OkStatus() : transport.status();
  if (result.ok()) {
    StatusOr<printer::SendReport> sent = (*transport)->Send(job.payload, options_.send);
    if (!sent.ok()) result = sent.status();
  }
  if (result.ok()) {
    ++pass.printed;
    return jobs_.MarkPrinted(job.id);
  }
  ++pass.failed;
  // The receipt is paid for and not printed: the operator's log says which and why (the job
  // waits as failed for a reprint, or for the printer to come back).
  logging::Warn("spooler", "print job failed",
                {{"job", job.id}, {"sale", job.sale_id}, {"target", job.target}, {"reason", result.message()}});
  return jobs_.MarkFailed(job.id, result.message());
}

StatusOr<int> Spooler::RequeueWhereBack() {
  BALCAO_ASSIGN_OR_RETURN(std::vector<PrintJob> failed, jobs_.List(PrintJobState::kFailed, 1000));
  std::map<std::string, bool> back;  // one probe per printer per pass
  int requeued = 0;
  for (const PrintJob& job : failed) {
    if (job.attempts >= options_.max_auto_attempts || job.opens_drawer)
      continue;  // never reprinted without an operator
    auto it = back.find(job.target);
    if (it == back.end()) {
      bool ok = false;
      StatusOr<std::unique_ptr<printer::Transport>> t = options_.open(job.target);
      if (t.ok()) {
        StatusOr<printer::PrinterStatus> s = (*t)->Probe(options_.send);
        ok = s.ok() && !s->blocks_printing();
      }
      it = back.emplace(job.target, ok).first;
    }
    if (!it->second) continue;
    BALCAO_RETURN_IF_ERROR(jobs_.Requeue(job.id));
    ++requeued;
  }
  return requeued;
}

StatusOr<SpoolPass> Spooler::RunOnce() {
  SpoolPass pass;
  BALCAO_ASSIGN_OR_RETURN(pass.requeued, RequeueWhereBack());
  while (!stop_) {
    BALCAO_ASSIGN_OR_RETURN(std::optional<PrintJob> job, jobs_.ClaimNext());
    if (!job) break;
    BALCAO_RETURN_IF_ERROR(PrintOne(*job, pass));
  }
  return pass;
}

void Spooler::Start() {
  if (thread_.joinable()) return;
  stop_ = false;
  thread_ = std::thread([this] {
    while (!stop_) {
      RunOnce().IgnoreError();  // errors are on the jobs themselves; the store error repeats next pass
      for (auto waited = std::chrono::milliseconds(0); waited < options_.poll_interval && !stop_;
           waited += std::chrono::milliseconds(20)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
  });
}

void Spooler::Stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

}  // namespace balcao::offline
