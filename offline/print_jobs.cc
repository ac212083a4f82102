// The print-job queue on the store.
#include "offline/print_jobs.h"

#include "offline/internal/db.h"

namespace balcao::offline {
namespace {

using internal::Stmt;
using internal::Txn;

constexpr const char* kColumns =
    "SELECT id, sale_id, kind, target, payload, state, attempts, last_error, created_at, updated_at, opens_drawer "
    "FROM print_jobs ";

StatusOr<PrintJobState> ParseState(const std::string& s) {
  for (auto state : {PrintJobState::kQueued, PrintJobState::kPrinting, PrintJobState::kPrinted, PrintJobState::kFailed})
    if (s == PrintJobStateName(state)) return state;
  return InternalError("print_jobs.state has unknown value '" + s + "'");
}

StatusOr<PrintJob> ReadJob(const Stmt& row) {
  PrintJob job;
  std::string state;
  row.ReadInto(job.id, job.sale_id, job.kind, job.target);
  job.payload = row.Blob(4);
  row.ReadFrom(5, state, job.attempts, job.last_error, job.created_at_ms, job.updated_at_ms, job.opens_drawer);
  BALCAO_ASSIGN_OR_RETURN(job.state, ParseState(state));
  return job;
}

Status UpdateJob(Store& store, std::int64_t id, const std::string& sql, const std::string& text, const char* rule) {
  return internal::GuardedUpdate(store.impl(), "print_jobs", "print job", id, sql, rule, [&](Stmt& stmt) {
    if (!text.empty()) stmt.Bind(3, text);
  });
}

}  // namespace

const char* PrintJobStateName(PrintJobState s) {
  switch (s) {
    case PrintJobState::kQueued:
      return "queued";
    case PrintJobState::kPrinting:
      return "printing";
    case PrintJobState::kPrinted:
      return "printed";
    case PrintJobState::kFailed:
      return "failed";
  }
  return "unknown";
}

PrintJobs::PrintJobs(Store& store) : store_(store) {}

StatusOr<std::int64_t> PrintJobs::Enqueue(const std::string& sale_id, const std::string& kind,
                                          const std::string& target, const std::string& payload, bool opens_drawer) {
  if (kind.empty()) return InvalidArgumentError("print job kind: must not be empty");
  if (payload.empty()) return InvalidArgumentError("print job payload: must not be empty (nothing to print)");
  Txn txn(store_.impl(), Txn::kWrite);
  Stmt stmt(txn,
            "INSERT INTO print_jobs (sale_id, kind, target, payload, created_at, updated_at, opens_drawer) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6) RETURNING id");
  stmt.BindAll(sale_id, kind, target).BindBlob(4, payload).Bind(5, store_.impl().NowMs());
  stmt.Bind(6, opens_drawer ? 1 : 0);
  BALCAO_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return InternalError("print job insert returned no id");
  const std::int64_t id = stmt.Int(0);
  BALCAO_RETURN_IF_ERROR(stmt.Run());
  BALCAO_RETURN_IF_ERROR(txn.Commit());
  return id;
}

StatusOr<std::optional<PrintJob>> PrintJobs::ClaimNext(const std::string& target) {
  Txn txn(store_.impl(), Txn::kWrite);
  Stmt pick(txn, std::string(kColumns) + "WHERE state='queued' AND (?1='' OR target=?1) ORDER BY id LIMIT 1");
  BALCAO_ASSIGN_OR_RETURN(bool found, pick.Bind(1, target).Step());
  if (!found) return std::optional<PrintJob>();
  BALCAO_ASSIGN_OR_RETURN(PrintJob job, ReadJob(pick));
  Stmt claim(txn, "UPDATE print_jobs SET state='printing', updated_at=?2 WHERE id=?1");
  job.updated_at_ms = store_.impl().NowMs();
  BALCAO_RETURN_IF_ERROR(claim.BindAll(job.id, job.updated_at_ms).Run());
  BALCAO_RETURN_IF_ERROR(txn.Commit());
  job.state = PrintJobState::kPrinting;
  return std::optional<PrintJob>(std::move(job));
}

Status PrintJobs::MarkPrinted(std::int64_t id) {
  return UpdateJob(store_, id,
                   "UPDATE print_jobs SET state='printed', last_error='', updated_at=?2 "
                   "WHERE id=?1 AND state='printing'",
                   "", "only a job being printed can be marked printed");
}

Status PrintJobs::MarkFailed(std::int64_t id, const std::string& error) {
  if (error.empty()) return InvalidArgumentError("print job error: must say what went wrong");
  return UpdateJob(store_, id,
                   "UPDATE print_jobs SET state='failed', attempts=attempts+1, last_error=?3, updated_at=?2 "
                   "WHERE id=?1 AND state IN ('printing', 'queued')",
                   error, "only a queued or printing job can fail");
}

Status PrintJobs::Requeue(std::int64_t id) {
  return UpdateJob(store_, id,
                   "UPDATE print_jobs SET state='queued', updated_at=?2 WHERE id=?1 AND state IN ('failed', 'printed')",
                   "", "only a failed or printed job can be printed again");
}

StatusOr<PrintJob> PrintJobs::Get(std::int64_t id) {
  Txn txn(store_.impl(), Txn::kRead);
  Stmt stmt(txn, std::string(kColumns) + "WHERE id=?1");
  BALCAO_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, id).Step());
  if (!found) return NotFoundError("print job " + std::to_string(id) + " does not exist");
  return ReadJob(stmt);
}

