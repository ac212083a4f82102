// The embedded sandbox's simulated customer: what the customer would do next for a sale in its
// current state (scan and pay the Pix QR, pay the invoice, pass or fail the 3-D Secure
// challenge on their phone), as a call of the sandbox's simulation API (docs/sandbox.md).
// Used by `balcao demo`, `balcao checkout --autopay` and `balcao serve`'s simulate button and
// --sandbox-autopay. Never against a real bank: the callers hold an embedded sandbox.
// Thread-safety: free functions, no shared state.
#pragma once

#include <optional>
#include <string>

#include "checkout/checkout.h"
#include "terminal/internal/console.h"

namespace balcao::terminal {

// The payer `balcao serve`'s simulate button and --sandbox-autopay pay as.
inline constexpr const char* kSandboxPayerName = "Cliente Sandbox";

// One call of the sandbox's simulation API: POST /sandbox/<route> with `body` (JSON).
struct PayerStep {
  std::string route;
  std::string body;
};

// How the customer answers a 3-D Secure challenge.
enum class ChallengeAnswer { kPass, kFail };

// Paying the Pix QR `brcode_uuid` from a bank app, as `payer_name` ("" names nobody).
PayerStep PayPix(const std::string& brcode_uuid, const std::string& payer_name);

// Who pays, as the bank's records name them ("" names nobody).
struct PayerNames {
  std::string pix;      // the payer of a Pix QR
  std::string invoice;  // the payer of an invoice
};

// What the customer does for `sale` now: pays the Pix QR shown, the invoice shown or left to
// pay later, or answers the challenge. nullopt when the sale waits for nothing of theirs.
std::optional<PayerStep> PayerStepFor(const checkout::Sale& sale, const PayerNames& payer,
                                      ChallengeAnswer challenge = ChallengeAnswer::kPass);

// Posts `step` to the sandbox on loopback `sandbox_port` (a blocking HTTP call).
SimulationAnswer RunPayerStep(unsigned short sandbox_port, const PayerStep& step);

}  // namespace balcao::terminal
