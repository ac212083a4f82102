// The fault suite's shared pieces: a seed each test draws its random choices from (printed
// with the one command line that replays it), the kill test's invariants checked against a
// running `balcao serve` and its bank, and small waits.
// Thread-safety: one test thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <thread>

#include "tests/terminal/serve_fixture.h"

namespace balcao::terminal::testing {

// $BALCAO_FAULT_SEED, else a fresh one; prints "replay: BALCAO_FAULT_SEED=<seed> <binary>
// --gtest_filter=<this test>" so a failure can be run again exactly.
std::uint64_t FaultSeed();

// A config file in `dir` with `config`'s keys; returns its path.
std::string WriteConfig(const std::filesystem::path& dir, const Json& config);

// Polls `done` every 100 ms for up to `limit`.
template <typename F>
bool Eventually(F done, std::chrono::milliseconds limit = std::chrono::seconds(20)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return done();
}

// The kill test's invariants, after the fault: every sale the service answered 201 for
// (`opened`: id -> amount) is in the day's list exactly once with that amount; every sale in
// `paid` collected its amount exactly once; the day's total collected is the sum of those, to
// the cent; and the bank (`deposits`, the brcode payments it received for these sales) counted
// each payment once.
void ExpectBooksBalance(const ServeProcess& serve, const std::map<std::string, long long>& opened,
                        const std::map<std::string, long long>& paid);

// The value of an unlabelled gauge on /metrics ("balcao_clock_offset_seconds"); NaN when absent.
double MetricValue(const ServeProcess& serve, const std::string& name);

// libfaketime's preload library (Debian's faketime package); "" when it is not installed.
std::string FaketimeLibrary();

}  // namespace balcao::terminal::testing
