// The JSON conversions of every model in api/models.h, generated from their field lists.
// Reading is tolerant where the bank is known to vary (numbers sent as strings, booleans
// as "True", "" or masked "***" timestamps meaning absent) and strict about types that
// cannot be meant (an object where an amount should be): that throws ModelError, which
// the caller (api/internal/operations.cc) turns into kInternal naming the field path.
#include <nlohmann/json.hpp>

#include "api/internal/model_codec.h"
#include "api/models.h"

namespace balcao::api {

StatusOr<Timestamp> Timestamp::Parse(std::string_view text) {
  auto micros = ParseTimestamp(text);
  if (!micros.ok()) return micros.status();
  return Timestamp{*micros, text.size() == 10};
}

Timestamp Timestamp::Date(int year, unsigned month, unsigned day) {
  return {DaysFromCivil(year, month, day) * 86400 * kMicrosPerSecond, true};
}

std::string Timestamp::ToString() const { return date_only ? FormatDate(micros) : FormatTimestamp(micros); }

namespace internal {
namespace {

using nlohmann::json;

[[noreturn]] void Fail(const char* expected, const json& j) {
  throw ModelError(std::string("expected ") + expected + ", got " + j.type_name());
}

void Read(const json& j, std::string& out) {
  if (j.is_string()) {
    out = j.get<std::string>();
  } else if (j.is_number_integer()) {  // e.g. pullRetryLimit: 3 where the seeds say STRING
    out = std::to_string(j.get<std::int64_t>());
  } else {
    Fail("a string", j);
  }
}

void Read(const json& j, std::int64_t& out) {
  if (j.is_number_integer()) {
    out = j.get<std::int64_t>();
  } else if (j.is_number_float() && j.get<double>() == static_cast<double>(static_cast<std::int64_t>(j.get<double>()))) {
    out = static_cast<std::int64_t>(j.get<double>());
  } else if (j.is_string()) {  // "installmentCount": "1"
    const auto& s = j.get_ref<const std::string&>();
    std::size_t pos = 0;
    try {
      out = std::stoll(s, &pos);
    } catch (const std::exception&) {
      pos = 0;
    }
    if (pos == 0 || pos != s.size()) Fail("an integer", j);
  } else {
    Fail("an integer", j);
  }
}

void Read(const json& j, double& out) {
  if (!j.is_number()) Fail("a number", j);
  out = j.get<double>();
}

void Read(const json& j, bool& out) {
  if (j.is_boolean()) {
    out = j.get<bool>();
  } else if (j.is_string() && (j == "true" || j == "True")) {
    out = true;
  } else if (j.is_string() && (j == "false" || j == "False")) {
    out = false;
  } else {
    Fail("a boolean", j);
  }
}

void Read(const json& j, RawJson& out) { out.text = j.dump(); }

void Read(const json& j, Timestamp& out) {
  if (!j.is_string()) Fail("a timestamp string", j);
  auto t = Timestamp::Parse(j.get_ref<const std::string&>());
  if (!t.ok()) throw ModelError(t.status().message());
  out = *t;
}

template <class T>
void Read(const json& j, T& out) {  // a nested model
  FromJson(j, out);
}

template <class T>
void Read(const json& j, std::vector<T>& out) {
  if (!j.is_array()) Fail("a list", j);
  out.resize(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) {
    try {
      Read(j[i], out[i]);
    } catch (const ModelError& e) {
      throw ModelError("[" + std::to_string(i) + "]" + (e.what()[0] == '.' || e.what()[0] == '[' ? "" : ": ") +
                       e.what());
    }
  }
}

// "" and masked values ("***") of a timestamp mean "not set" (the Python SDK's rule).
bool MeansAbsent(const json& j, const Timestamp*) {
  if (!j.is_string()) return false;
  const auto& s = j.get_ref<const std::string&>();
  return s.empty() || s.find('*') != std::string::npos;
}
template <class T>
bool MeansAbsent(const json&, const T*) {
  return false;
}

template <class T>
void ReadField(const json& j, const char* key, std::optional<T>& out) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null() || MeansAbsent(*it, static_cast<const T*>(nullptr))) return;
  try {
    Read(*it, out.emplace());
  } catch (const ModelError& e) {
    const char c = e.what()[0];
    throw ModelError(std::string(".") + key + (c == '.' || c == '[' ? "" : ": ") + e.what());
  }
}

json Write(const std::string& v) { return v; }
json Write(std::int64_t v) { return v; }
json Write(double v) { return v; }
json Write(bool v) { return v; }
json Write(const Timestamp& v) { return v.ToString(); }
json Write(const RawJson& v) {
  json j = json::parse(v.text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw ModelError(": not valid JSON text");
  return j;
}
template <class T>
json Write(const T& v) {
  json j;
  ToJson(v, j);
  return j;
}
template <class T>
json Write(const std::vector<T>& v) {
  json j = json::array();
  for (const auto& item : v) j.push_back(Write(item));
  return j;
}

template <class T>
void WriteField(json& j, const char* key, const std::optional<T>& v) {
  if (!v) return;  // absent fields are never sent, not even as null
  try {
    j[key] = Write(*v);
  } catch (const ModelError& e) {
    throw ModelError(std::string(".") + key + e.what());
  }
}

void RequireObject(const json& j) {
  if (!j.is_object()) Fail("an object", j);
}

}  // namespace
}  // namespace internal

