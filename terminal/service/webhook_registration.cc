#include "terminal/service/webhook_registration.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/log.h"
#include "terminal/service/access.h"

namespace balcao::terminal::service {
namespace {

// The webhook pointing at this service: registered (once per URL) so that the bank creates
// events for the checkout's subscriptions; in the embedded sandbox, hooks left by earlier runs
// on other ports are removed (they would only collect failed deliveries).
Status RegisterWebhook(const api::Bank& bank, const std::string& url, bool remove_stale) {
  auto listed = bank.client().Call("GET", "/v2/webhook", api::Query().Add("limit", std::int64_t{100}));
  if (!listed.ok()) return listed.status();
  const auto page = nlohmann::json::parse(listed->body, nullptr, false);
  bool found = false;
  if (page.is_object() && page.contains("webhooks") && page["webhooks"].is_array()) {
    for (const auto& hook : page["webhooks"]) {
      if (!hook.is_object() || !hook.contains("url") || !hook["url"].is_string() || !hook.contains("id") ||
          !hook["id"].is_string())
        continue;
      const std::string hook_url = hook["url"].get<std::string>();
      if (hook_url == url) {
        found = true;
      } else if (remove_stale && hook_url.find(kWebhookPath) != std::string::npos) {
        const std::string id = hook["id"].get<std::string>();
        // Best effort: a stale hook left behind only collects failed deliveries.
        if (auto removed = bank.client().Call("DELETE", "/v2/webhook/" + id); !removed.ok())
          logging::Warn("serve", "stale webhook not removed", {{"id", id}, {"error", removed.status().ToString()}});
      }
    }
  }
  if (found) return OkStatus();
  // Only what the API documents (api::Subscriptions(); a bank refuses the whole registration
  // for one unknown name): Pix deposits and invoices. Card outcomes come from polling the
  // purchase, and from the event catch-up should the bank ever send card events.
  const nlohmann::json body = {{"url", url}, {"subscriptions", nlohmann::json::array({"deposit", "invoice"})}};
  auto created = bank.client().Call("POST", "/v2/webhook", {}, body.dump());
  return created.ok() ? OkStatus() : created.status();
}

}  // namespace

WebhookRegistration::WebhookRegistration(const api::Bank& bank, const api::BankClock& clock, std::string url,
                                         bool remove_stale)
    : bank_(bank), clock_(clock), url_(std::move(url)), remove_stale_(remove_stale) {}

std::string WebhookRegistration::failure() const {
  std::lock_guard<std::mutex> lock(mu_);
  return failure_;
}

void WebhookRegistration::Ensure() {
  if (registered_ || url_.empty()) return;
  const UnixMicros now = clock_.Now();
  if (now < retry_at_) return;
  const Status hooked = RegisterWebhook(bank_, url_, remove_stale_);
  registered_ = hooked.ok();
  live_ = hooked.ok();
  std::string state;
  if (hooked.ok()) {
    logging::Info("serve", "webhook registered", {{"url", url_}, {"subscriptions", "deposit,invoice"}});
    refusals_ = 0;
  } else if (hooked.delivery() != Delivery::kAnswered) {
    // The bank was not reached: no refusal to back off from. The next tick while online tries
    // again (the connectivity probe paces it), so a box back online registers at once: the bank
    // makes events only for the webhooks it has when a payment happens.
    state = "webhook not registered yet: the bank was not reached (" + hooked.message() + ")";
    logging::Warn("serve", "webhook not registered", {{"url", url_}, {"reason", hooked.message()}});
  } else {
    // Back-off: 5 s, 10 s, 20 s... up to 10 min; payments are still seen by polling and the catch-up.
    const std::int64_t wait_s = std::min<std::int64_t>(600, std::int64_t{5} << std::min(refusals_, 7));
    ++refusals_;
    retry_at_ = now + wait_s * kMicrosPerSecond;
    state = "webhook not registered at the bank (" + hooked.message() + "); retried in " + std::to_string(wait_s) +
            " s; payments are seen by polling meanwhile";
    logging::Warn("serve", "webhook not registered",
                  {{"url", url_}, {"reason", hooked.message()}, {"retry_in_s", wait_s}, {"attempts", refusals_}});
  }
  std::lock_guard<std::mutex> lock(mu_);
  failure_ = std::move(state);
}

}  // namespace balcao::terminal::service
