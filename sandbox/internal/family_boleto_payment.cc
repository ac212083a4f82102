// Boleto payments (API documentation, part 2, "Boleto Payment"): pay a boleto by line or
// bar code (both must match), amount defaulting to what the boleto costs now. A boleto
// issued by this sandbox is paid as a payer when processing starts (its workspace is
// credited; a refusal fails the payment and refunds it). Life cycle: payment_flow.h.
#include "sandbox/internal/payment_flow.h"
#include "sandbox/internal/slip.h"

namespace balcao::sandbox::internal {
namespace {

std::optional<Problem> PaySandboxBoleto(Context& ctx, Entity& e) {
  auto slip = ParseSlip(ctx, e.doc["barCode"].get<std::string>());
  auto id = slip ? SandboxBoletoId(*slip) : std::nullopt;
  if (!id) return std::nullopt;  // another bank's boleto: it just settles
  return PayInSandbox(ctx, "boleto", *id, "boleto/pay",
                      {{"id", *id}, {"amount", e.doc["amount"]}, {"taxId", e.doc["taxId"]}});
}

}  // namespace

BALCAO_SANDBOX_FAMILY(boleto_payment) {
  Family f;
  f.resource = "boleto-payment";
  f.not_found_code = "invalidPayment";
  f.create = [](Context& ctx, const Json& element, Problems& problems) {
    return CreateSlipPayment(ctx, element, problems, SlipKind::kBoleto);
  };
  FlowSpec spec;
  spec.resource = "boleto-payment";
  spec.label = "Boleto payment";
  spec.on_process = PaySandboxBoleto;
  spec.receipt_lines = [](const Entity& e) -> std::vector<std::string> {
    return {"Payer tax id: " + e.doc["taxId"].get<std::string>(),
            "Description: " + e.doc["description"].get<std::string>(), "Line: " + e.doc["line"].get<std::string>()};
  };
  AddFlow(registry, std::move(f), std::move(spec));
}

}  // namespace balcao::sandbox::internal
