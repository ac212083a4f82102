// The box's webhook at the bank (docs/terminal.md, "Inside"): registered once per URL so that
// the bank makes events for the checkout's subscriptions (deposit, invoice), with a back-off
// from the bank's refusals only (a bank that was not reached is asked again at the next tick
// while online: it makes events only for the webhooks it has when a payment happens). In the
// embedded sandbox, hooks left by earlier runs on other ports are removed.
// Owns: its back-off and what /readyz shows of it. Calls: the bank (GET/POST/DELETE /v2/webhook).
// Thread-safety: Ensure() on the driver's thread; url(), live() and failure() from any thread.
#pragma once

#include <atomic>
#include <mutex>
#include <string>

#include "api/bank.h"
#include "api/bank_clock.h"
#include "common/time.h"

namespace balcao::terminal::service {

class WebhookRegistration {
 public:
  // `url` "" registers nothing (a real bank without webhook_url, or a box on the chain's hub).
  // `remove_stale`: other hooks on kWebhookPath are removed (the embedded sandbox's).
  WebhookRegistration(const api::Bank& bank, const api::BankClock& clock, std::string url, bool remove_stale);
  WebhookRegistration(const WebhookRegistration&) = delete;
  WebhookRegistration& operator=(const WebhookRegistration&) = delete;

  // Registers the URL unless it is registered, or the back-off says not yet.
  void Ensure();
  const std::string& url() const { return url_; }
  bool live() const { return live_.load(); }  // registered at the bank
  // Why the last registration failed; "" when none did.
  std::string failure() const;

 private:
  const api::Bank& bank_;
  const api::BankClock& clock_;
  const std::string url_;
  const bool remove_stale_;
  bool registered_ = false;  // driver thread
  int refusals_ = 0;         // driver thread: in a row, for the back-off
  UnixMicros retry_at_ = 0;  // driver thread: the next attempt
  mutable std::mutex mu_;
  std::string failure_;  // guarded by mu_
  std::atomic<bool> live_{false};
};

}  // namespace balcao::terminal::service
