// Tax payments (API documentation, part 2, "Tax Payment"): arrecadação slips of government
// segments (1 municipal, 5 federal, 7 traffic fines), amount computed from the bar code,
// `type` from the segment; logs created, processing, success, failed, canceling, canceled
// (payment_flow.h).
#include "sandbox/internal/payment_flow.h"
#include "sandbox/internal/slip.h"

namespace balcao::sandbox::internal {

BALCAO_SANDBOX_FAMILY(tax_payment) {
  Family f;
  f.resource = "tax-payment";
  f.not_found_code = "invalidPayment";
  f.create = [](Context& ctx, const Json& element, Problems& problems) {
    return CreateSlipPayment(ctx, element, problems, SlipKind::kTax);
  };
  FlowSpec spec;
  spec.resource = "tax-payment";
  spec.label = "Tax payment";
  spec.receipt_lines = [](const Entity& e) -> std::vector<std::string> {
    return {"Tax: " + e.doc["type"].get<std::string>(), "Description: " + e.doc["description"].get<std::string>(),
            "Line: " + e.doc["line"].get<std::string>()};
  };
  AddFlow(registry, std::move(f), std::move(spec));
}

}  // namespace balcao::sandbox::internal
