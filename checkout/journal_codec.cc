// JSON text <-> checkout events. The one TU of the checkout that includes nlohmann/json.
// Each record lists its fields once (a FieldsOf table of keys and members); one writer and
// one reader walk the tables.
#include "checkout/journal_codec.h"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

namespace balcao::checkout {
namespace {

using nlohmann::json;

// The keys are spelled out rather than derived from the member names, so that renaming a
// member cannot change the journal's bytes. JSON objects sort their keys: a table's order is
// the struct's, for the reader of this file.

// A field every row of the record has.
template <typename T, typename M>
struct Key {
  const char* name;
  M T::*member;
};
// A text field added after journals were written: absent in old rows (read as empty), written
// only when set, so an old build's reader and old rows stay compatible.
template <typename T, typename M = std::string>
struct AddedKey {
  const char* name;
  M T::*member;
};

// A record whose fields sit among its holder's keys rather than under a key of its own.
template <typename T, typename R, typename Fields>
struct Flat {
  R T::*member;
  Fields fields;
};

// ---- the field tables (the only place that names the journal's keys) ----
constexpr auto FieldsOf(const InstallmentPolicy*) {
  return std::tuple{Key{"max_count", &InstallmentPolicy::max_count},
                    Key{"min_installment", &InstallmentPolicy::min_installment}};
}
constexpr auto FieldsOf(const Settings*) {
  return std::tuple{Key{"installments", &Settings::installments},
                    Key{"allow_credit", &Settings::allow_credit},
                    Key{"allow_debit", &Settings::allow_debit},
                    Key{"challenge_enabled", &Settings::challenge_enabled},
                    Key{"card_session_expiration_s", &Settings::card_session_expiration_s},
                    Key{"pix_expiration_s", &Settings::pix_expiration_s},
                    Key{"invoice_due_s", &Settings::invoice_due_s},
                    Key{"invoice_expiration_s", &Settings::invoice_expiration_s},
                    Key{"poll_interval_s", &Settings::poll_interval_s},
                    Key{"lookup_retry_s", &Settings::lookup_retry_s},
                    AddedKey{"lane", &Settings::lane}};
}
constexpr auto FieldsOf(const Customer*) {
  return std::tuple{Key{"name", &Customer::name}, Key{"tax_id", &Customer::tax_id}};
}
constexpr auto FieldsOf(const Start*) {
  return std::tuple{Key{"sale_id", &Start::sale_id}, Key{"amount", &Start::amount}, Key{"settings", &Start::settings},
                    Key{"at", &Start::at}};
}
constexpr auto FieldsOf(const ChooseMethod*) {
  return std::tuple{Key{"method", &ChooseMethod::method}, Key{"customer", &ChooseMethod::customer},
                    Key{"at", &ChooseMethod::at}};
}
constexpr auto FieldsOf(const SubmitCard*) {
  return std::tuple{Key{"card_ref", &SubmitCard::card_ref}, Key{"card_mask", &SubmitCard::card_mask},
                    Key{"funding", &SubmitCard::funding}, Key{"installments", &SubmitCard::installments},
                    Key{"at", &SubmitCard::at}};
}
constexpr auto FieldsOf(const Cancel*) {
  return std::tuple{Key{"operator_id", &Cancel::operator_id}, Key{"reason", &Cancel::reason}, Key{"at", &Cancel::at},
                    AddedKey{"approved_by", &Cancel::approved_by}};
}
constexpr auto FieldsOf(const Retry*) { return std::tuple{Key{"at", &Retry::at}}; }
constexpr auto FieldsOf(const FallbackToInvoice*) {
  return std::tuple{Key{"customer", &FallbackToInvoice::customer}, Key{"at", &FallbackToInvoice::at}};
}
constexpr auto FieldsOf(const KeepOpen*) { return std::tuple{Key{"at", &KeepOpen::at}}; }
constexpr auto FieldsOf(const PrintCode*) { return std::tuple{Key{"at", &PrintCode::at}}; }
constexpr auto FieldsOf(const Reverse*) {
  return std::tuple{Key{"amount", &Reverse::amount}, Key{"operator_id", &Reverse::operator_id},
                    Key{"reason", &Reverse::reason}, Key{"at", &Reverse::at},
                    AddedKey{"approved_by", &Reverse::approved_by}};
}
constexpr auto FieldsOf(const ReturnLateMoney*) {
  return std::tuple{Key{"entity_id", &ReturnLateMoney::entity_id}, Key{"operator_id", &ReturnLateMoney::operator_id},
                    Key{"reason", &ReturnLateMoney::reason}, Key{"at", &ReturnLateMoney::at}};
}
// The entity of a Created event, written flat beside its `attempt` and `at` (as the journal
// had it before the events carried the entity whole).
constexpr auto FlatFieldsOf(const CardSession*) {
  return std::tuple{Key{"session_id", &CardSession::id}, Key{"uuid", &CardSession::uuid},
                    Key{"expires_at", &CardSession::expires_at}};
}
constexpr auto FlatFieldsOf(const Brcode*) {
  return std::tuple{Key{"uuid", &Brcode::uuid}, Key{"text", &Brcode::text}, Key{"expires_at", &Brcode::expires_at}};
}
constexpr auto FlatFieldsOf(const InvoiceInfo*) {
  return std::tuple{Key{"invoice_id", &InvoiceInfo::id}, Key{"brcode", &InvoiceInfo::brcode},
                    Key{"link", &InvoiceInfo::link}, Key{"due", &InvoiceInfo::due}};
}
template <typename Entity>
constexpr auto FieldsOf(const Created<Entity>*) {
  using E = Created<Entity>;
  return std::tuple{Key{"attempt", &E::attempt}, Flat{&E::entity, FlatFieldsOf(static_cast<const Entity*>(nullptr))},
                    Key{"at", &E::at}};
}
constexpr auto FieldsOf(const NothingFound*) {
  return std::tuple{Key{"kind", &NothingFound::kind}, Key{"attempt", &NothingFound::attempt},
                    Key{"at", &NothingFound::at}};
}
constexpr auto FieldsOf(const CallFailed*) {
  return std::tuple{Key{"call", &CallFailed::call}, Key{"failure", &CallFailed::failure},
                    Key{"message", &CallFailed::message}, Key{"at", &CallFailed::at}};
}
constexpr auto FieldsOf(const Reversed*) {
  return std::tuple{Key{"entity_id", &Reversed::entity_id}, Key{"net_amount", &Reversed::net_amount},
                    Key{"at", &Reversed::at}};
}
constexpr auto FieldsOf(const PurchaseSeen*) {
  return std::tuple{Key{"attempt", &PurchaseSeen::attempt},
                    Key{"purchase_id", &PurchaseSeen::purchase_id},
                    Key{"status", &PurchaseSeen::status},
                    Key{"amount", &PurchaseSeen::amount},
                    Key{"challenge_url", &PurchaseSeen::challenge_url},
                    Key{"reason", &PurchaseSeen::reason},
                    Key{"at", &PurchaseSeen::at},
                    AddedKey{"card_mask", &PurchaseSeen::card_mask},
                    AddedKey{"card_network", &PurchaseSeen::card_network},
                    AddedKey<PurchaseSeen, int>{"installments", &PurchaseSeen::installments},
                    AddedKey<PurchaseSeen, FundingType>{"funding", &PurchaseSeen::funding}};
}
constexpr auto FieldsOf(const DepositSeen*) {
  return std::tuple{Key{"deposit_id", &DepositSeen::deposit_id}, Key{"brcode_uuid", &DepositSeen::brcode_uuid},
                    Key{"amount", &DepositSeen::amount}, Key{"at", &DepositSeen::at}};
}
constexpr auto FieldsOf(const InvoiceSeen*) {
  return std::tuple{Key{"invoice_id", &InvoiceSeen::invoice_id}, Key{"status", &InvoiceSeen::status},
                    Key{"amount", &InvoiceSeen::amount}, Key{"at", &InvoiceSeen::at}};
}
constexpr auto FieldsOf(const Queued*) {
  return std::tuple{Key{"call", &Queued::call}, Key{"attempt", &Queued::attempt}, Key{"key", &Queued::key},
                    Key{"at", &Queued::at}};
}
constexpr auto FieldsOf(const CardHeldOffline*) {
  return std::tuple{Key{"card_mask", &CardHeldOffline::card_mask}, Key{"funding", &CardHeldOffline::funding},
                    Key{"installments", &CardHeldOffline::installments}, Key{"at", &CardHeldOffline::at}};
}
constexpr auto FieldsOf(const CardForwarded*) {
  return std::tuple{Key{"approved", &CardForwarded::approved}, Key{"purchase_id", &CardForwarded::purchase_id},
                    Key{"amount", &CardForwarded::amount}, Key{"reason", &CardForwarded::reason},
                    Key{"at", &CardForwarded::at}};
}
constexpr auto FieldsOf(const TimerFired*) {
  return std::tuple{Key{"timer", &TimerFired::timer}, Key{"at", &TimerFired::at}};
}

// ---- the one writer and the one reader, for every record ----
struct Codec {
  template <typename T>
  static json Write(const T& value) {
    if constexpr (std::is_enum_v<T>) {
      return Name(value);
    } else if constexpr (std::is_same_v<T, std::string> || std::is_arithmetic_v<T>) {
      return value;
    } else {
      json object = json::object();
      std::apply([&](const auto&... key) { (WriteKey(object, value, key), ...); }, FieldsOf(&value));
      return object;
    }
  }
  template <typename T, typename M>
  static void WriteKey(json& out, const T& record, const Key<T, M>& key) {
    out[key.name] = Write(record.*key.member);
  }
  template <typename T, typename M>
  static void WriteKey(json& out, const T& record, const AddedKey<T, M>& key) {
    if (record.*key.member != M{}) out[key.name] = Write(record.*key.member);
  }
  template <typename T, typename R, typename Fields>
  static void WriteKey(json& out, const T& record, const Flat<T, R, Fields>& flat) {
    std::apply([&](const auto&... key) { (WriteKey(out, record.*flat.member, key), ...); }, flat.fields);
  }

