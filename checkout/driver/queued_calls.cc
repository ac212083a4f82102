#include "checkout/driver/queued_calls.h"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <variant>

#include "checkout/driver/bank_calls.h"
#include "checkout/internal/rules.h"

namespace balcao::checkout::internal {
namespace {

using nlohmann::json;

constexpr const char* kCreateKind = "invoice.create";
constexpr const char* kCancelKind = "invoice.cancel";
constexpr const char* kReverseSuffix = ".reverse";

template <typename Model>
std::string Body(const Model& model) {
  json j;
  api::ToJson(model, j);
  return j.dump();
}
offline::OutboxRequest Patch(const Sale& sale, std::string key, std::string kind, std::string path, std::string body,
                             Cents at_risk) {
  offline::OutboxRequest r;
  r.key = std::move(key);
  r.kind = std::move(kind);
  r.method = "PATCH";
  r.path = path;
  r.body = std::move(body);
  r.lookup = offline::LookupBy::kEntity;  // a PATCH is done when the entity has its fields
  r.lookup_path = std::move(path);
  r.sale_id = sale.id;
  r.amount = at_risk;
  return r;
}

std::optional<Call> CallOf(const std::string& kind) {
  if (kind == kCreateKind) return Call::kCreateInvoice;
  if (kind == kCancelKind) return Call::kCancelInvoice;
  const std::string suffix = kReverseSuffix;
  if (kind.size() > suffix.size() && kind.compare(kind.size() - suffix.size(), suffix.size(), suffix) == 0) {
    return Call::kReversal;
  }
  return std::nullopt;
}
// The entity of a create answer ({"invoices":[{..}]}), a PATCH answer ({"invoice":{..}}) or a
// lookup (the entity itself).
json EntityOf(const std::string& text) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || doc.contains("id")) return doc;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (it->is_array() && !it->empty()) return it->front();
    if (it->is_object()) return *it;
  }
  return json();
}
std::optional<Cents> AmountIn(const json& entity) {
  if (!entity.is_object() || !entity.contains("amount") || !entity["amount"].is_number_integer()) return std::nullopt;
  return entity["amount"].get<Cents>();
}
std::string LastSegment(const std::string& path) { return path.substr(path.rfind('/') + 1); }

offline::OutboxRequest CreateRequest(const Sale& sale, const CreateInvoice& c) {
  offline::OutboxRequest r;
  r.key = AttemptTag(sale.settings.lane, sale.id, c.attempt);  // also a tag of the invoice: the lookup finds it
  r.kind = kCreateKind;
  r.method = "POST";
  r.path = "/v2/invoice";
  json item;
  api::ToJson(InvoiceToCreate(c), item);
  json body;
  body["invoices"] = json::array({item});
  r.body = body.dump();
  r.lookup = offline::LookupBy::kTags;
  r.sale_id = sale.id;
  r.amount = c.amount;
  return r;
}

}  // namespace

