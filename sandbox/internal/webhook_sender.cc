// Delivers due webhook events by HTTP(S) POST with libcurl (docs/wire.md, "Webhooks"): the
// body is the exact text stored at event creation, signed with the sandbox key
// (Digital-Signature). Off the request path, on the sender's own workers.
#include "sandbox/internal/webhook_sender.h"

#include <curl/curl.h>

#include <algorithm>
#include <memory>

namespace balcao::sandbox::internal {
namespace {

std::size_t Discard(char*, std::size_t size, std::size_t n, void*) { return size * n; }

}  // namespace

WebhookSender::WebhookSender(Engine& engine, int workers) : engine_(engine) {
  static const bool curl_ready = (curl_global_init(CURL_GLOBAL_DEFAULT), true);
  (void)curl_ready;
  for (int i = 0; i < std::max(1, workers); ++i) workers_.emplace_back([this] { Work(); });
}

WebhookSender::~WebhookSender() { Stop(); }

void WebhookSender::Wake() {
  std::lock_guard lock(mu_);
  woken_ = true;
  wake_cv_.notify_one();
}

void WebhookSender::Stop() {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_cv_.notify_all();
  idle_cv_.notify_all();
  for (std::thread& t : workers_) t.join();
  workers_.clear();
}

bool WebhookSender::Claim(std::unique_lock<std::mutex>&, Delivery& out) {
  if (queue_.empty()) {
    for (Delivery& d : engine_.DueDeliveries(64))
      if (!in_flight_.count(d.id)) queue_.push_back(std::move(d));
    if (queue_.size() > 1) wake_cv_.notify_all();  // more than this thread can take
  }
  if (queue_.empty()) return false;
  out = std::move(queue_.front());
  queue_.pop_front();
  in_flight_.insert(out.id);
  return true;
}

void WebhookSender::Finished(std::int64_t id) {
  std::lock_guard lock(mu_);
  in_flight_.erase(id);
  idle_cv_.notify_all();
}

void WebhookSender::Work() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    Delivery d;
    if (Claim(lock, d)) {
      lock.unlock();
      Attempt(d);
      Finished(d.id);
      lock.lock();
      continue;
    }
    wake_cv_.wait(lock, [this] { return stopping_ || woken_ || !queue_.empty(); });
    woken_ = false;
  }
}

void WebhookSender::DeliverDueAndWait(std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  std::unique_lock lock(mu_);
  while (!stopping_ && std::chrono::steady_clock::now() < deadline) {
    Delivery d;
    if (Claim(lock, d)) {
      lock.unlock();
      Attempt(d);
      Finished(d.id);
      lock.lock();
      continue;
    }
    if (in_flight_.empty()) return;
    idle_cv_.wait_until(lock, deadline);
  }
}

void WebhookSender::Attempt(const Delivery& d) {
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
  const std::string signature = "Digital-Signature: " + engine_.signing_key().Sign(d.body);
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  headers = curl_slist_append(headers, signature.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_URL, d.url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_POST, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDS, d.body.data());
  curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDSIZE, static_cast<long>(d.body.size()));
  curl_easy_setopt(curl.get(), CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, &Discard);
  curl_easy_setopt(curl.get(), CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(kConnectTimeout.count()));
  curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT_MS, static_cast<long>(kAttemptTimeout.count()));
  curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_USERAGENT, "balcao-sandbox-webhook");
  // Local receivers usually have self-signed certificates (docs/sandbox.md).
  curl_easy_setopt(curl.get(), CURLOPT_SSL_VERIFYPEER, 0L);
  curl_easy_setopt(curl.get(), CURLOPT_SSL_VERIFYHOST, 0L);
  const CURLcode rc = curl_easy_perform(curl.get());
  long status = 0;
  curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &status);
  curl_slist_free_all(headers);
  const std::string error =
      rc == CURLE_OK ? (status == 200 ? "" : "HTTP " + std::to_string(status)) : curl_easy_strerror(rc);
  engine_.FinishDelivery(d, rc == CURLE_OK ? static_cast<int>(status) : 0, error);
}

}  // namespace balcao::sandbox::internal
