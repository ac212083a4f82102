// The fault suite's shared pieces: a seed each test draws its random choices from (printed
// with the one command line that replays it), a bank in a process of its own (`balcao
// sandbox`), the sales every test rings, the kill test's invariants checked against a running
// `balcao serve` and its bank.
// Thread-safety: one test thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/terminal/serve_fixture.h"
#include "tests/testing/config_file.h"
#include "tests/testing/eventually.h"

namespace balcao::terminal::testing {

// $BALCAO_FAULT_SEED, else a fresh one; prints "replay: BALCAO_FAULT_SEED=<seed> <binary>
// --gtest_filter=<this test>" so a failure can be run again exactly.
std::uint64_t FaultSeed();

using test_util::Eventually;
using test_util::WriteConfig;

// The kill test's invariants, after the fault: every sale the service answered 201 for
// (`opened`: id -> amount) is in the day's list exactly once with that amount; every sale in
// `paid` collected its amount exactly once; the day's total collected is the sum of those, to
// the cent; and the bank (`deposits`, the brcode payments it received for these sales) counted
// each payment once.
void ExpectBooksBalance(const ServeProcess& serve, const std::map<std::string, long long>& opened,
                        const std::map<std::string, long long>& paid);

// The value of an unlabelled gauge on /metrics ("balcao_clock_offset_seconds"); NaN when absent.
double MetricValue(const ServeProcess& serve, const std::string& name);

// `balcao sandbox` (the real binary, a process of its own) on loopback: plain HTTP, an empty
// account, its data (keys, credentials.json, sandbox.db) in one folder, so that it can be
// stopped (the bank unreachable: "connection refused") and started again on the same port.
class SandboxProcess {
 public:
  SandboxProcess() = default;
  ~SandboxProcess();  // SIGKILL when still running
  SandboxProcess(const SandboxProcess&) = delete;
  SandboxProcess& operator=(const SandboxProcess&) = delete;

  // Starts `balcao sandbox --no-https --no-seed --data-dir <data_dir> --port <port>` (0: a free
  // one, the first time; a restart keeps the port it had) with `args` added (`--latency 1s`),
  // and waits for its "listening" lines.
  void Start(const std::filesystem::path& data_dir, const std::vector<std::string>& args = {});
  void Stop();  // SIGTERM, and the exit status must be 0
  bool running() const { return pid_ > 0; }

  unsigned short port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // credentials.json, for `balcao serve` (BALCAO_CREDENTIALS) and `balcao api`.
  std::string credentials() const { return (data_dir_ / "credentials.json").string(); }
  // POST /sandbox/<route> (the payer's actions, the fault scripts: docs/sandbox.md).
  Reply Simulate(const std::string& route, const Json& body) const;
  // Every stored item of a resource ("invoice", "merchant-purchase", "deposit"), read through
  // the bank API (`balcao api list <resource> --all`, signed); an empty array on failure.
  Json List(const std::string& resource) const;

 private:
  pid_t pid_ = -1;
  int out_fd_ = -1;
  unsigned short port_ = 0;
  std::filesystem::path data_dir_;
};

// Opens a sale of a random amount (R$ 1,00 to R$ 999,99, drawn from `rng`) and records it in
// `opened` (id -> amount) when answered 201; returns its id ("" when refused).
std::string OpenSale(const ServeProcess& serve, std::mt19937_64& rng, std::map<std::string, long long>& opened);
// Pays sale `id` by Pix: the QR shown, the payer pays it at `bank_url`'s simulation API, the
// sale paid; records its amount in `paid`.
void PayByPix(const ServeProcess& serve, const std::string& bank_url, const std::string& id,
              const std::map<std::string, long long>& opened, std::map<std::string, long long>& paid);
// Pays sale `id` by card (approved, one installment); records its amount in `paid`.
void PayByCard(const ServeProcess& serve, const std::string& id, const std::map<std::string, long long>& opened,
               std::map<std::string, long long>& paid);
// The customer an invoice is issued to.
Json InvoiceCustomer();

// libfaketime's preload library (Debian's faketime package); "" when it is not installed.
std::string FaketimeLibrary();

}  // namespace balcao::terminal::testing
