// The bank's webhook endpoint, POST /bank/webhook (docs/terminal.md "Inside", docs/security.md
// "Webhook deliveries"). Only a POST with a Digital-Signature header gets past the door (405,
// 401); the signature over the exact body is checked here on the io thread, so forged
// deliveries never queue behind the sales; an event older than the replay window is refused by
// its age (its id may be forgotten); the rest is taken by the intake on the driver's thread,
// which answers an event taken before (a replay, or a redelivery) without feeding it again,
// and an event of another lane's sale 421, never 200 (the bank marks an event delivered at
// the first 200 of any of the account's webhooks).
// The body is at most ServerOptions::body_limit (service.cc): the server answers a larger one
// 413 and discards it.
// The bank delivers again whatever is not answered 200 (after 5, 30 and 120 minutes).
#include <nlohmann/json.hpp>

#include "common/log.h"
#include "terminal/service/service_impl.h"

namespace balcao::terminal::service {

void Service::Impl::OnWebhook(HttpRequest request, Respond respond) {
  if (request.method != "POST") {
    HttpResponse refused = ErrorResponse(405, "method", "POST (the bank's deliveries)");
    refused.headers.emplace_back("Allow", "POST");
    return respond(std::move(refused));
  }
  auto refuse = [this](const char* result, const std::string& reason) {
    ++events.refused;
    metrics->CountWebhook(result);
    logging::Warn("serve", "webhook refused", {{"result", result}, {"reason", reason}});
  };
  const std::string signature(request.Header("digital-signature"));
  if (signature.empty()) {
    refuse("rejected", "no Digital-Signature header");
    return respond(ErrorResponse(401, "Digital-Signature", "required: the bank signs every delivery"));
  }
  if (Status verified = bank_side->verifier().Verify(request.body, signature); !verified.ok()) {
    const bool bad =
        verified.code() == StatusCode::kPermissionDenied || verified.code() == StatusCode::kInvalidArgument;
    if (!bad) {  // the bank's key could not be read: it delivers again later
      metrics->CountWebhook("unavailable");
      logging::Warn("serve", "webhook not checked", {{"reason", verified.message()}});
      return respond(ErrorResponse(503, "public-key", verified.message()));
    }
    refuse("rejected", verified.message());
    return respond(ErrorResponse(401, "Digital-Signature", verified.message()));
  }
  auto event = api::ParseEvent(request.body);
  if (!event.ok()) {
    refuse("rejected", event.status().message());
    return respond(ErrorResponse(400, "event", event.status().message()));
  }
  if (storage->applied_events().OlderThanWindow(event->created)) {
    const std::string rule = "older than the " + std::to_string(storage->applied_events().retention().count() / 86400) +
                             "-day replay window";
    refuse("too-old", rule + ": event " + event->id + " of " + FormatTimestamp(event->created));
    return respond(ErrorResponse(422, "event", rule));
  }
  OnDriver(
      [this, event = *std::move(event)] {
        auto taken = events.intake->Take(event);
        metrics->CountWebhook(taken.ok() ? checkout::Name(taken->outcome) : "unavailable");
        if (!taken.ok() && offline::IsDiskFailure(taken.status())) {
          health->NoteStoreFailure("webhook", taken.status());  // the bank delivers it again later
          return ErrorResponse(507, "store", taken.status().message());
        }
        if (!taken.ok()) return ErrorResponse(503, "event", taken.status().message());
        if (taken->outcome == checkout::IntakeOutcome::kReplayed) {
          logging::Info("serve", "webhook replayed: nothing done", {{"event", event.id}, {"sale", taken->sale_id}});
        } else if (!taken->sale_id.empty()) {
          sales->Touch(taken->sale_id);
        }
        if (taken->outcome == checkout::IntakeOutcome::kNotYet) return ErrorResponse(409, "event", taken->reason);
        // Another lane's: a 200 would mark it delivered for every box (docs/adr/0006-lane-event-intake.md).
        if (taken->outcome == checkout::IntakeOutcome::kForeign) return ErrorResponse(421, "event", taken->reason);
        if (taken->outcome != checkout::IntakeOutcome::kReplayed) ++events.applied;
        const nlohmann::json answer = {{"outcome", checkout::Name(taken->outcome)}, {"sale", taken->sale_id}};
        return HttpResponse{200, "application/json; charset=utf-8", answer.dump(), {}};
      },
      std::move(respond));
}

}  // namespace balcao::terminal::service
