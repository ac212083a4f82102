// Invoice pull requests (API documentation, part 2, "Invoice Pull Request"): ask the
// debtor's bank to pay an invoice under an active subscription: subscriptionId, invoiceId,
// due, attemptType default | retry, tags. Status pending; at `due` on the sandbox clock the
// debtor pays the invoice (status success, the invoice is paid and credited) or the request
// fails when the invoice can no longer be paid. DELETE while pending -> canceled.
#include "sandbox/internal/family.h"
#include "sandbox/internal/transition.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {
namespace {

Json CreateRequest(Context& ctx, const Json& element, Problems& problems) {
  Reader in(element, problems);
  auto attempt = in.Enum("attemptType", Need::kOptional, {"default", "retry"}, "invalidAttemptType");
  auto due = in.Time("due", Need::kRequired, "invalidDue");
  auto invoice_id = in.String("invoiceId", Need::kRequired, "invalidInvoiceId", 1, 64);
  auto subscription_id = in.String("subscriptionId", Need::kRequired, "invalidSubscriptionId", 1, 64);
  auto external_id = in.String("externalId", Need::kOptional, "invalidExternalId", 1, 64);
  auto display = in.String("displayDescription", Need::kOptional, "invalidDisplayDescription", 0, 140);
  auto tags = in.Tags();
  in.RejectUnknown();
  if (!problems.empty()) return nullptr;
  auto subscription = ctx.Find("invoice-pull-subscription", *subscription_id);
  if (!subscription || subscription->status() != "active")
    in.Fail("subscriptionId", "invalidSubscriptionId", "must name an active subscription of this workspace.",
            "deve indicar uma assinatura ativa deste workspace.");
  auto invoice = ctx.Find("invoice", *invoice_id);
  if (!invoice)
    in.Fail("invoiceId", "invalidInvoiceId", "names no invoice of this workspace.",
            "não é uma fatura deste workspace.");
  if (*due < ctx.Now() - 86'400 * kMicrosPerSecond)
    in.Fail("due", "invalidDue", "must not be in the past.", "não pode estar no passado.");
  if (!problems.empty()) return nullptr;
  Entity e = ctx.Insert("invoice-pull-request", {{"attemptType", attempt.value_or("default")},
                                                 {"due", FormatTimestamp(*due)},
                                                 {"invoiceId", *invoice_id},
                                                 {"subscriptionId", *subscription_id},
                                                 {"externalId", external_id.value_or("")},
                                                 {"displayDescription", display.value_or("")},
                                                 {"status", "pending"},
                                                 {"tags", tags}});
  ctx.AddLog(e, "pending");
  ctx.Schedule(std::max(*due, ctx.Now()), "invoice-pull-request.pull", {{"id", e.id}});
  return e.doc;
}

void Pull(Context& ctx, const Json& payload) {
  auto e = ctx.Find("invoice-pull-request", payload["id"].get<std::string>());
  if (!e || e->status() != "pending") return;
  auto subscription = ctx.Find("invoice-pull-subscription", e->doc["subscriptionId"].get<std::string>());
  Problems problems;
  if (subscription && subscription->status() == "active") {
    const SimulationFn* pay = Registry::Instance().FindSimulation("invoice/pay");
    (*pay)(ctx,
           {{"id", e->doc["invoiceId"]}, {"name", subscription->doc["name"]}, {"taxId", subscription->doc["taxId"]}},
           problems);
  } else {
    problems.push_back(MakeProblem("invalidSubscription", "The subscription is no longer active.",
                                   "A assinatura não está mais ativa."));
  }
  // The failed payment attempt must not roll the request back: record it instead.
  e->doc["status"] = problems.empty() ? "success" : "failed";
  ctx.Save(*e);
  Json errors = Json::array();
  for (const auto& p : problems) errors.push_back({{"code", p.code}, {"message", p.en}});
  ctx.AddLog(*e, e->status(), {{"errors", errors}});
}

}  // namespace

BALCAO_SANDBOX_FAMILY(invoice_pull_request) {
  registry.Add({.resource = "invoice-pull-request",
                .statuses = {"pending", "scheduled", "success", "failed", "canceled"},
                .log_types = {"pending", "success", "failed", "canceled"},
                .create = CreateRequest,
                .remove = CancelWhileIn("pending", "a pending pull request", "uma solicitação pendente")});
  registry.AddJob("invoice-pull-request.pull", Pull);
}

}  // namespace balcao::sandbox::internal
