// The embedded sandbox's payer (terminal/internal/payer.h), as the customer's phone would pay:
// the touchscreen's simulate button (POST /api/sales/{id}/simulate) and --sandbox-autopay,
// which pays each Pix QR once, that long after it shows. Never against a real bank: made only
// with the embedded sandbox.
// Owns: its thread (one, calls in turn: each answers in milliseconds, the sandbox delivers the
// webhooks later from its own workers) and the QRs it pays, by when. Calls: the sandbox (HTTP).
// Thread-safety: Run from any thread; Schedule and PayDue on the driver's thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "common/time.h"
#include "terminal/internal/payer.h"
#include "terminal/service/driver_loop.h"
#include "terminal/service/sale_book.h"

namespace balcao::terminal::service {

class SandboxPayer {
 public:
  // `autopay_s` 0: no QR is paid by itself.
  SandboxPayer(unsigned short sandbox_port, const Clock& clock, int autopay_s);
  SandboxPayer(const SandboxPayer&) = delete;
  SandboxPayer& operator=(const SandboxPayer&) = delete;

  void Start();
  void Stop();
  // Runs `step` on the payer's thread (a blocking HTTP call), then `answered` there.
  void Run(PayerStep step, std::function<void(const SimulationAnswer&)> answered);
  // --sandbox-autopay: the Pix QRs newly shown among the book's unsettled sales, each once.
  void Schedule(const SaleBook& book);
  // Posts the Pix payments that are due.
  void PayDue(UnixMicros now);

 private:
  const unsigned short port_;
  const Clock& clock_;
  const int autopay_s_;
  std::unique_ptr<DriverLoop> thread_;
  std::map<std::string, UnixMicros> due_;  // driver thread: Pix QRs to pay, by when
  std::set<std::string> scheduled_;        // driver thread: every QR scheduled so far
};

}  // namespace balcao::terminal::service