  // `path` is where the record sits ("" for the event, "settings." inside it), for messages.
  template <typename T>
  static Status ReadRecord(const json& in, const std::string& path, T& record) {
    return ReadFields(in, path, record, FieldsOf(&record));
  }
  template <typename T, typename Fields>
  static Status ReadFields(const json& in, const std::string& path, T& record, const Fields& fields) {
    Status status;  // the first field in error ends the reading
    auto read_in_order = [&](const auto&... key) { return (... && (status = ReadKey(in, path, record, key)).ok()); };
    std::apply(read_in_order, fields);
    return status;
  }
  template <typename T, typename M>
  static Status ReadKey(const json& in, const std::string& path, T& record, const Key<T, M>& key) {
    auto it = in.find(key.name);
    if (it == in.end()) return InvalidArgumentError(path + key.name + ": missing");
    return Read(*it, path + key.name, record.*key.member);
  }
  template <typename T, typename M>
  static Status ReadKey(const json& in, const std::string& path, T& record, const AddedKey<T, M>& key) {
    if (!in.contains(key.name)) return OkStatus();
    return ReadKey(in, path, record, Key<T, M>{key.name, key.member});
  }
  template <typename T, typename R, typename Fields>
  static Status ReadKey(const json& in, const std::string& path, T& record, const Flat<T, R, Fields>& flat) {
    return ReadFields(in, path, record.*flat.member, flat.fields);
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
      return ReadRecord(j, where + ".", value);
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
    Status read = Codec::ReadRecord(j, "", event);
    if (!read.ok()) return read;
    return Event{std::move(event)};
  }
}

}  // namespace

std::string EventToJson(const Event& event) {
  json out;
  std::visit(
      [&out](const auto& e) {
        out = Codec::Write(e);
        out["type"] = std::decay_t<decltype(e)>::kName;
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
