// The bank the box talks to (docs/terminal.md, "Inside"): the one configured (credentials in
// the environment or the config's bank.credentials), or else the embedded sandbox started
// in-process with its state in the data dir, and then its payer (sandbox_payer.h). The bank's
// clock (api/bank_clock.h) is shared by every client of the service: it signs requests and is
// the clock of business days, sales' timers and expirations (docs/adr/0005-bank-time.md).
// Owns: the bank's clock, the sandbox and its payer (when embedded), the bank client, the
// verifier of the bank's event signatures. Calls: the bank (HTTP).
// Thread-safety: the accessors from any thread; the clients are copied per call.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "api/bank.h"
#include "api/bank_clock.h"
#include "api/events.h"
#include "sandbox/sandbox.h"
#include "terminal/service/config.h"
#include "terminal/service/sandbox_payer.h"

namespace balcao::terminal::service {

class BankSide {
 public:
  // The configured bank, or the embedded sandbox in `dir`/sandbox when none is configured
  // (whose payer pays each Pix QR `autopay_s` after it shows; 0: never). Every bank call is
  // reported to `observe`.
  static StatusOr<std::unique_ptr<BankSide>> Connect(const std::filesystem::path& dir, const ServeConfig& config,
                                                     const api::CallObserver& observe, int autopay_s);
  BankSide(const BankSide&) = delete;
  BankSide& operator=(const BankSide&) = delete;
  ~BankSide();  // stops the embedded sandbox

  api::BankClock& clock() { return *clock_; }
  const std::shared_ptr<api::BankClock>& shared_clock() const { return clock_; }
  const api::Bank& bank() const { return *bank_; }
  api::EventVerifier& verifier() { return *verifier_; }
  const std::string& base_url() const { return base_url_; }  // the bank's, or the sandbox's
  // The credentials file the clients read ("" = the environment).
  const std::string& credentials_path() const { return credentials_path_; }
  sandbox::Sandbox* sandbox() { return sandbox_.get(); }  // null against a real bank
  SandboxPayer* payer() { return payer_.get(); }          // null against a real bank
  void StopSandbox();

 private:
  BankSide() = default;

  std::shared_ptr<api::BankClock> clock_ = std::make_shared<api::BankClock>();
  std::unique_ptr<sandbox::Sandbox> sandbox_;
  std::unique_ptr<SandboxPayer> payer_;
  std::string credentials_path_;
  std::string base_url_;
  std::unique_ptr<api::Bank> bank_;
  std::unique_ptr<api::EventVerifier> verifier_;
};

}  // namespace balcao::terminal::service