#define BALCAO_READ_FIELD(type, member, key) internal::ReadField(j, key, out.member);
#define BALCAO_WRITE_FIELD(type, member, key) internal::WriteField(j, key, in.member);
#define BALCAO_MODEL_CODEC(Name, FIELDS)          \
  void FromJson(const nlohmann::json& j, Name& out) { \
    internal::RequireObject(j);                    \
    FIELDS(BALCAO_READ_FIELD)                      \
  }                                                \
  void ToJson(const Name& in, nlohmann::json& j) { \
    j = nlohmann::json::object();                  \
    FIELDS(BALCAO_WRITE_FIELD)                     \
  }

BALCAO_MODEL_CODEC(Rule, BALCAO_RULE_FIELDS)
BALCAO_MODEL_CODEC(Description, BALCAO_DESCRIPTION_FIELDS)
BALCAO_MODEL_CODEC(InvoiceDiscount, BALCAO_INVOICE_DISCOUNT_FIELDS)
BALCAO_MODEL_CODEC(BoletoDescription, BALCAO_BOLETO_DESCRIPTION_FIELDS)
BALCAO_MODEL_CODEC(BoletoDiscount, BALCAO_BOLETO_DISCOUNT_FIELDS)
BALCAO_MODEL_CODEC(SplitEntry, BALCAO_SPLIT_ENTRY_FIELDS)
BALCAO_MODEL_CODEC(AllowedInstallment, BALCAO_ALLOWED_INSTALLMENT_FIELDS)
BALCAO_MODEL_CODEC(PaymentAction, BALCAO_PAYMENT_ACTION_FIELDS)
BALCAO_MODEL_CODEC(Workspace, BALCAO_WORKSPACE_FIELDS)
BALCAO_MODEL_CODEC(Balance, BALCAO_BALANCE_FIELDS)
BALCAO_MODEL_CODEC(Transaction, BALCAO_TRANSACTION_FIELDS)
BALCAO_MODEL_CODEC(Invoice, BALCAO_INVOICE_FIELDS)
BALCAO_MODEL_CODEC(InvoicePayment, BALCAO_INVOICE_PAYMENT_FIELDS)
BALCAO_MODEL_CODEC(DynamicBrcode, BALCAO_DYNAMIC_BRCODE_FIELDS)
BALCAO_MODEL_CODEC(Deposit, BALCAO_DEPOSIT_FIELDS)
BALCAO_MODEL_CODEC(Boleto, BALCAO_BOLETO_FIELDS)
BALCAO_MODEL_CODEC(BoletoHolmes, BALCAO_BOLETO_HOLMES_FIELDS)
BALCAO_MODEL_CODEC(Split, BALCAO_SPLIT_FIELDS)
BALCAO_MODEL_CODEC(SplitReceiver, BALCAO_SPLIT_RECEIVER_FIELDS)
BALCAO_MODEL_CODEC(SplitProfile, BALCAO_SPLIT_PROFILE_FIELDS)
BALCAO_MODEL_CODEC(InvoicePullSubscription, BALCAO_INVOICE_PULL_SUBSCRIPTION_FIELDS)
BALCAO_MODEL_CODEC(InvoicePullRequest, BALCAO_INVOICE_PULL_REQUEST_FIELDS)
BALCAO_MODEL_CODEC(MerchantSession, BALCAO_MERCHANT_SESSION_FIELDS)
BALCAO_MODEL_CODEC(MerchantPurchase, BALCAO_MERCHANT_PURCHASE_FIELDS)
BALCAO_MODEL_CODEC(MerchantCard, BALCAO_MERCHANT_CARD_FIELDS)
BALCAO_MODEL_CODEC(MerchantInstallment, BALCAO_MERCHANT_INSTALLMENT_FIELDS)
BALCAO_MODEL_CODEC(Transfer, BALCAO_TRANSFER_FIELDS)
BALCAO_MODEL_CODEC(BrcodePayment, BALCAO_BRCODE_PAYMENT_FIELDS)
BALCAO_MODEL_CODEC(BoletoPayment, BALCAO_BAR_CODE_PAYMENT_FIELDS)
BALCAO_MODEL_CODEC(UtilityPayment, BALCAO_BAR_CODE_PAYMENT_FIELDS)
BALCAO_MODEL_CODEC(TaxPayment, BALCAO_BAR_CODE_PAYMENT_FIELDS)
BALCAO_MODEL_CODEC(DarfPayment, BALCAO_DARF_PAYMENT_FIELDS)
BALCAO_MODEL_CODEC(PaymentPreview, BALCAO_PAYMENT_PREVIEW_FIELDS)
BALCAO_MODEL_CODEC(PaymentRequest, BALCAO_PAYMENT_REQUEST_FIELDS)
BALCAO_MODEL_CODEC(PublicKeyEntry, BALCAO_PUBLIC_KEY_ENTRY_FIELDS)
BALCAO_MODEL_CODEC(Webhook, BALCAO_WEBHOOK_FIELDS)
BALCAO_MODEL_CODEC(BankEvent, BALCAO_EVENT_FIELDS)
BALCAO_MODEL_CODEC(EventAttempt, BALCAO_EVENT_ATTEMPT_FIELDS)
BALCAO_MODEL_CODEC(LogHeader, BALCAO_LOG_HEADER_FIELDS)

}  // namespace balcao::api
