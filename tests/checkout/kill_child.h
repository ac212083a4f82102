// A child process SIGKILLed at the k-th crash-hook point of a sale: this test binary
// re-executed in child mode, never a bare fork(). The parent runs the in-process sandbox's
// threads; a lock one of them holds at the moment of a fork (SQLite's allocator mutex was
// caught so, issue 26) stays held forever in the child, which then hangs in its first SQLite
// call. The parent writes what the child needs into a JSON file (the journal's path, the bank's
// credentials, the clock, the sale's settings); the child rebuilds its store, bank client,
// clock and driver from it, runs the named flow and dies at point k. The parent waits with a
// deadline and, past it, names the last step the child reached.
// Thread-safety: the registry is filled before main() and only read afterwards.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "api/bank.h"
#include "checkout/driver/driver.h"
#include "tests/sandbox/sandbox_client.h"

namespace balcao::checkout::e2e {

// What a child flow gets besides its driver.
struct ChildContext {
  std::string sale_id;
  nlohmann::json params;            // the flow's own parameters, as the test gave them
  Settings settings;                // the test's settings_
  std::string db;                   // the journal's file (a flow may open a second handle on it)
  const Clock& clock;               // the parent's test clock, rebuilt
  sandbox::testing::Client& payer;  // the simulation API (pays QR codes, passes challenges)
  api::Bank& bank;
};
using ChildFlow = std::function<void(Driver&, const ChildContext&)>;

// Registers `flow` under `name` (at static initialization: `const bool kX = RegisterChildFlow(...)`).
bool RegisterChildFlow(const std::string& name, ChildFlow flow);

// The test binary's main() calls this first: with `--balcao-kill-child <file>` it runs the
// child (and exits: 0 when the flow ended before point k, 10+ on a set-up failure); else returns.
void RunKillChildIfAsked(int argc, char** argv);

// Settings and a Script-like parameter set as JSON (the child's file), both ways.
nlohmann::json SettingsToJson(const Settings& settings);
Settings SettingsFromJson(const nlohmann::json& json);

}  // namespace balcao::checkout::e2e
