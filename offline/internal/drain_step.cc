// Send or look up one outbox row (docs/style.md S3: an unknown outcome is resolved by
// asking the bank before anything is sent again).
#include "offline/internal/drain_step.h"

#include <nlohmann/json.hpp>

namespace balcao::offline::internal {
namespace {

using nlohmann::json;

json Parse(const std::string& text) { return json::parse(text, nullptr, /*allow_exceptions=*/false); }

std::string IdOf(const json& entity) {
  auto it = entity.find("id");
  if (it == entity.end()) return "";
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number_integer()) return std::to_string(it->get<std::int64_t>());
  return "";
}

// The entities of a list or create answer: the first array among the top-level values
// ({"cursor":..,"invoices":[..]}), or the single object ({"session":{..}}).
std::vector<json> Entities(const json& doc) {
  std::vector<json> out;
  if (!doc.is_object()) return out;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (it->is_array()) {
      for (const json& e : *it)
        if (e.is_object()) out.push_back(e);
      return out;
    }
  }
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (it->is_object()) out.push_back(*it);
  return out;
}

bool HasTag(const json& entity, const std::string& tag) {
  auto tags = entity.find("tags");
  if (tags == entity.end() || !tags->is_array()) return false;
  for (const json& t : *tags)
    if (t.is_string() && t.get<std::string>() == tag) return true;
  return false;
}

bool MatchesIntent(const json& entity, const OutboxItem& item) {
  const std::string& value = item.request.lookup_value;
  if (item.request.lookup == LookupBy::kExternalId) {
    auto ext = entity.find("externalId");
    if (ext != entity.end() && ext->is_string() && ext->get<std::string>() == value) return true;
  }
  return HasTag(entity, value);
}

// A PATCH reached its target when every field it sets already has that value; a
// DELETE when the entity is gone or in a final "removed" state.
bool ReachedTarget(const json& entity, const OutboxItem& item) {
  if (item.request.method == "DELETE") {
    auto status = entity.find("status");
    if (status == entity.end() || !status->is_string()) return false;
    const std::string s = status->get<std::string>();
    return s == "canceled" || s == "deleted" || s == "voided" || s == "removed";
  }
  const json changes = Parse(item.request.body);
  if (!changes.is_object()) return false;
  for (auto it = changes.begin(); it != changes.end(); ++it) {
    auto have = entity.find(it.key());
    if (have == entity.end() || *have != *it) return false;
  }
  return true;
}

bool NotSent(const Status& s) {
  return s.delivery() == Delivery::kNotSent ||
         (s.code() == StatusCode::kUnavailable && s.delivery() != Delivery::kAnswered &&
          s.delivery() != Delivery::kOutcomeUnknown);
}

// The bank answered "no" (a 400): the request did not take effect this time.
bool Refused(const Status& s) {
  return s.delivery() == Delivery::kAnswered && s.http_status() >= 400 && s.http_status() < 500;
}

}  // namespace

std::string ExtractBankId(const std::string& response_body) {
  const json doc = Parse(response_body);
  for (const json& e : Entities(doc)) {
    std::string id = IdOf(e);
    if (!id.empty()) return id;
  }
  return "";
}

StatusOr<LookupAnswer> Lookup(BankGateway& bank, const OutboxItem& item) {
  const OutboxRequest& r = item.request;
  if (r.lookup == LookupBy::kEntity) {
    auto answer = bank.Call("GET", r.lookup_path, {}, "");
    if (!answer.ok()) {
      // A DELETE whose entity no longer exists has reached its target.
      if (r.method == "DELETE" && answer.status().code() == StatusCode::kNotFound &&
          answer.status().delivery() == Delivery::kAnswered)
        return LookupAnswer{true, "", ""};
      return answer.status();
    }
    const auto entities = Entities(Parse(*answer));
    if (entities.empty()) return InternalError("lookup: the bank's answer holds no entity");
    const bool reached = ReachedTarget(entities[0], item);
    return LookupAnswer{reached, IdOf(entities[0]), entities[0].dump()};
  }
  // Transfers carry the key as externalId and as a tag; the list filters by tag.
  auto answer = bank.Call("GET", r.lookup_path, {{"tags", r.lookup_value}, {"limit", "100"}}, "");
  if (!answer.ok()) return answer.status();
  const json doc = Parse(*answer);
  if (!doc.is_object()) return InternalError("lookup: the bank's list answer is not JSON");
  for (const json& e : Entities(doc))
    if (MatchesIntent(e, item)) return LookupAnswer{true, IdOf(e), e.dump()};
  return LookupAnswer{};
}

StatusOr<StepResult> RunStep(Outbox& outbox, BankGateway& bank, const OutboxWork& work, double jitter_unit) {
  const OutboxItem& item = work.item;
  if (work.action == OutboxWork::kLookup) {
    auto found = Lookup(bank, item);
    if (!found.ok()) {
      BALCAO_RETURN_IF_ERROR(outbox.MarkLookupFailed(item.id, found.status().ToString(), jitter_unit));
      return StepResult::kLookupFailed;
    }
    if (found->found) {
      BALCAO_RETURN_IF_ERROR(outbox.MarkDone(item.id, found->bank_id, found->entity));
      return StepResult::kDone;
    }
    BALCAO_RETURN_IF_ERROR(outbox.MarkAbsent(item.id));
    return StepResult::kAbsent;
  }

  const OutboxRequest& r = item.request;
  auto answer = bank.Call(r.method, r.path, {}, r.body);
  if (answer.ok()) {
    BALCAO_RETURN_IF_ERROR(outbox.MarkDone(item.id, ExtractBankId(*answer), *answer));
    return StepResult::kDone;
  }
  const Status& error = answer.status();
  if (NotSent(error)) {
    BALCAO_RETURN_IF_ERROR(outbox.MarkNotSent(item.id, error.ToString(), jitter_unit));
    return StepResult::kNotSent;
  }
  if (Refused(error)) {
    // A refusal after an earlier attempt may have reached the bank can be the bank
    // saying "already done" (a duplicate externalId, a PATCH already applied, an
    // entity already deleted): ask before calling it a failure. A PATCH or DELETE is
    // always checked: its earlier attempt may have gone straight to the bank before it
    // was queued (a checkout resumed after a crash), which the outbox never saw.
    if (item.reached_bank || r.lookup == LookupBy::kEntity) {
      auto found = Lookup(bank, item);
      if (!found.ok()) {
        BALCAO_RETURN_IF_ERROR(outbox.MarkUnknown(
            item.id, "refused after an earlier attempt, and the lookup failed: " + found.status().ToString(),
            jitter_unit));
        return StepResult::kUnknown;
      }
      if (found->found) {
        BALCAO_RETURN_IF_ERROR(outbox.MarkDone(item.id, found->bank_id, found->entity));
        return StepResult::kDone;
      }
    }
    BALCAO_RETURN_IF_ERROR(outbox.MarkFailed(item.id, error));
    return StepResult::kFailed;
  }
  // 5xx, a timeout or reset after sending, an unexpected status: the bank may have
  // acted on it.
  BALCAO_RETURN_IF_ERROR(outbox.MarkUnknown(item.id, error.ToString(), jitter_unit));
  return StepResult::kUnknown;
}

}  // namespace balcao::offline::internal
