#include "terminal/internal/payer.h"

#include <nlohmann/json.hpp>

namespace balcao::terminal {
namespace {

using nlohmann::json;

PayerStep PayInvoice(const std::string& invoice_id, const std::string& payer_name) {
  json body = {{"id", invoice_id}};
  if (!payer_name.empty()) body["name"] = payer_name;
  return {"invoice/pay", body.dump()};
}

}  // namespace

PayerStep PayPix(const std::string& brcode_uuid, const std::string& payer_name) {
  json body = {{"uuid", brcode_uuid}};
  if (!payer_name.empty()) body["name"] = payer_name;
  return {"dynamic-brcode/pay", body.dump()};
}

std::optional<PayerStep> PayerStepFor(const checkout::Sale& sale, const PayerNames& payer, ChallengeAnswer challenge) {
  if (const auto* pix = std::get_if<checkout::ShowingPix>(&sale.state)) return PayPix(pix->brcode.uuid, payer.pix);
  if (const auto* invoice = std::get_if<checkout::ShowingInvoice>(&sale.state))
    return PayInvoice(invoice->invoice.id, payer.invoice);
  if (const auto* later = std::get_if<checkout::PayLater>(&sale.state))
    return PayInvoice(later->invoice.id, payer.invoice);
  if (const auto* asked = std::get_if<checkout::Challenge>(&sale.state))
    return PayerStep{challenge == ChallengeAnswer::kFail ? "challenge/fail" : "challenge/pass",
                     json{{"id", asked->purchase_id}}.dump()};
  return std::nullopt;
}

SimulationAnswer RunPayerStep(unsigned short sandbox_port, const PayerStep& step) {
  return Simulate(sandbox_port, step.route, step.body);
}

}  // namespace balcao::terminal
