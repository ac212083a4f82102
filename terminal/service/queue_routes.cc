// The supervisor's queue screen (docs/terminal.md, "The queue"): what waits for the bank —
// the outbox's requests and the sealed cards of offline sales — with each one's age and the
// money at risk, and retry / drop. Supervisor sessions only (403 otherwise); retry and drop
// need a reason and are journaled (the outbox's operator_actions; a dropped card's outcome).
//   GET  /api/queue
//   POST /api/queue/{outbox id}/retry|drop          {"reason"}
//   POST /api/queue/card/{sale id}/retry|drop       {"reason"}
#include <nlohmann/json.hpp>

#include "common/log.h"
#include "terminal/service/json_body.h"
#include "terminal/service/routes.h"

namespace balcao::terminal::service {
namespace {

using nlohmann::json;

// The reason of a retry or drop, 3 to 200 characters; nullopt once 400 is answered.
std::optional<std::string> ReadReason(RouteCall& c) {
  auto body = ParseJsonObject(c.request.body.empty() ? std::string_view("{}") : std::string_view(c.request.body));
  if (!body.ok()) {
    c.respond(ErrorResponse(400, "body", body.status().message()));
    return std::nullopt;
  }
  std::string reason =
      body->contains("reason") && (*body)["reason"].is_string() ? (*body)["reason"].get<std::string>() : "";
  if (reason.size() >= 3 && reason.size() <= 200) return reason;
  c.respond(ErrorResponse(400, "reason", "3 to 200 characters"));
  return std::nullopt;
}

bool KnownAction(const RouteCall& c) {
  return !c.id.empty() && c.id.size() <= 64 && (c.action == "retry" || c.action == "drop");
}

// What the supervisor `who` asked of a queued item.
struct QueueAction {
  std::string item, action, who, reason;
};

// Answers what a retry or drop `done` came to, logged when done.
HttpResponse Handled(const Status& done, bool card, const QueueAction& a) {
  if (!done.ok()) {
    const int status = done.code() == StatusCode::kNotFound ? 404 : 409;
    return ErrorResponse(status, card ? "card" : "request", done.message());
  }
  logging::Info("serve", "queue item handled",
                {{"item", a.item}, {"action", a.action}, {"supervisor", a.who}, {"reason", a.reason}});
  return JsonAnswer(200, {{"done", a.action}, {"id", a.item}});
}

}  // namespace

void ListQueue(Service::Impl& s, RouteCall& c) {
  s.OnDriver(
      [&s] {
        const std::int64_t now_ms = SystemClock::Instance().Now() / 1000;
        json items = json::array();
        std::int64_t at_risk = 0;
        for (auto state :
             {offline::OutboxState::kPending, offline::OutboxState::kInflight, offline::OutboxState::kUnknown,
              offline::OutboxState::kFailed, offline::OutboxState::kDead}) {
          auto listed = s.storage->outbox().List(state, 200);
          if (!listed.ok()) return ErrorResponse(503, "store", listed.status().message());
          for (const offline::OutboxItem& item : *listed) {
            if (item.dropped) continue;
            at_risk += item.request.amount;
            items.push_back({{"kind", "request"},
                             {"id", std::to_string(item.id)},
                             {"what", item.request.kind},
                             {"sale_id", item.request.sale_id},
                             {"amount", item.request.amount},
                             {"state", offline::OutboxStateName(item.state)},
                             {"attempts", item.attempts},
                             {"age_ms", now_ms - item.created_at_ms},
                             {"last_error", item.last_error}});
          }
        }
        if (s.offline_cards) {
          auto waiting = s.offline_cards->sealed().Pending();
          if (!waiting.ok()) return ErrorResponse(503, "store", waiting.status().message());
          for (const offline::SealedCardInfo& card : *waiting) {
            at_risk += card.amount;
            items.push_back({{"kind", "card"},
                             {"id", card.sale_id},
                             {"what", "offline card " + card.masked_pan},
                             {"sale_id", card.sale_id},
                             {"amount", card.amount},
                             {"state", card.may_exist_at_bank ? "forwarding" : "sealed"},
                             {"attempts", card.attempts},
                             {"age_ms", now_ms - card.created_at_ms},
                             {"last_error", ""}});
          }
        }
        return JsonAnswer(200, {{"items", items}, {"amount_at_risk", at_risk}, {"online", s.reach->online()}});
      },
      std::move(c.respond));
}

// POST /api/queue/{outbox id}/retry|drop: the outbox's request sent again, or given up.
void ActOnQueuedRequest(Service::Impl& s, RouteCall& c) {
  // "/api/queue/card/retry" names no card.
  if (!KnownAction(c) || c.id == "card") return c.respond(ErrorResponse(404, "path", "no such route"));
  const auto reason = ReadReason(c);
  if (!reason) return;
  s.OnDriver(
      [&s, a = QueueAction{c.id, c.action, c.session->operator_name, *reason}] {
        std::int64_t id = 0;
        for (char digit : a.item) {
          if (digit < '0' || digit > '9' || id > 1'000'000'000'000) return ErrorResponse(400, "id", "an outbox row id");
          id = id * 10 + (digit - '0');
        }
        Status done = a.action == "retry" ? s.storage->outbox().Retry(id, a.who, a.reason)
                                          : s.storage->outbox().Drop(id, a.who, a.reason);
        if (done.ok() && a.action == "retry") s.reach->drainer().Kick();
        return Handled(done, false, a);
      },
      std::move(c.respond));
}

// POST /api/queue/card/{sale id}/retry|drop: an offline card forwarded at the next tick, or dropped.
void ActOnQueuedCard(Service::Impl& s, RouteCall& c) {
  if (!KnownAction(c)) return c.respond(ErrorResponse(404, "path", "no such route"));
  const auto reason = ReadReason(c);
  if (!reason) return;
  s.OnDriver(
      [&s, a = QueueAction{c.id, c.action, c.session->operator_name, *reason}] {
        if (!s.offline_cards) return ErrorResponse(404, "card", "this store takes no cards offline");
        Status done;
        if (a.action == "retry") {
          s.offline_cards->ForwardSoon();  // the next tick forwards, if the bank answers
        } else {
          done = s.offline_cards->sealed().Drop(a.item, a.who, a.reason, SystemClock::Instance().Now() / 1000);
          if (done.ok()) {
            s.offline_cards->ForwardSoon();  // the outcome reaches the sale at the next tick
            s.offline_cards->ForwardHeldCards();
          }
        }
        return Handled(done, true, a);
      },
      std::move(c.respond));
}

}  // namespace balcao::terminal::service