std::optional<offline::OutboxRequest> QueueableRequest(const Sale& sale, const BankCall& call, UnixMicros now) {
  return std::visit(
      [&](const auto& c) -> std::optional<offline::OutboxRequest> {
        using C = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<C, CreateInvoice>) {
          return CreateRequest(sale, c);
        } else if constexpr (std::is_same_v<C, FindByTag>) {
          // The lookup after an invoice create whose outcome is unknown: if it cannot reach the
          // bank, the create itself goes to the outbox as "may have reached the bank", which the
          // outbox looks up (by the same tag) before it ever sends it.
          const auto* verifying = std::get_if<VerifyingInvoice>(&sale.state);
          if (c.kind != EntityKind::kInvoice || !verifying || verifying->attempt != c.attempt) return std::nullopt;
          offline::OutboxRequest r = CreateRequest(sale, MakeCreateInvoice(sale, c.attempt, verifying->customer, now));
          r.may_have_reached_bank = true;
          return r;
        } else if constexpr (std::is_same_v<C, CancelInvoice>) {
          const int attempt = sale.AttemptOf(EntityKind::kInvoice, c.invoice_id);
          return Patch(sale, AttemptTag(sale.settings.lane, sale.id, attempt) + "/cancel", kCancelKind,
                       "/v2/invoice/" + c.invoice_id, Body(CancelChange()), 0);
        } else if constexpr (std::is_same_v<C, ReduceAmount>) {
          if (c.late_money) return std::nullopt;  // returning late money stays with the operator's flag
          const Money* line = sale.FindMoney(c.entity_id);
          const Cents back = line ? line->net() - c.new_amount : 0;
          const std::string key = AttemptTag(sale.settings.lane, sale.id, sale.AttemptOf(c.kind, c.entity_id)) +
                                  "/reverse-" + Name(c.kind) + "-to-" + std::to_string(c.new_amount);
          const std::string kind = std::string(Name(c.kind)) + kReverseSuffix;
          switch (c.kind) {
            case EntityKind::kPurchase:
              return Patch(sale, key, kind, "/v2/merchant-purchase/" + c.entity_id, Body(PurchaseChange(c)), back);
            case EntityKind::kDeposit:
              return Patch(sale, key, kind, "/v2/deposit/" + c.entity_id, Body(DepositChange(c)), back);
            case EntityKind::kInvoice:
              return Patch(sale, key, kind, "/v2/invoice/" + c.entity_id, Body(InvoiceChange(c)), back);
            default:
              return std::nullopt;
          }
        } else {
          return std::nullopt;
        }
      },
      call);
}

Queued QueuedEvent(const BankCall& call, const std::string& key, UnixMicros now) {
  if (const auto* create = std::get_if<CreateInvoice>(&call))
    return Queued{Call::kCreateInvoice, create->attempt, key, now};
  if (const auto* find = std::get_if<FindByTag>(&call)) return Queued{Call::kCreateInvoice, find->attempt, key, now};
  if (std::holds_alternative<CancelInvoice>(call)) return Queued{Call::kCancelInvoice, 0, key, now};
  return Queued{Call::kReversal, 0, key, now};
}

std::optional<Event> OutboxOutcome(const Sale& sale, const offline::OutboxItem& item, UnixMicros now) {
  const std::optional<Call> call = CallOf(item.request.kind);
  if (!call) return std::nullopt;
  switch (item.state) {
    case offline::OutboxState::kDone:
      break;
    case offline::OutboxState::kFailed:
      return CallFailed{*call, Failure::kRejected, item.bank_codes.empty() ? item.last_error : item.bank_codes, now};
    case offline::OutboxState::kDead:
      if (item.reached_bank) return std::nullopt;
      return CallFailed{
          *call, Failure::kNotSent,
          (item.dropped ? "dropped from the outbox: " : "gave up before reaching the bank: ") + item.last_error, now};
    default:
      return std::nullopt;
  }
  const json entity = EntityOf(item.response);
  if (*call == Call::kReversal) {
    // The entity's amount after the PATCH; the PATCH's absolute target when the answer lacks it.
    std::optional<Cents> amount = AmountIn(entity);
    if (!amount) amount = AmountIn(json::parse(item.request.body, nullptr, /*allow_exceptions=*/false));
    return Reversed{LastSegment(item.request.path), amount.value_or(0), now};
  }
  api::Invoice invoice;
  Status parsed = entity.is_object() ? api::ParseModel(entity.dump(), invoice)
                                     : InternalError("the outbox row holds no invoice in its answer");
  if (!parsed.ok()) return CallFailed{*call, Failure::kOutcomeUnknown, parsed.message(), now};
  if (*call == Call::kCancelInvoice) return InvoiceEvent(invoice, now);
  const std::string prefix = SaleTag(sale.settings.lane, sale.id) + "/a";
  const int attempt = item.request.key.rfind(prefix, 0) == 0 ? std::atoi(item.request.key.c_str() + prefix.size()) : 0;
  return InvoiceCreatedEvent(invoice, attempt, now);
}

std::string WaitedKey(const State& state) {
  return std::visit(
      [](const auto& st) -> std::string {
        if constexpr (requires { st.queued_key; }) {
          return st.queued_key;
        } else if constexpr (requires { st.cancel_operator; }) {
          return st.key;  // InvoiceQueued
        } else {
          return "";
        }
      },
      state);
}

}  // namespace balcao::checkout::internal
