// Delivers due webhook events by HTTP(S) POST with libcurl (docs/wire.md, "Webhooks"): the
// body is the exact text stored at event creation, signed with the sandbox key
// (Digital-Signature).
#include "sandbox/internal/webhook_sender.h"

#include <curl/curl.h>

#include <memory>

namespace balcao::sandbox::internal {
namespace {

std::size_t Discard(char*, std::size_t size, std::size_t n, void*) { return size * n; }

}  // namespace

WebhookSender::WebhookSender(Engine& engine) : engine_(engine) {
  static const bool curl_ready = (curl_global_init(CURL_GLOBAL_DEFAULT), true);
  (void)curl_ready;
}

int WebhookSender::DeliverDue() {
  std::lock_guard lock(mu_);
  int delivered = 0;
  for (int round = 0; round < 100; ++round) {
    auto due = engine_.DueDeliveries(16);
    if (due.empty()) break;
    for (auto& d : due) {
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
      curl_easy_setopt(curl.get(), CURLOPT_CONNECTTIMEOUT_MS, 2000L);
      curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT_MS, 5000L);
      curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
      curl_easy_setopt(curl.get(), CURLOPT_USERAGENT, "balcao-sandbox-webhook");
      // Local receivers usually have self-signed certificates (docs/sandbox.md).
      curl_easy_setopt(curl.get(), CURLOPT_SSL_VERIFYPEER, 0L);
      curl_easy_setopt(curl.get(), CURLOPT_SSL_VERIFYHOST, 0L);
      const CURLcode rc = curl_easy_perform(curl.get());
      long status = 0;
      curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &status);
      curl_slist_free_all(headers);
      std::string error =
          rc == CURLE_OK ? (status == 200 ? "" : "HTTP " + std::to_string(status)) : curl_easy_strerror(rc);
      engine_.FinishDelivery(d, rc == CURLE_OK ? static_cast<int>(status) : 0, error);
      ++delivered;
    }
  }
  return delivered;
}

}  // namespace balcao::sandbox::internal
