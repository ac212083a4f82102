#include "terminal/service/storage.h"

#include <thread>

#include "common/log.h"

namespace balcao::terminal::service {

StatusOr<std::unique_ptr<Storage>> Storage::Open(const std::filesystem::path& dir, int owner_wait_s, const Clock& clock,
                                                 std::chrono::hours retention) {
  BALCAO_ASSIGN_OR_RETURN(std::unique_ptr<offline::Store> store, offline::Store::Open((dir / "balcao.db").string()));
  // A tool may hold the store for a moment (the nightly settlement a box catches up on at
  // boot, `balcao queue drain`): wait for it rather than fail the start.
  for (int waited = 0; !store->is_owner() && waited < owner_wait_s; ++waited) {
    if (waited == 0) logging::Warn("serve", "another process holds the store: waiting", {{"db", store->path()}});
    std::this_thread::sleep_for(std::chrono::seconds(1));
    store->TryBecomeOwner().IgnoreError();  // the loop checks is_owner(); the refusal is named below
  }
  if (!store->is_owner())
    return FailedPreconditionError("another process owns " + (dir / "balcao.db").string() +
                                   " (is another `balcao serve` running on this data dir?)");
  std::unique_ptr<Storage> s(new Storage(std::move(store)));
  offline::Store& st = *s->store_;
  s->operators_ = std::make_unique<offline::Operators>(st);
  s->registers_ = std::make_unique<offline::CashRegisters>(st);
  s->journal_ = std::make_unique<offline::Journal>(st);
  s->outbox_ = std::make_unique<offline::Outbox>(st);
  s->print_jobs_ = std::make_unique<offline::PrintJobs>(st);
  s->applied_events_ = std::make_unique<offline::AppliedEvents>(st, clock, retention);
  return s;
}

}  // namespace balcao::terminal::service
