#include "tests/checkout/offline_fixture.h"

#include <chrono>

#include "api/credentials.h"
#include "offline/api_gateway.h"
#include "tests/testing/loopback.h"
#include "tests/testing/status_matchers.h"

namespace balcao::checkout::e2e {
api::Client UnreachableClient(const std::string& credentials_path) {
  auto config = api::LoadConfig(credentials_path);
  EXPECT_OK(config);
  // One refusing port for the whole test process: a client made here may outlive any scope.
  static const test_util::RefusingLoopbackPort unreachable;
  config->options.base_url = unreachable.Url();
  config->options.retry.max_attempts = 1;
  auto client = api::Client::Create(config->credentials, config->options);
  EXPECT_OK(client);
  return *client;
}

void OfflineE2E::TearDown() {
  outbox_.reset();
  DriverE2E::TearDown();
}

void OfflineE2E::Restart(bool bank_reachable) {
  outbox_.reset();
  OpenDriver();
  offline::OutboxPolicy policy;
  policy.unknown_settle_ms = 0;  // the sandbox answers at once; nothing can still be running
  policy.backoff_initial_ms = 20;
  outbox_ = std::make_unique<offline::Outbox>(*store_, policy);
  if (!bank_reachable) {
    driver_ = std::make_unique<Driver>(
        api::Bank(UnreachableClient(sandbox().credentials().credentials_path)), *journal_, clock_,
        [this](const std::string& sale_id, const Effect& effect) { seen_.emplace_back(sale_id, effect); });
  }
  driver_->SetOutbox(outbox_.get());
}

offline::DrainerStats OfflineE2E::Drain() {
  auto client = offline::DrainerClient(sandbox().credentials().credentials_path);
  EXPECT_OK(client);
  offline::ApiGateway gateway(*client);
  auto stats = offline::DrainNow(*outbox_, gateway, offline::DrainerOptions{}, /*wait=*/true,
                                 std::chrono::steady_clock::now() + std::chrono::seconds(20));
  EXPECT_OK(stats);
  return stats.ok() ? *stats : offline::DrainerStats{};
}

}  // namespace balcao::checkout::e2e
