// The Asio drainer and the synchronous DrainNow (see drainer.h).
#include "offline/drainer.h"

#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <mutex>
#include <random>
#include <thread>
#include <utility>

#include "common/log.h"
#include "offline/internal/db.h"
#include "offline/internal/drain_step.h"

namespace balcao::offline {
namespace {

using internal::StepResult;

std::uint64_t Seed(std::uint64_t seed) { return seed != 0 ? seed : std::random_device{}(); }

void Count(DrainerStats& stats, const OutboxWork& work, const StatusOr<StepResult>& result) {
  (work.action == OutboxWork::kSend ? stats.sent : stats.lookups) += 1;
  if (!result.ok()) {
    ++stats.store_errors;
    return;
  }
  switch (*result) {
    case StepResult::kDone:
      ++stats.done;
      break;
    case StepResult::kNotSent:
      ++stats.not_sent;
      break;
    case StepResult::kUnknown:
      ++stats.unknown;
      break;
    case StepResult::kFailed:
      ++stats.failed;
      break;
    case StepResult::kAbsent:
      ++stats.absent;
      break;
    case StepResult::kLookupFailed:
      ++stats.lookup_failed;
      break;
  }
}

// The operator's trail (common/log.h): one record when a row leaves the box or is looked
// up, one for what came of it. Key, kind and sale identify the row; never the body.
void TrailClaim(const OutboxWork& work) {
  const OutboxRequest& r = work.item.request;
  if (work.action == OutboxWork::kSend)
    logging::Info("drainer", "sent",
                  {{"key", r.key}, {"kind", r.kind}, {"sale", r.sale_id}, {"attempt", work.item.attempts}});
  else
    logging::Info("drainer", "looking up",
                  {{"key", r.key}, {"kind", r.kind}, {"sale", r.sale_id}, {"lookup", work.item.lookups + 1}});
}

// "code: message" lines of a bank's 400 -> "code,code".
std::string BankCodes(const std::string& lines) {
  std::string codes;
  std::size_t start = 0;
  while (start < lines.size()) {
    std::size_t end = lines.find('\n', start);
    if (end == std::string::npos) end = lines.size();
    const std::string line = lines.substr(start, end - start);
    if (!line.empty()) codes += (codes.empty() ? "" : ",") + line.substr(0, line.find(':'));
    start = end + 1;
  }
  return codes;
}

// Logs what the step did and returns the row as it is now (for OnSettled).
StatusOr<OutboxItem> TrailStep(Outbox& outbox, const OutboxWork& work, const StatusOr<StepResult>& result) {
  const OutboxRequest& r = work.item.request;
  if (!result.ok()) {
    logging::Error("drainer", "outcome not recorded (recovered as unknown at the next start)",
                   {{"key", r.key}, {"kind", r.kind}, {"error", result.status().ToString()}});
    return result.status();
  }
  auto item = outbox.Get(work.item.id);
  if (!item.ok()) return item.status();
  const OutboxItem& i = *item;
  if (i.state == OutboxState::kDead) {
    logging::Error("drainer", "dead: in the operator's hands",
                   {{"key", r.key},
                    {"kind", r.kind},
                    {"sale", r.sale_id},
                    {"attempts", i.attempts},
                    {"lookups", i.lookups},
                    {"reached_bank", i.reached_bank},
                    {"error", i.last_error}});
    return item;
  }
  switch (*result) {
    case StepResult::kDone:
      logging::Info("drainer", work.action == OutboxWork::kSend ? "answered" : "found at the bank",
                    {{"key", r.key}, {"kind", r.kind}, {"sale", r.sale_id}, {"bank_id", i.bank_id}});
      break;
    case StepResult::kNotSent:
      logging::Warn("drainer", "not sent: will retry",
                    {{"key", r.key}, {"kind", r.kind}, {"attempt", i.attempts}, {"error", i.last_error}});
      break;
    case StepResult::kUnknown:
      logging::Warn("drainer",
                    r.lookup == LookupBy::kEntity ? "outcome unknown: will send again (idempotent)"
                                                  : "outcome unknown: will look up before any resend",
                    {{"key", r.key}, {"kind", r.kind}, {"attempt", i.attempts}, {"error", i.last_error}});
      break;
    case StepResult::kFailed:
      logging::Error("drainer", "failed: refused by the bank",
                     {{"key", r.key},
                      {"kind", r.kind},
                      {"sale", r.sale_id},
                      {"http", i.http_status},
                      {"codes", BankCodes(i.bank_codes)}});
      break;
    case StepResult::kAbsent:
      logging::Info("drainer", "not at the bank: will send again with the same key",
                    {{"key", r.key}, {"kind", r.kind}});
      break;
    case StepResult::kLookupFailed:
      logging::Warn("drainer", "lookup failed: still unknown",
                    {{"key", r.key}, {"kind", r.kind}, {"lookups", i.lookups}, {"error", i.last_error}});
      break;
  }
  return item;
}

// How long to sleep before the next round: until the next row is due, at most `poll`.
std::chrono::milliseconds UntilNextDue(Outbox& outbox, std::chrono::milliseconds poll) {
  auto next = outbox.NextDueAtMs();
  if (!next.ok() || !next->has_value()) return poll;
  const std::int64_t wait = **next - outbox.store().impl().NowMs();
  return std::clamp(std::chrono::milliseconds(wait), std::chrono::milliseconds(0), poll);
}

}  // namespace

struct Drainer::Impl : std::enable_shared_from_this<Impl> {
  Impl(boost::asio::io_context& io_, Store& store_, Outbox& outbox_, BankGateway& bank_, DrainerOptions options_)
      : io(io_), store(store_), outbox(outbox_), bank(bank_), options(options_), timer(io_), rng(Seed(options_.seed)) {
    options.concurrency = std::max(1, options.concurrency);
  }

