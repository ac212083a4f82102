// Tax payments (API documentation, part 2, "Tax Payment"): arrecadação slips of government
// segments (1 municipal, 5 federal, 7 traffic fines), amount computed from the bar code,
// `type` from the segment; logs created, processing, success, failed, canceling, canceled
// (payment_flow.h).
#include "sandbox/internal/payment_flow.h"
#include "sandbox/internal/slip.h"

namespace balcao::sandbox::internal {
namespace {

// The receipt's lines after the common ones (payment_flow.h).
std::vector<std::string> TaxPaymentReceiptLines(const Entity& e) {
  return {"Tax: " + e.doc["type"].get<std::string>(), "Description: " + e.doc["description"].get<std::string>(),
          "Line: " + e.doc["line"].get<std::string>()};
}

}  // namespace

BALCAO_SANDBOX_FAMILY(tax_payment) {
  AddFlow(
      registry,
      {.resource = "tax-payment", .not_found_code = "invalidPayment", .create = CreateSlipPaymentOf(SlipKind::kTax)},
      {.label = "Tax payment", .receipt_lines = TaxPaymentReceiptLines});
}

}  // namespace balcao::sandbox::internal
