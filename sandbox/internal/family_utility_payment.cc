// Utility payments (API documentation, part 2, "Utility Payment"): arrecadação slips of
// utility segments (2, 3, 4, 6, 9), by line or bar code (both must match), amount from the
// slip; life cycle payment_flow.h.
#include "sandbox/internal/payment_flow.h"
#include "sandbox/internal/slip.h"

namespace balcao::sandbox::internal {
namespace {

// The receipt's lines after the common ones (payment_flow.h).
std::vector<std::string> UtilityPaymentReceiptLines(const Entity& e) {
  return {"Description: " + e.doc["description"].get<std::string>(), "Line: " + e.doc["line"].get<std::string>()};
}

}  // namespace

BALCAO_SANDBOX_FAMILY(utility_payment) {
  AddFlow(registry,
          {.resource = "utility-payment",
           .not_found_code = "invalidPayment",
           .create = CreateSlipPaymentOf(SlipKind::kUtility)},
          {.label = "Utility payment", .receipt_lines = UtilityPaymentReceiptLines});
}

}  // namespace balcao::sandbox::internal
