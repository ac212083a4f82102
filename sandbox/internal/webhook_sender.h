// Webhook delivery: POSTs every due event delivery and reports the outcome to the Engine
// (which records attempts and schedules the 5/30/120-minute retries on the sandbox clock).
// Thread-safety: DeliverDue is serialised by an internal mutex.
#pragma once

#include <mutex>

#include "sandbox/internal/engine_core.h"

namespace balcao::sandbox::internal {

class WebhookSender {
 public:
  explicit WebhookSender(Engine& engine);
  // Delivers every delivery due now; returns how many were attempted.
  int DeliverDue();

 private:
  Engine& engine_;
  std::mutex mu_;
};

}  // namespace balcao::sandbox::internal
