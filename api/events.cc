#include "api/events.h"

#include <nlohmann/json.hpp>
#include <utility>

#include "api/resources.h"

namespace balcao::api {
namespace {

using nlohmann::json;

// Reads the required string `key` of `obj`; `path` names it in errors ("event.id").
Status RequiredString(const json& obj, const char* key, const std::string& path, std::string& out) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return InvalidArgumentError(path + ": required, missing");
  if (it->is_string()) {
    out = it->get<std::string>();
  } else if (it->is_number_integer()) {  // ids have always been strings; be lenient
    out = it->dump();
  } else {
    return InvalidArgumentError(path + ": must be a string, got " + it->type_name());
  }
  if (out.empty()) return InvalidArgumentError(path + ": must not be empty");
  return OkStatus();
}

Status RequiredTime(const json& obj, const char* key, const std::string& path, UnixMicros& out) {
  std::string text;
  BALCAO_RETURN_IF_ERROR(RequiredString(obj, key, path, text));
  auto t = ParseTimestamp(text);
  if (!t.ok()) return InvalidArgumentError(path + ": " + t.status().message());
  out = *t;
  return OkStatus();
}

std::string OptionalString(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Which member of the log holds the entity: the resource table's key for the
// subscription, else the subscription's last kebab word ("merchant-card" -> "card"),
// else the only object-valued member that is not log metadata.
std::string EntityKey(const json& log, std::string_view subscription) {
  auto is_object_member = [&](std::string_view key) {
    auto it = log.find(key);
    return it != log.end() && it->is_object();
  };
  for (const auto& r : Resources()) {
    if (r.subscription == subscription && !r.log_entity_key.empty() && is_object_member(r.log_entity_key)) {
      return std::string(r.log_entity_key);
    }
  }
  const std::size_t dash = subscription.rfind('-');
  const std::string_view last = dash == std::string_view::npos ? subscription : subscription.substr(dash + 1);
  if (!last.empty() && is_object_member(last)) return std::string(last);
  std::string found;
  for (auto it = log.begin(); it != log.end(); ++it) {
    if (!it->is_object() || it.key() == "user") continue;  // payment-request logs name the user
    if (!found.empty()) return {};                         // ambiguous: leave it to the caller
    found = it.key();
  }
  return found;
}

Status ReadLog(const json& log, std::string_view subscription, EventLog& out) {
  if (!log.is_object()) return InvalidArgumentError("event.log: must be an object");
  BALCAO_RETURN_IF_ERROR(RequiredString(log, "id", "event.log.id", out.id));
  BALCAO_RETURN_IF_ERROR(RequiredString(log, "type", "event.log.type", out.type));
  BALCAO_RETURN_IF_ERROR(RequiredTime(log, "created", "event.log.created", out.created));
  if (auto it = log.find("errors"); it != log.end() && !it->is_null()) {
    if (!it->is_array()) return InvalidArgumentError("event.log.errors: must be a list");
    for (const auto& e : *it) out.errors.push_back(e.is_string() ? e.get<std::string>() : e.dump());
  }
  out.entity_key = EntityKey(log, subscription);
  out.entity_json = "{}";
  if (!out.entity_key.empty()) {
    const json& entity = log.at(out.entity_key);
    out.entity_json = entity.dump();
    out.entity_id = OptionalString(entity, "id");
    out.entity_status = OptionalString(entity, "status");
  }
  return OkStatus();
}

StatusOr<Event> ReadEvent(const json& doc) {
  if (!doc.is_object()) return InvalidArgumentError("event body: must be a JSON object");
  // A delivery wraps the event ({"event": {...}}); GET /event/<id> answers the same way.
  const json* ev = &doc;
  if (auto it = doc.find("event"); it != doc.end()) {
    ev = &*it;
  } else if (!doc.contains("subscription")) {
    return InvalidArgumentError("event body: no \"event\" object (is this a webhook delivery?)");
  }
  if (!ev->is_object()) return InvalidArgumentError("event: must be an object");
  Event out;
  BALCAO_RETURN_IF_ERROR(RequiredString(*ev, "id", "event.id", out.id));
  BALCAO_RETURN_IF_ERROR(RequiredTime(*ev, "created", "event.created", out.created));
  BALCAO_RETURN_IF_ERROR(RequiredString(*ev, "subscription", "event.subscription", out.subscription));
  out.workspace_id = OptionalString(*ev, "workspaceId");
  if (auto it = ev->find("isDelivered"); it != ev->end() && it->is_boolean()) out.is_delivered = it->get<bool>();
  auto log = ev->find("log");
  if (log == ev->end()) return InvalidArgumentError("event.log: required, missing");
  BALCAO_RETURN_IF_ERROR(ReadLog(*log, out.subscription, out.log));
  return out;
}

}  // namespace

StatusOr<Event> ParseEvent(std::string_view body) {
  const json doc = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return InvalidArgumentError("event body: not valid JSON");
  try {
    return ReadEvent(doc);
  } catch (const json::exception& e) {  // a type mismatch the checks above did not foresee
    return InvalidArgumentError(std::string("event body: ") + e.what());
  }
}

// ---- EventVerifier ----

EventVerifier::EventVerifier(PublicKeyFetcher fetch, EventVerifierOptions options)
    : fetch_(std::move(fetch)), options_(options) {
  if (options_.clock == nullptr) options_.clock = &SystemClock::Instance();
}

void EventVerifier::SetPublicKey(const PublicKey& key) {
  std::lock_guard<std::mutex> lock(mu_);
  key_ = key;
  ++generation_;
}

EventVerifier::Snapshot EventVerifier::Current() const {
  std::lock_guard<std::mutex> lock(mu_);
  return {key_, generation_};
}

StatusOr<EventVerifier::Snapshot> EventVerifier::Fetch(std::optional<std::uint64_t> seen) {
  std::lock_guard<std::mutex> fetch_lock(fetch_mu_);
  Snapshot now = Current();
  if (!seen.has_value()) {
    if (now.key.has_value()) return now;  // another thread fetched it meanwhile
  } else {
    if (now.generation != *seen) return now;  // another thread refreshed it meanwhile
    const UnixMicros t = options_.clock->Now();
    if (last_refetch_.has_value() && t - *last_refetch_ < options_.min_refetch_interval) return now;
    last_refetch_ = t;
  }
  StatusOr<std::string> pem = fetch_ ? fetch_() : StatusOr<std::string>(UnavailableError("no key fetcher"));
  if (!pem.ok()) {
    return Status(pem.status().code(), "fetching the bank public key: " + pem.status().message(),
                  pem.status().detail());
  }
  auto key = PublicKey::FromPem(*pem);
  if (!key.ok())
    return InternalError("the bank public key (GET /v2/public-key) is not usable: " + key.status().message());
  SetPublicKey(*key);
  return Current();
}

Status EventVerifier::Verify(std::string_view body, std::string_view signature_b64) {
  auto signature = Signature::FromBase64(signature_b64);
  if (!signature.ok()) return InvalidArgumentError("Digital-Signature is not valid: " + signature.status().message());
  Snapshot snap = Current();
  if (!snap.key.has_value()) {
    BALCAO_ASSIGN_OR_RETURN(snap, Fetch(std::nullopt));
  }
  if (snap.key->Verify(body, *signature)) return OkStatus();
  auto fresh = Fetch(snap.generation);
  if (!fresh.ok()) {
    return Status(fresh.status().code(),
                  "Digital-Signature does not match the cached bank public key, and " + fresh.status().message(),
                  fresh.status().detail());
  }
  if (fresh->generation == snap.generation) {
    return PermissionDeniedError(
        "Digital-Signature and body do not match the bank public key (the key was fetched again less than " +
        std::to_string(options_.min_refetch_interval / kMicrosPerSecond) + " s ago, so not refetched)");
  }
  if (fresh->key->Verify(body, *signature)) return OkStatus();
  return PermissionDeniedError(
      "Digital-Signature and body do not match the bank public key (also after fetching it again)");
}

StatusOr<Event> EventVerifier::Parse(std::string_view body, std::string_view signature_b64) {
  BALCAO_RETURN_IF_ERROR(Verify(body, signature_b64));
  return ParseEvent(body);
}

}  // namespace balcao::api
