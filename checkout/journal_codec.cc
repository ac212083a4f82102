// JSON text <-> checkout events. The one TU of the checkout that includes nlohmann/json.
// Each type lists its fields once (Fields overloads); one writer and one reader walk them.
#include "checkout/journal_codec.h"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace balcao::checkout {
namespace {

using nlohmann::json;

// A field added after journals were written: absent in old rows (read as empty), written only
// when set, so an old build's reader and old rows stay compatible.
struct Optional {};
inline constexpr Optional kOptional{};

// ---- the field lists (the only place that names the journal's keys) ----
template <typename V>
void Fields(V& v, InstallmentPolicy& p) {
  v("max_count", p.max_count);
  v("min_installment", p.min_installment);
}
template <typename V>
void Fields(V& v, Settings& s) {
  v("installments", s.installments);
  v("allow_credit", s.allow_credit);
  v("allow_debit", s.allow_debit);
  v("challenge_enabled", s.challenge_enabled);
  v("card_session_expiration_s", s.card_session_expiration_s);
  v("pix_expiration_s", s.pix_expiration_s);
  v("invoice_due_s", s.invoice_due_s);
  v("invoice_expiration_s", s.invoice_expiration_s);
  v("poll_interval_s", s.poll_interval_s);
  v("lookup_retry_s", s.lookup_retry_s);
  v("lane", s.lane, kOptional);
}
template <typename V>
void Fields(V& v, Customer& c) {
  v("name", c.name);
  v("tax_id", c.tax_id);
}
template <typename V>
void Fields(V& v, Start& e) {
  v("sale_id", e.sale_id);
  v("amount", e.amount);
  v("settings", e.settings);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, ChooseMethod& e) {
  v("method", e.method);
  v("customer", e.customer);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, SubmitCard& e) {
  v("card_ref", e.card_ref);
  v("card_mask", e.card_mask);
  v("funding", e.funding);
  v("installments", e.installments);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, Cancel& e) {
  v("operator_id", e.operator_id);
  v("reason", e.reason);
  v("at", e.at);
  v("approved_by", e.approved_by, kOptional);
}
template <typename V>
void Fields(V& v, Retry& e) {
  v("at", e.at);
}
template <typename V>
void Fields(V& v, FallbackToInvoice& e) {
  v("customer", e.customer);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, KeepOpen& e) {
  v("at", e.at);
}
template <typename V>
void Fields(V& v, PrintCode& e) {
  v("at", e.at);
}
template <typename V>
void Fields(V& v, Reverse& e) {
  v("amount", e.amount);
  v("operator_id", e.operator_id);
  v("reason", e.reason);
  v("at", e.at);
  v("approved_by", e.approved_by, kOptional);
}
template <typename V>
void Fields(V& v, ReturnLateMoney& e) {
  v("entity_id", e.entity_id);
  v("operator_id", e.operator_id);
  v("reason", e.reason);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, SessionCreated& e) {
  v("attempt", e.attempt);
  v("session_id", e.session_id);
  v("uuid", e.uuid);
  v("expires_at", e.expires_at);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, BrcodeCreated& e) {
  v("attempt", e.attempt);
  v("uuid", e.uuid);
  v("text", e.text);
  v("expires_at", e.expires_at);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, InvoiceCreated& e) {
  v("attempt", e.attempt);
  v("invoice_id", e.invoice_id);
  v("brcode", e.brcode);
  v("link", e.link);
  v("due", e.due);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, NothingFound& e) {
  v("kind", e.kind);
  v("attempt", e.attempt);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, CallFailed& e) {
  v("call", e.call);
  v("failure", e.failure);
  v("message", e.message);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, Reversed& e) {
  v("entity_id", e.entity_id);
  v("net_amount", e.net_amount);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, PurchaseSeen& e) {
  v("attempt", e.attempt);
  v("purchase_id", e.purchase_id);
  v("status", e.status);
  v("amount", e.amount);
  v("challenge_url", e.challenge_url);
  v("reason", e.reason);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, DepositSeen& e) {
  v("deposit_id", e.deposit_id);
  v("brcode_uuid", e.brcode_uuid);
  v("amount", e.amount);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, InvoiceSeen& e) {
  v("invoice_id", e.invoice_id);
  v("status", e.status);
  v("amount", e.amount);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, Queued& e) {
  v("call", e.call);
  v("attempt", e.attempt);
  v("key", e.key);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, CardHeldOffline& e) {
  v("card_mask", e.card_mask);
  v("funding", e.funding);
  v("installments", e.installments);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, CardForwarded& e) {
  v("approved", e.approved);
  v("purchase_id", e.purchase_id);
  v("amount", e.amount);
  v("reason", e.reason);
  v("at", e.at);
}
template <typename V>
void Fields(V& v, TimerFired& e) {
  v("timer", e.timer);
  v("at", e.at);
}

// ---- the walkers ----
struct Writer {
  json& out;
  template <typename T>
  void operator()(const char* key, T& value) {
    out[key] = Write(value);
  }
  void operator()(const char* key, std::string& value, Optional) {
    if (!value.empty()) out[key] = value;
  }