StatusOr<std::vector<PrintJob>> PrintJobs::List(std::optional<PrintJobState> state, int limit) {
  if (limit < 1) return InvalidArgumentError("print job list limit: must be at least 1");
  Txn txn(store_.impl(), Txn::kRead);
  Stmt stmt(txn, std::string(kColumns) + "WHERE (?1='' OR state=?1) ORDER BY id LIMIT ?2");
  stmt.BindAll(state ? PrintJobStateName(*state) : "", limit);
  return sqlite::ReadAll(stmt, ReadJob);
}

StatusOr<PrintJobStats> PrintJobs::Stats() {
  Txn txn(store_.impl(), Txn::kRead);
  PrintJobStats stats;
  std::int64_t newest_printed = 0, newest_failed = 0;
  {
    Stmt counts(txn, "SELECT state, count(*), max(id) FROM print_jobs GROUP BY state");
    while (true) {
      BALCAO_ASSIGN_OR_RETURN(bool row, counts.Step());
      if (!row) break;
      BALCAO_ASSIGN_OR_RETURN(PrintJobState state, ParseState(counts.Text(0)));
      const std::int64_t n = counts.Int(1);
      switch (state) {
        case PrintJobState::kQueued:
          stats.queued = n;
          break;
        case PrintJobState::kPrinting:
          stats.printing = n;
          break;
        case PrintJobState::kPrinted:
          stats.printed = n;
          newest_printed = counts.Int(2);
          break;
        case PrintJobState::kFailed:
          stats.failed = n;
          newest_failed = counts.Int(2);
          break;
      }
    }
  }
  {
    Stmt oldest(txn, "SELECT coalesce(min(created_at), 0) FROM print_jobs WHERE state IN ('queued','printing')");
    BALCAO_ASSIGN_OR_RETURN(bool row, oldest.Step());
    if (row) stats.oldest_waiting_created_at_ms = oldest.Int(0);
  }
  if (newest_failed > newest_printed) {
    stats.last_failed = true;
    Stmt error(txn, "SELECT last_error FROM print_jobs WHERE id=?1");
    BALCAO_ASSIGN_OR_RETURN(bool row, error.Bind(1, newest_failed).Step());
    if (row) stats.last_error = error.Text(0);
  }
  return stats;
}

}  // namespace balcao::offline
