#include "tests/api/client_test_util.h"

#include <mutex>

namespace balcao::api::testing {
namespace {
std::mutex handler_mu;
}

SignedServer::SignedServer(HttpTestServer::Handler handler)
    : key_(PrivateKey::Generate()), handler_(std::make_shared<HttpTestServer::Handler>(std::move(handler))) {
  server_ = std::make_unique<HttpTestServer>([this](const RecordedRequest& req) {
    // docs/wire.md, "Signing": message = Access-Id ":" Access-Time ":" exact body bytes.
    const std::string id = req.Header("access-id");
    const std::string time = req.Header("access-time");
    const bool integer_time = !time.empty() && time.find_first_not_of("0123456789") == std::string::npos;
    if (id != "project/4242" || !integer_time ||
        !key_.public_key().Verify(id + ":" + time + ":" + req.body, req.Header("access-signature")))
      ++bad_signatures_;
    HttpTestServer::Handler h;
    {
      std::lock_guard<std::mutex> lock(handler_mu);
      h = *handler_;
    }
    if (!h) return Reply{200, "{}"};
    return h(req);
  });
}

void SignedServer::SetHandler(HttpTestServer::Handler handler) {
  std::lock_guard<std::mutex> lock(handler_mu);
  *handler_ = std::move(handler);
}

Client SignedServer::MakeClient(int attempts, ClientOptions options) const {
  if (options.base_url.empty()) options.base_url = server_->url();
  options.retry.max_attempts = attempts;
  options.retry.initial_backoff = std::chrono::microseconds(1);
  options.retry.max_backoff = std::chrono::microseconds(10);
  auto client = Client::Create(Credentials::Project("4242", key_), options);
  if (!client.ok()) std::abort();
  return *std::move(client);
}

}  // namespace balcao::api::testing