  boost::asio::io_context& io;
  Store& store;
  Outbox& outbox;
  BankGateway& bank;
  DrainerOptions options;
  boost::asio::steady_timer timer;
  std::unique_ptr<boost::asio::thread_pool> pool;
  std::vector<std::string> busy_lanes;  // io thread only
  std::atomic<int> in_flight{0};
  std::atomic<bool> running{false};
  std::atomic<bool> online{true};
  mutable std::mutex mu;  // stats, rng, callback
  DrainerStats stats;
  std::mt19937_64 rng;
  std::function<void(const OutboxItem&)> on_settled;
  std::function<void(const OutboxItem&, bool)> on_lookup_answered;

  double Jitter() {
    std::lock_guard<std::mutex> lock(mu);
    return std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  }

  void Schedule(std::chrono::milliseconds delay) {
    timer.expires_after(delay);
    timer.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
      if (!ec) self->Round();
    });
  }

  void Round() {
    if (!running) return;
    if (!online || (!store.is_owner() && !store.TryBecomeOwner().ok())) {
      Schedule(options.poll_interval);
      return;
    }
    const int free = options.concurrency - in_flight.load();
    if (free > 0) {
      auto work = outbox.ClaimDue(store.impl().NowMs(), free, busy_lanes);
      if (!work.ok()) {
        std::lock_guard<std::mutex> lock(mu);
        ++stats.store_errors;
      } else {
        for (OutboxWork& w : *work) Dispatch(std::move(w));
      }
    }
    Schedule(UntilNextDue(outbox, options.poll_interval));
  }

  void Dispatch(OutboxWork work) {
    TrailClaim(work);
    busy_lanes.push_back(Outbox::LaneOf(work.item.request));
    ++in_flight;
    const double jitter = Jitter();
    boost::asio::post(*pool, [self = shared_from_this(), work = std::move(work), jitter]() mutable {
      auto result = internal::RunStep(self->outbox, self->bank, work, jitter);
      boost::asio::post(self->io,
                        [self, work = std::move(work), result = std::move(result)] { self->Finished(work, result); });
    });
  }

  void Finished(const OutboxWork& work, const StatusOr<StepResult>& result) {
    auto lane = std::find(busy_lanes.begin(), busy_lanes.end(), Outbox::LaneOf(work.item.request));
    if (lane != busy_lanes.end()) busy_lanes.erase(lane);
    --in_flight;
    std::function<void(const OutboxItem&)> callback;
    std::function<void(const OutboxItem&, bool)> lookup_callback;
    {
      std::lock_guard<std::mutex> lock(mu);
      Count(stats, work, result);
      callback = on_settled;
      lookup_callback = on_lookup_answered;
    }
    auto item = TrailStep(outbox, work, result);
    if (lookup_callback && work.action == OutboxWork::kLookup && result.ok() &&
        (*result == StepResult::kDone || *result == StepResult::kAbsent))
      lookup_callback(work.item, *result == StepResult::kDone);
    if (!running) return;
    if (callback) {
      if (item.ok() && (item->state == OutboxState::kDone || item->state == OutboxState::kFailed ||
                        item->state == OutboxState::kDead))
        callback(*item);
    }
    Round();  // a lane is free: the sale's next row may be due now
  }
};

