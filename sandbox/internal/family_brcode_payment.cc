// Brcode payments (API documentation, part 2, "Brcode Payment"): pay a Pix BR Code
// (validated with api/formats). When it is an invoice or dynamic brcode of this sandbox,
// processing pays it as a payer (the receiving workspace is credited; a refused payment
// fails and is refunded). PATCH {"status": "canceled"} cancels it before processing. Life
// cycle: payment_flow.h.
#include "api/formats/brcode.h"
#include "sandbox/internal/artifacts.h"
#include "sandbox/internal/payment_flow.h"
#include "sandbox/internal/slip.h"

namespace balcao::sandbox::internal {
namespace {

Json CreateBrcodePayment(Context& ctx, const Json& element, Problems& problems) {
  Reader in(element, problems);
  auto brcode = in.String("brcode", Need::kRequired, "invalidBrcode", 1, 1000);
  auto description = in.String("description", Need::kRequired, "invalidDescription", 10, 140);
  auto tax_id = in.TaxId("taxId", Need::kRequired);
  auto amount = in.Int("amount", Need::kOptional, 1, 100'000'000'000, "invalidAmount");
  Json rules = Json::array();
  if (const Json* list = in.ObjectList("rules", Need::kOptional, 5, "invalidRule")) rules = *list;
  auto scheduled = ReadScheduled(ctx, in);
  auto tags = in.Tags();
  in.RejectUnknown();
  std::optional<formats::BrCode> code;
  if (brcode) {
    auto parsed = ReadBrCode(*brcode);
    if (parsed.ok())
      code = *parsed;
    else
      in.Fail("brcode", "invalidBrcode", "is not a valid BR Code: " + parsed.status().message(),
              "não é um BR Code válido: " + parsed.status().message());
  }
  if (code && code->amount_cents.value_or(0) > 0 && amount && *amount != *code->amount_cents)
    in.Fail("amount", "invalidAmount", "must equal the BR Code's amount (" + std::to_string(*code->amount_cents) + ").",
            "deve ser igual ao valor do BR Code (" + std::to_string(*code->amount_cents) + ").");
  if (code && code->amount_cents.value_or(0) == 0 && !amount)
    in.Fail("amount", "invalidAmount", "is required: this BR Code carries no amount.",
            "é obrigatório: este BR Code não traz valor.");
  if (!problems.empty()) return nullptr;
  Json doc = {{"brcode", *brcode},
              {"amount", amount.value_or(code->amount_cents.value_or(0))},
              {"description", *description},
              {"name", code->merchant_name},
              {"taxId", *tax_id},
              {"type", code->kind == formats::BrCodeKind::kStatic ? "static" : "dynamic"},
              {"rules", rules},
              {"tags", tags}};
  return StartFlow(ctx, "brcode-payment", std::move(doc), *scheduled);
}

// Pays the sandbox receivable the BR Code names, if any.
std::optional<Problem> PayReceivable(Context& ctx, Entity& e) {
  auto [kind, key] = ParseSandboxBrCode(e.doc["brcode"].get<std::string>());
  const Json amount = e.doc["amount"];
  if (kind == "invoice") return PayInSandbox(ctx, "invoice", key, "invoice/pay", {{"id", key}, {"amount", amount}});
  if (kind == "dynamic-brcode")  // stored under the BR Code text itself
    return PayInSandbox(ctx, "dynamic-brcode", e.doc["brcode"].get<std::string>(), "dynamic-brcode/pay",
                        {{"uuid", key}, {"amount", amount}});
  return std::nullopt;  // another bank's BR Code: it just settles
}

void PatchBrcodePayment(Context& ctx, Entity& e, const Json& changes, Problems& problems) {
  Reader in(changes, problems);
  in.Enum("status", Need::kRequired, {"canceled"}, "invalidStatus");
  in.RejectUnknown();
  if (problems.empty()) CancelFlow(ctx, e, problems);
}

// The receipt's lines after the common ones (payment_flow.h).
std::vector<std::string> BrcodePaymentReceiptLines(const Entity& e) {
  return {"To: " + e.doc["name"].get<std::string>() + " (" + e.doc["taxId"].get<std::string>() + ")",
          "Description: " + e.doc["description"].get<std::string>(), "BR Code:", e.doc["brcode"].get<std::string>()};
}

}  // namespace

BALCAO_SANDBOX_FAMILY(brcode_payment) {
  AddFlow(registry,
          {.resource = "brcode-payment",
           .not_found_code = "invalidBrcodePayment",
           .create = CreateBrcodePayment,
           .patch = PatchBrcodePayment},
          {.label = "Brcode payment", .on_process = PayReceivable, .receipt_lines = BrcodePaymentReceiptLines});
}

}  // namespace balcao::sandbox::internal
