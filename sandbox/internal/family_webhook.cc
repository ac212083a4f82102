// Webhooks and events (API documentation, part 2, "Webhook", "Event and Event Attempt"):
// webhook create / delete, event PATCH isDelivered / DELETE. Events themselves are written
// by Context::AddLog and delivered by the WebhookSender; failed attempts are stored as
// event/attempt.
#include <algorithm>

#include "sandbox/internal/family.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {
namespace {

Json CreateWebhook(Context& ctx, const Json& body, Problems& problems) {
  Reader in(body, problems);
  auto url = in.String("url", Need::kRequired, "invalidUrl", 8, 2000);
  auto subscriptions = in.StringList("subscriptions", Need::kRequired, "invalidSubscriptions");
  in.RejectUnknown();
  if (url && url->rfind("https://", 0) != 0 && url->rfind("http://", 0) != 0)
    in.Fail("url", "invalidUrl", "must be an http:// or https:// URL.", "deve ser uma URL http:// ou https://.");
  if (subscriptions) {
    const auto& known = api::Subscriptions();
    const auto& extra = api::UndocumentedSubscriptions();
    for (const auto& s : *subscriptions)
      if (std::find(known.begin(), known.end(), s) == known.end() &&
          !(ctx.undocumented_subscriptions() && std::find(extra.begin(), extra.end(), s) != extra.end()))
        in.Fail("subscriptions", "invalidSubscriptions", "holds an unknown subscription: " + s + ".",
                "contém uma assinatura desconhecida: " + s + ".");
    if (subscriptions->empty())
      in.Fail("subscriptions", "invalidSubscriptions", "must name at least one subscription.",
              "deve indicar ao menos uma assinatura.");
  }
  if (!problems.empty()) return nullptr;
  return ctx.Insert("webhook", {{"url", *url}, {"subscriptions", *subscriptions}}).doc;
}

void RemoveEntity(Context& ctx, Entity& e, Problems&) { ctx.Remove(e); }

void PatchEvent(Context& ctx, Entity& e, const Json& changes, Problems& problems) {
  Reader in(changes, problems);
  auto delivered = in.Bool("isDelivered", Need::kRequired, "invalidIsDelivered");
  in.RejectUnknown();
  if (!problems.empty()) return;
  e.doc["isDelivered"] = *delivered;
  ctx.Save(e);
}

}  // namespace

BALCAO_SANDBOX_FAMILY(webhook) {
  registry.Add(
      {.resource = "webhook", .not_found_code = "invalidWebhookId", .create = CreateWebhook, .remove = RemoveEntity});
  registry.Add({.resource = "event", .patch = PatchEvent, .remove = RemoveEntity});
}

}  // namespace balcao::sandbox::internal
