// `balcao serve --config FILE`: the store's settings as JSON (docs/terminal.md,
// "Configuration"). Every key is optional; a key of the wrong type or out of range is
// refused naming it. Unknown keys are refused too (a typo must not silently do nothing).
// Thread-safety: plain values.
#pragma once

#include <chrono>
#include <string>

#include "checkout/types.h"
#include "common/status.h"
#include "offline/connectivity.h"
#include "terminal/internal/receipts.h"

namespace balcao::terminal::service {

struct ServeConfig {
  StoreIdentity store;  // merchant on the receipts
  std::string printer_profile = "80mm";
  std::string printer;           // transport target; --printer wins
  checkout::Settings settings;   // copied into each new sale
  int catch_up_interval_s = 60;  // Intake::CatchUp period (webhooks missed)
  offline::ConnectivityOptions connectivity;
  std::string webhook_url;  // real bank: registered at start when no webhook has it
};

// Defaults when `path` is empty. kInvalidArgument naming the key; kNotFound for the file.
StatusOr<ServeConfig> LoadServeConfig(const std::string& path);

}  // namespace balcao::terminal::service
