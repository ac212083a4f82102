// Webhook delivery, as the bank does it: off the request path. A few worker threads POST each
// due event delivery and report the outcome to the Engine (which records the attempt and
// schedules the 5/30/120-minute retries on the sandbox clock). The request that caused an
// event only wakes them: it answers once its state change is committed, however slow the
// receiver. No lock is held during the network I/O (the engine's is taken only to read what is
// due and to record an outcome), and every attempt is bounded (kConnectTimeout, kAttemptTimeout),
// so a receiver that never answers costs one worker for that long and nothing else.
// Thread-safety: every method may be called from any thread; Stop() joins the workers.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "sandbox/internal/engine_core.h"

namespace balcao::sandbox::internal {

class WebhookSender {
 public:
  static constexpr std::chrono::milliseconds kConnectTimeout{2'000};
  static constexpr std::chrono::milliseconds kAttemptTimeout{5'000};

  // Starts `workers` threads (at least 1).
  WebhookSender(Engine& engine, int workers = 4);
  ~WebhookSender();  // Stop()s
  WebhookSender(const WebhookSender&) = delete;
  WebhookSender& operator=(const WebhookSender&) = delete;

  // Deliveries due now are attempted soon, by the workers. Returns at once.
  void Wake();
  // Attempts every delivery due now (this thread helps the workers) and waits until none is
  // due and none in flight, or `limit` passed: the explicit flush (Sandbox::Flush, tests).
  void DeliverDueAndWait(std::chrono::milliseconds limit = std::chrono::seconds(30));
  // Lets the attempts in flight finish (each is bounded), then joins the workers.
  void Stop();

 private:
  // Under mu_: the next delivery due and not in flight (the queue refilled from the engine
  // when empty), marked in flight; false when none.
  bool Claim(std::unique_lock<std::mutex>& lock, Delivery& out);
  void Attempt(const Delivery& d);  // no lock held
  void Finished(std::int64_t id);
  void Work();

  Engine& engine_;
  std::mutex mu_;
  std::condition_variable wake_cv_;   // workers: something may be due, or stopping
  std::condition_variable idle_cv_;   // DeliverDueAndWait: an attempt finished
  std::deque<Delivery> queue_;        // guarded by mu_: due, claimed by no one yet
  std::set<std::int64_t> in_flight_;  // guarded by mu_: delivery ids being attempted
  bool woken_ = false;                // guarded by mu_
  bool stopping_ = false;             // guarded by mu_
  std::vector<std::thread> workers_;
};

}  // namespace balcao::sandbox::internal
