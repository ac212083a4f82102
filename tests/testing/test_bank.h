// A bank of the test's own for `balcao serve`: the sandbox in the test's process, on
// loopback, so the test can take the bank away and bring it back (docs/sandbox.md).
#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "common/status.h"
#include "sandbox/sandbox.h"

namespace balcao::test_util {

// Plain HTTP on a free port, its data (keys, credentials file, database) in `data_dir`, its
// jobs (webhooks, settlement) every 100 ms.
inline StatusOr<std::unique_ptr<sandbox::Sandbox>> StartTestBank(const std::filesystem::path& data_dir) {
  sandbox::SandboxOptions options;
  options.data_dir = data_dir.string();
  options.https = false;
  options.tick_millis = 100;
  return sandbox::Sandbox::Start(options);
}

// The "connectivity" settings of a serve config (docs/terminal.md) that notice the bank
// going and coming back within a second.
inline nlohmann::json FastConnectivity() {
  return {{"online_interval_ms", 200}, {"backoff_initial_ms", 100}, {"backoff_max_ms", 300}};
}

}  // namespace balcao::test_util
