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

// The receipt's lines after the common ones (payment_flow.h).
std::vector<std::string> BoletoPaymentReceiptLines(const Entity& e) {
  return {"Payer tax id: " + e.doc["taxId"].get<std::string>(),
          "Description: " + e.doc["description"].get<std::string>(), "Line: " + e.doc["line"].get<std::string>()};
}

}  // namespace

BALCAO_SANDBOX_FAMILY(boleto_payment) {
  AddFlow(registry,
          {.resource = "boleto-payment",
           .not_found_code = "invalidPayment",
           .create = CreateSlipPaymentOf(SlipKind::kBoleto)},
          {.label = "Boleto payment", .on_process = PaySandboxBoleto, .receipt_lines = BoletoPaymentReceiptLines});
}

}  // namespace balcao::sandbox::internal
