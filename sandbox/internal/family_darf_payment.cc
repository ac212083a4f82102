// DARF payments (API documentation, part 2, "Darf Payment"): revenueCode (4 digits), taxId,
// competence, due, nominal / fine / interest amounts (amount = their sum), referenceNumber;
// logs created, processing, success, failed, canceling, canceled (payment_flow.h).
#include <algorithm>
#include <cctype>

#include "sandbox/internal/payment_flow.h"

namespace balcao::sandbox::internal {
namespace {

Json CreateDarf(Context& ctx, const Json& element, Problems& problems) {
  Reader in(element, problems);
  // competence: "YYYY-MM" (a month) or a date.
  std::optional<UnixMicros> competence;
  if (const Json* c = in.Raw("competence"); !c) {
    in.Fail("competence", "invalidJson", "is required.", "é obrigatório.");
  } else if (auto t = c->is_string() ? ParseTimestamp(c->get<std::string>().size() == 7 ? c->get<std::string>() + "-01"
                                                                                        : c->get<std::string>())
                                     : StatusOr<UnixMicros>(InvalidArgumentError("not a string"));
             t.ok()) {
    competence = *t;
  } else {
    in.Fail("competence", "invalidCompetence", "must be a month (YYYY-MM) or a date.",
            "deve ser um mês (AAAA-MM) ou uma data.");
  }
  auto description = in.String("description", Need::kRequired, "invalidDescription", 10, 140);
  auto due = in.Time("due", Need::kRequired, "invalidDue");
  auto fine = in.Int("fineAmount", Need::kRequired, 0, 100'000'000'000, "invalidFineAmount");
  auto interest = in.Int("interestAmount", Need::kRequired, 0, 100'000'000'000, "invalidInterestAmount");
  auto nominal = in.Int("nominalAmount", Need::kRequired, 1, 100'000'000'000, "invalidNominalAmount");
  auto revenue = in.String("revenueCode", Need::kRequired, "invalidRevenueCode", 4, 4);
  auto tax_id = in.TaxId("taxId", Need::kRequired);
  auto reference = in.String("referenceNumber", Need::kOptional, "invalidReferenceNumber", 0, 30);
  auto scheduled = ReadScheduled(ctx, in);
  auto tags = in.Tags();
  in.RejectUnknown();
  if (revenue && !std::all_of(revenue->begin(), revenue->end(), ::isdigit))
    in.Fail("revenueCode", "invalidRevenueCode", "must be 4 digits.", "deve ter 4 dígitos.");
  if (competence && due && *competence > *due)
    in.Fail("competence", "invalidCompetence", "must not be after the due date.", "não pode ser depois do vencimento.");
  if (!problems.empty()) return nullptr;
  Json doc = {{"amount", *nominal + *fine + *interest},
              {"competence", FormatTimestamp(*competence)},
              {"description", *description},
              {"due", FormatTimestamp(*due)},
              {"fineAmount", *fine},
              {"interestAmount", *interest},
              {"nominalAmount", *nominal},
              {"referenceNumber", reference.value_or("")},
              {"revenueCode", *revenue},
              {"tags", tags},
              {"taxId", *tax_id}};
  return StartFlow(ctx, "darf-payment", std::move(doc), *scheduled);
}

// The receipt's lines after the common ones (payment_flow.h).
std::vector<std::string> DarfPaymentReceiptLines(const Entity& e) {
  const Json& d = e.doc;
  return {"Revenue code: " + d["revenueCode"].get<std::string>() + "  Tax id: " + d["taxId"].get<std::string>(),
          "Competence: " + d["competence"].get<std::string>().substr(0, 7) +
              "  Due: " + d["due"].get<std::string>().substr(0, 10),
          "Nominal: " + std::to_string(d["nominalAmount"].get<std::int64_t>()) +
              "  Fine: " + std::to_string(d["fineAmount"].get<std::int64_t>()) +
              "  Interest: " + std::to_string(d["interestAmount"].get<std::int64_t>()),
          "Description: " + d["description"].get<std::string>()};
}

}  // namespace

BALCAO_SANDBOX_FAMILY(darf_payment) {
  AddFlow(registry, {.resource = "darf-payment", .not_found_code = "invalidPayment", .create = CreateDarf},
          {.label = "DARF payment", .receipt_lines = DarfPaymentReceiptLines});
}

}  // namespace balcao::sandbox::internal
