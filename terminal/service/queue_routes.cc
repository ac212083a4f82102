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
#include "terminal/service/service_impl.h"

namespace balcao::terminal::service {
namespace {

using nlohmann::json;

HttpResponse Json(int status, const json& body) {
  return HttpResponse{
      status, "application/json; charset=utf-8", body.dump(-1, ' ', false, json::error_handler_t::replace), {}};
}

// "/api/queue/<target>/<action>" or "/api/queue/card/<target>/<action>".
bool SplitQueueRoute(const std::string& path, bool& card, std::string& target, std::string& action) {
  std::string rest = path.substr(std::string("/api/queue/").size());
  card = rest.rfind("card/", 0) == 0;
  if (card) rest = rest.substr(5);
  const auto slash = rest.find('/');
  if (slash == std::string::npos) return false;
  target = rest.substr(0, slash);
  action = rest.substr(slash + 1);
  return !target.empty() && target.size() <= 64 && (action == "retry" || action == "drop");
}

}  // namespace

void Service::Impl::QueueRoute(const HttpRequest& request, const std::optional<Session>& session, Respond respond) {
  if (!session || session->role != offline::OperatorRole::kSupervisor)
    return respond(ErrorResponse(403, "session", "the queue is the supervisor's"));
  const std::string who = session->operator_name;
  if (request.path == "/api/queue") {
    if (request.method != "GET") return respond(ErrorResponse(405, "method", "GET"));
    return OnDriver(
        [this] {
          const std::int64_t now_ms = SystemClock::Instance().Now() / 1000;
          json items = json::array();
          std::int64_t at_risk = 0;
          for (auto state :
               {offline::OutboxState::kPending, offline::OutboxState::kInflight, offline::OutboxState::kUnknown,
                offline::OutboxState::kFailed, offline::OutboxState::kDead}) {
            auto listed = outbox->List(state, 200);
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
          if (sealed_cards) {
            auto waiting = sealed_cards->Pending();
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
          return Json(200, {{"items", items}, {"amount_at_risk", at_risk}, {"online", online.load()}});
        },
        std::move(respond));
  }
  bool card = false;
  std::string target, action;
  if (request.method != "POST") return respond(ErrorResponse(405, "method", "POST"));
  if (!SplitQueueRoute(request.path, card, target, action)) return respond(ErrorResponse(404, "path", "no such route"));
  auto body = ParseJsonObject(request.body.empty() ? std::string_view("{}") : std::string_view(request.body));
  if (!body.ok()) return respond(ErrorResponse(400, "body", body.status().message()));
  const std::string reason =
      body->contains("reason") && (*body)["reason"].is_string() ? (*body)["reason"].get<std::string>() : "";
  if (reason.size() < 3 || reason.size() > 200) return respond(ErrorResponse(400, "reason", "3 to 200 characters"));
  OnDriver(
      [this, card, target, action, reason, who] {
        Status done;
        if (card) {
          if (!sealed_cards) return ErrorResponse(404, "card", "this store takes no cards offline");
          if (action == "retry") {
            next_forward = 0;  // the next tick forwards, if the bank answers
          } else {
            done = sealed_cards->Drop(target, who, reason, SystemClock::Instance().Now() / 1000);
            if (done.ok()) {
              next_forward = 0;  // the outcome reaches the sale at the next tick
              ForwardHeldCards();
            }
          }
        } else {
          std::int64_t id = 0;
          for (char c : target) {
            if (c < '0' || c > '9' || id > 1'000'000'000'000) return ErrorResponse(400, "id", "an outbox row id");
            id = id * 10 + (c - '0');
          }
          done = action == "retry" ? outbox->Retry(id, who, reason) : outbox->Drop(id, who, reason);
          if (done.ok() && action == "retry") drainer->Kick();
        }
        if (!done.ok()) {
          const int status = done.code() == StatusCode::kNotFound ? 404 : 409;
          return ErrorResponse(status, card ? "card" : "request", done.message());
        }
        logging::Info("serve", "queue item handled",
                      {{"item", target}, {"action", action}, {"supervisor", who}, {"reason", reason}});
        return Json(200, {{"done", action}, {"id", target}});
      },
      std::move(respond));
}

}  // namespace balcao::terminal::service
