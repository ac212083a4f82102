// Utility payments (API documentation, part 2, "Utility Payment"): arrecadação slips of
// utility segments (2, 3, 4, 6, 9), by line or bar code (both must match), amount from the
// slip; life cycle payment_flow.h.
#include "sandbox/internal/payment_flow.h"
#include "sandbox/internal/slip.h"

namespace balcao::sandbox::internal {

BALCAO_SANDBOX_FAMILY(utility_payment) {
  Family f;
  f.resource = "utility-payment";
  f.not_found_code = "invalidPayment";
  f.create = [](Context& ctx, const Json& element, Problems& problems) {
    return CreateSlipPayment(ctx, element, problems, SlipKind::kUtility);
  };
  FlowSpec spec;
  spec.resource = "utility-payment";
  spec.label = "Utility payment";
  spec.receipt_lines = [](const Entity& e) -> std::vector<std::string> {
    return {"Description: " + e.doc["description"].get<std::string>(), "Line: " + e.doc["line"].get<std::string>()};
  };
  AddFlow(registry, std::move(f), std::move(spec));
}

}  // namespace balcao::sandbox::internal
