// The drainer: sends the outbox to the bank on the service's io_context. Rows of one
// sale go out in order, different sales concurrently (at most `concurrency` at once);
// failures back off exponentially with jitter; a row whose outcome is unknown is looked
// up before it is ever sent again. HTTP calls are blocking, so they run on a small
// private thread pool; timers and bookkeeping run on the io_context.
// Needs the store's owner lock: a guest Store retries ownership every poll.
// Thread-safety: Start/Stop/Kick/SetOnline may be called from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

#include "common/status.h"
#include "offline/bank_gateway.h"
#include "offline/outbox.h"

namespace boost::asio {
class io_context;
}

namespace balcao::offline {

struct DrainerOptions {
  int concurrency = 4;                            // rows in flight at once (different sales)
  std::chrono::milliseconds poll_interval{1000};  // look for due rows at least this often
  std::uint64_t seed = 0;                         // jitter; 0: random
  // DrainNow only: called after each round with the totals so far (progress for the CLI).
  std::function<void(const struct DrainerStats&)> on_round;
};

struct DrainerStats {
  std::int64_t sent = 0, done = 0, not_sent = 0, unknown = 0, failed = 0, lookups = 0, absent = 0, lookup_failed = 0,
               store_errors = 0;
};

class Drainer {
 public:
  Drainer(boost::asio::io_context& io, Store& store, Outbox& outbox, BankGateway& bank, DrainerOptions options = {});
  ~Drainer();  // Stop()s
  Drainer(const Drainer&) = delete;
  Drainer& operator=(const Drainer&) = delete;

  void Start();
  // Cancels the timer and waits for the calls in flight to be recorded.
  void Stop();
  // Look for due rows now (after an Enqueue, or when the bank is back).
  void Kick();
  // While offline nothing is sent or looked up (the connectivity monitor drives this).
  void SetOnline(bool online);
  // Called on the io_context after every row that reached done, failed or dead.
  void OnSettled(std::function<void(const OutboxItem&)> callback);
  // Called on the io_context when the lookup of a row whose outcome was unknown is answered
  // (docs/adr/0002): `found` when the bank has it (the row is done), false when it has
  // nothing (the row is sent again with the same key). A failed lookup resolves nothing.
  void OnLookupAnswered(std::function<void(const OutboxItem& item, bool found)> callback);

  DrainerStats stats() const;
  int in_flight() const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

// A synchronous drain for the CLI and tests: runs rounds until no row is due, or, with
// `wait`, until nothing is pending, inflight or unknown (sleeping through backoffs), or
// `deadline` passes. Same rules as the Drainer.
StatusOr<DrainerStats> DrainNow(Outbox& outbox, BankGateway& bank, const DrainerOptions& options, bool wait,
                                std::chrono::steady_clock::time_point deadline);

}  // namespace balcao::offline