  template <typename T>
  static json Write(T& value) {
    if constexpr (std::is_enum_v<T>) {
      return Name(value);
    } else if constexpr (std::is_same_v<T, std::string> || std::is_arithmetic_v<T>) {
      return value;
    } else {
      json object = json::object();
      Writer w{object};
      Fields(w, value);
      return object;
    }
  }
};

struct Reader {
  const json& in;
  std::string path;
  Status status;

  void operator()(const char* key, std::string& value, Optional) {
    if (status.ok() && in.contains(key)) (*this)(key, value);
  }
  template <typename T>
  void operator()(const char* key, T& value) {
    if (!status.ok()) return;
    const std::string where = path + key;
    auto it = in.find(key);
    if (it == in.end()) {
      status = InvalidArgumentError(where + ": missing");
      return;
    }
    status = Read(*it, where, value);
  }

  template <typename T>
  static Status Read(const json& j, const std::string& where, T& value) {
    if constexpr (std::is_enum_v<T>) {
      if (!j.is_string() || !ParseName(j.get<std::string>(), value)) {
        return InvalidArgumentError(where + ": not a known value");
      }
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (!j.is_string()) return InvalidArgumentError(where + ": must be a string");
      value = j.get<std::string>();
    } else if constexpr (std::is_same_v<T, bool>) {
      if (!j.is_boolean()) return InvalidArgumentError(where + ": must be true or false");
      value = j.get<bool>();
    } else if constexpr (std::is_integral_v<T>) {
      if (!j.is_number_integer()) return InvalidArgumentError(where + ": must be an integer");
      if (j.is_number_unsigned() && j.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<T>::max())) {
        return InvalidArgumentError(where + ": out of range");
      }
      const std::int64_t n = j.get<std::int64_t>();
      if (n < std::numeric_limits<T>::min() || n > std::numeric_limits<T>::max()) {
        return InvalidArgumentError(where + ": out of range");
      }
      value = static_cast<T>(n);
    } else {
      if (!j.is_object()) return InvalidArgumentError(where + ": must be an object");
      Reader r{j, where + ".", OkStatus()};
      Fields(r, value);
      return r.status;
    }
    return OkStatus();
  }
};

template <std::size_t I = 0>
StatusOr<Event> ReadAlternative(const json& j, const std::string& type) {
  if constexpr (I == std::variant_size_v<Event>) {
    return InvalidArgumentError("type: unknown event type \"" + type + "\"");
  } else {
    using E = std::variant_alternative_t<I, Event>;
    if (type != E::kName) return ReadAlternative<I + 1>(j, type);
    E event;
    Reader r{j, "", OkStatus()};
    Fields(r, event);
    if (!r.status.ok()) return r.status;
    return Event{std::move(event)};
  }
}

}  // namespace

std::string EventToJson(const Event& event) {
  json out = json::object();
  std::visit(
      [&out](const auto& e) {
        using E = std::decay_t<decltype(e)>;
        out["type"] = E::kName;
        E copy = e;  // the walkers take mutable references; the writer never changes them
        Writer w{out};
        Fields(w, copy);
      },
      event);
  return out.dump();
}

StatusOr<Event> EventFromJson(std::string_view text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return InvalidArgumentError("event: not valid JSON");
  if (!j.is_object()) return InvalidArgumentError("event: must be a JSON object");
  auto type = j.find("type");
  if (type == j.end() || !type->is_string()) return InvalidArgumentError("type: missing");
  return ReadAlternative(j, type->get<std::string>());
}

Sale Replay(const std::vector<Event>& events) {
  Sale sale;
  for (const Event& event : events) {
    Step step = Next(sale, event);
    if (step.accepted()) sale = std::move(step.sale);
  }
  return sale;
}

}  // namespace balcao::checkout
