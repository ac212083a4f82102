// Invoice pull subscriptions (API documentation, part 2, "Invoice Pull Subscription"; Pix
// Automático): a recurring-billing contract a debtor approves. externalId is unique in the
// workspace; referenceCode is not (docs/sandbox.md, "Where the official SDKs and the API
// documentation differ": the SDKs' suites reuse one contract code); amount (fixed, > 0) or amountMinLimit (variable,
// with amount 0 or absent) is needed; `data` is needed except for type qrcode. Status created -> active when the debtor
// approves (the sandbox debtor approves 60 s of sandbox time after creation); DELETE only
// while active -> canceled.
#include "sandbox/internal/family.h"
#include "sandbox/internal/transition.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {
namespace {

constexpr UnixMicros kApprovalDelay = 60 * kMicrosPerSecond;

Json CreateSubscription(Context& ctx, const Json& element, Problems& problems) {
  Reader in(element, problems);
  auto display = in.String("displayDescription", Need::kRequired, "invalidDisplayDescription", 1, 140);
  auto external_id = in.String("externalId", Need::kRequired, "invalidExternalId", 1, 64);
  auto interval =
      in.Enum("interval", Need::kRequired, {"week", "month", "quarter", "semester", "year"}, "invalidInterval");
  auto name = in.String("name", Need::kRequired, "invalidName", 1, 200);
  auto pull_mode = in.Enum("pullMode", Need::kRequired, {"manual", "automatic"}, "invalidPullMode");
  const Json* retry = in.Raw("pullRetryLimit");
  auto reference = in.String("referenceCode", Need::kRequired, "invalidReferenceCode", 1, 35);
  auto start = in.Time("start", Need::kRequired, "invalidStart");
  auto tax_id = in.TaxId("taxId", Need::kRequired);
  // The API documentation spells the fourth type paymentAndOrQrCode; the official SDKs' own
  // tests send paymentAndOrQrcode, which the bank's sandbox accepts: both are read, and the
  // documented spelling is stored.
  auto type =
      in.Enum("type", Need::kRequired,
              {"push", "qrcode", "qrcodeAndPayment", "paymentAndOrQrCode", "paymentAndOrQrcode"}, "invalidType");
  if (type && *type == "paymentAndOrQrcode") type = "paymentAndOrQrCode";
  // amount 0 (or absent) with amountMinLimit is a variable-amount subscription.
  auto amount = in.Int("amount", Need::kOptional, 0, 100'000'000'000, "invalidAmount");
  const Json* min_limit = in.Raw("amountMinLimit");
  const Json* data = in.Raw("data");
  auto due = in.Time("due", Need::kOptional, "invalidDue");
  auto end = in.Time("end", Need::kOptional, "invalidEnd");
  auto tags = in.Tags();
  in.RejectUnknown();
  const bool retry_ok =
      retry && ((retry->is_number_integer() && (retry->get<int>() == 0 || retry->get<int>() == 3)) ||
                (retry->is_string() && (retry->get<std::string>() == "0" || retry->get<std::string>() == "3")));
  if (!retry_ok) in.Fail("pullRetryLimit", "invalidPullRetryLimit", "must be 0 or 3.", "deve ser 0 ou 3.");
  const bool min_ok = min_limit && ((min_limit->is_number_integer() && min_limit->get<std::int64_t>() > 0) ||
                                    (min_limit->is_string() && !min_limit->get<std::string>().empty()));
  if (min_limit && !min_ok)
    in.Fail("amountMinLimit", "invalidAmountMinLimit", "must be a positive amount in cents.",
            "deve ser um valor positivo em centavos.");
  if (amount.value_or(0) == 0 && !min_limit && !in.Has("amount"))
    in.Fail("amount", "invalidAmount", "or 'amountMinLimit' is required (fixed or variable amount).",
            "ou 'amountMinLimit' é obrigatório (valor fixo ou variável).");
  else if (amount && *amount == 0 && !min_limit)
    in.Fail("amount", "invalidAmount", "must be at least 1 for a fixed-amount subscription (or send 'amountMinLimit').",
            "deve ser ao menos 1 numa assinatura de valor fixo (ou envie 'amountMinLimit').");
  if (type && *type != "qrcode" && !data)
    in.Fail("data", "invalidJson", "is required for type " + *type + ".", "é obrigatório para o tipo " + *type + ".");
  if (start && end && *end < *start)
    in.Fail("end", "invalidEnd", "must not be before start.", "não pode ser antes de start.");
  if (external_id && ctx.FindBy("invoice-pull-subscription", "externalId", *external_id))
    in.Fail("externalId", "invalidExternalId", "is already used by another subscription.",
            "já é usado por outra assinatura.");
  if (!problems.empty()) return nullptr;
  Json doc = {{"displayDescription", *display},
              {"externalId", *external_id},
              {"interval", *interval},
              {"name", *name},
              {"pullMode", *pull_mode},
              {"pullRetryLimit", retry->is_string() ? std::stoi(retry->get<std::string>()) : retry->get<int>()},
              {"referenceCode", *reference},
              {"start", FormatTimestamp(*start)},
              {"taxId", *tax_id},
              {"type", *type},
              {"amount", amount.value_or(0)},
              {"amountMinLimit", min_limit ? *min_limit : Json(0)},
              {"data", data ? *data : Json::object()},
              {"due", FormatTimestamp(due.value_or(ctx.Now() + 2 * 86'400 * kMicrosPerSecond))},
              {"end", end ? Json(FormatTimestamp(*end)) : Json(nullptr)},
              {"status", "created"},
              {"tags", tags}};
  Entity e = ctx.Insert("invoice-pull-subscription", std::move(doc));
  ctx.AddLog(e, "created");
  ctx.Schedule(ctx.Now() + kApprovalDelay, "invoice-pull-subscription.approve", {{"id", e.id}});
  return e.doc;
}

}  // namespace

BALCAO_SANDBOX_FAMILY(invoice_pull_subscription) {
  registry.Add({.resource = "invoice-pull-subscription",
                .statuses = {"created", "active", "canceled", "expired"},
                .log_types = {"created", "active", "canceled", "expired"},
                .not_found_code = "invalidSubscription",
                .create = CreateSubscription,
                .remove = CancelWhileIn("active", "an active subscription", "uma assinatura ativa")});
  registry.AddJob("invoice-pull-subscription.approve", MoveStatusJob("invoice-pull-subscription", "created", "active"));
}

}  // namespace balcao::sandbox::internal
