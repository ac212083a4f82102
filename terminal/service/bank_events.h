// How the bank's events reach the box (docs/terminal.md, "Inside"; docs/hub.md): the intake
// (checkout/intake.h) takes each event on the driver's thread, whether it came by the bank's
// webhook (webhook.cc, registered by WebhookRegistration), by the chain's hub (HubLink,
// hub_intake.cc) or by the periodic catch-up (Service::Impl::Tick). Made by Service::Start's
// steps (service.cc, hub_intake.cc); Service::Impl's event methods use it.
// Owns: the intake, the webhook's registration, the hub link, the catch-up's pace, and the
// counts /api/status shows. Thread-safety: the intake and the catch-up on the driver's thread;
// the counts and `stopping` from any.
#pragma once

#include <atomic>
#include <memory>

#include "checkout/driver/intake.h"
#include "common/time.h"
#include "terminal/service/hub_link.h"
#include "terminal/service/webhook_registration.h"

namespace balcao::terminal::service {

struct BankEvents {
  std::unique_ptr<checkout::Intake> intake;
  std::unique_ptr<WebhookRegistration> webhook;   // ours at the bank (made once the URL is known)
  std::unique_ptr<HubLink> hub_link;              // the chain's hub; null without one
  UnixMicros next_catch_up = 0;                   // driver thread
  bool told_to_name_lane = false;                 // driver thread: the warning is logged once
  std::atomic<long long> applied{0}, refused{0};  // webhook and hub deliveries
  std::atomic<bool> stopping{false};              // the service is stopping: a hub event waits no more
};

}  // namespace balcao::terminal::service