Drainer::Drainer(boost::asio::io_context& io, Store& store, Outbox& outbox, BankGateway& bank, DrainerOptions options)
    : impl_(std::make_shared<Impl>(io, store, outbox, bank, options)) {}

Drainer::~Drainer() { Stop(); }

void Drainer::Start() {
  if (impl_->running.exchange(true)) return;
  impl_->pool = std::make_unique<boost::asio::thread_pool>(impl_->options.concurrency);
  boost::asio::post(impl_->io, [self = impl_] { self->Round(); });
}

void Drainer::Stop() {
  if (!impl_->running.exchange(false)) return;
  boost::asio::post(impl_->io, [self = impl_] { self->timer.cancel(); });
  impl_->pool->join();  // calls in flight finish and record their outcome
}

void Drainer::Kick() {
  boost::asio::post(impl_->io, [self = impl_] { self->Round(); });
}

void Drainer::SetOnline(bool online) {
  if (impl_->online.exchange(online) != online && online) Kick();
}

void Drainer::OnSettled(std::function<void(const OutboxItem&)> callback) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->on_settled = std::move(callback);
}

void Drainer::OnLookupAnswered(std::function<void(const OutboxItem&, bool)> callback) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->on_lookup_answered = std::move(callback);
}

DrainerStats Drainer::stats() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->stats;
}

int Drainer::in_flight() const { return impl_->in_flight.load(); }

StatusOr<DrainerStats> DrainNow(Outbox& outbox, BankGateway& bank, const DrainerOptions& options, bool wait,
                                std::chrono::steady_clock::time_point deadline) {
  std::mt19937_64 rng(Seed(options.seed));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  DrainerStats stats;
  const int concurrency = std::max(1, options.concurrency);
  while (std::chrono::steady_clock::now() < deadline) {
    BALCAO_ASSIGN_OR_RETURN(std::vector<OutboxWork> work,
                            outbox.ClaimDue(outbox.store().impl().NowMs(), concurrency, {}));
    if (work.empty()) {
      if (!wait) break;
      BALCAO_ASSIGN_OR_RETURN(OutboxMetrics metrics, outbox.Metrics());
      if (metrics.depth == 0) break;
      std::this_thread::sleep_for(std::max(std::chrono::milliseconds(1), UntilNextDue(outbox, options.poll_interval)));
      continue;
    }
    std::vector<StatusOr<StepResult>> results(work.size(), InternalError("not run"));
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < work.size(); ++i) {
      TrailClaim(work[i]);
      const double jitter = unit(rng);
      threads.emplace_back([&, i, jitter] { results[i] = internal::RunStep(outbox, bank, work[i], jitter); });
    }
    for (auto& t : threads) t.join();
    for (std::size_t i = 0; i < work.size(); ++i) {
      Count(stats, work[i], results[i]);
      // The trail only logs here (the row it returns is for OnSettled); a step's error returns next line.
      TrailStep(outbox, work[i], results[i]).IgnoreError();
      if (!results[i].ok()) return results[i].status();
    }
    if (options.on_round) options.on_round(stats);
  }
  return stats;
}

}  // namespace balcao::offline
