// The box's store in the data dir (balcao.db, offline/store.h) and the tables the service uses:
// the sale journal, the outbox, the print jobs, the record of applied bank events, the
// operators and the cash registers. Opened once, while no other process owns the store.
// Owns: the store and one object per table. Calls: SQLite.
// Thread-safety: each table's own (offline/).
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>

#include "api/bank_clock.h"
#include "common/status.h"
#include "offline/applied_events.h"
#include "offline/cash_registers.h"
#include "offline/journal.h"
#include "offline/operators.h"
#include "offline/outbox.h"
#include "offline/print_jobs.h"
#include "offline/store.h"

namespace balcao::terminal::service {

class Storage {
 public:
  // Opens `dir`/balcao.db and waits up to `owner_wait_s` for a tool that holds it (the nightly
  // settlement a box catches up on at boot, `balcao queue drain`). kFailedPrecondition when
  // another process still owns it. Applied events are kept `retention` long.
  static StatusOr<std::unique_ptr<Storage>> Open(const std::filesystem::path& dir, int owner_wait_s, const Clock& clock,
                                                 std::chrono::hours retention);
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  offline::Store& store() { return *store_; }
  offline::Journal& journal() { return *journal_; }
  offline::Outbox& outbox() { return *outbox_; }
  offline::PrintJobs& print_jobs() { return *print_jobs_; }
  offline::AppliedEvents& applied_events() { return *applied_events_; }
  offline::Operators& operators() { return *operators_; }
  offline::CashRegisters& registers() { return *registers_; }

 private:
  explicit Storage(std::unique_ptr<offline::Store> store) : store_(std::move(store)) {}

  std::unique_ptr<offline::Store> store_;  // first in, last out: every table uses it
  std::unique_ptr<offline::Journal> journal_;
  std::unique_ptr<offline::Outbox> outbox_;
  std::unique_ptr<offline::PrintJobs> print_jobs_;
  std::unique_ptr<offline::AppliedEvents> applied_events_;
  std::unique_ptr<offline::Operators> operators_;
  std::unique_ptr<offline::CashRegisters> registers_;
};

}  // namespace balcao::terminal::service
