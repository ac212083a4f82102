// The JSON conversions of every model in api/models.h, generated from their field lists.
// Reading streams through JsonReader (no DOM); writing builds a nlohmann value.
// Reading is tolerant where the bank is known to vary (numbers sent as strings, booleans
// as "True", "" or masked "***" timestamps meaning absent) and strict about types that
// cannot be meant (an object where an amount should be): that throws ModelError, which
// the caller (api/internal/operations.cc) turns into kInternal naming the field path.
#include <cmath>
#include <nlohmann/json.hpp>

#include "api/internal/json_reader.h"
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

// ---- Reading (streaming, from the bank's answers) ----

void Read(JsonReader& r, std::string& out) {
  if (r.Peek() == '0') {  // e.g. pullRetryLimit: 3 where the API documentation says STRING
    bool is_integer;
    std::int64_t n;
    double d;
    r.ReadNumber(is_integer, n, d);
    if (!is_integer) throw ModelError("expected a string, got a number");
    out = std::to_string(n);
    return;
  }
  if (r.Peek() != '"') throw ModelError("expected a string");
  r.ReadString(out);
}

void Read(JsonReader& r, std::int64_t& out) {
  if (r.Peek() == '"') {  // "installmentCount": "1"
    std::string s;
    r.ReadString(s);
    std::size_t pos = 0;
    try {
      out = std::stoll(s, &pos);
    } catch (const std::exception&) {
      pos = 0;
    }
    if (pos == 0 || pos != s.size()) throw ModelError("expected an integer, got \"" + s.substr(0, 32) + "\"");
    return;
  }
  if (r.Peek() != '0') throw ModelError("expected an integer");
  bool is_integer;
  double d;
  r.ReadNumber(is_integer, out, d);
  if (!is_integer) {  // 1.0e3 is an integer; 1.5 and 1e20 are not
    if (!(d >= -9.2e18 && d <= 9.2e18) || d != std::trunc(d)) throw ModelError("expected an integer");
    out = static_cast<std::int64_t>(d);
  }
}

void Read(JsonReader& r, double& out) {
  if (r.Peek() != '0') throw ModelError("expected a number");
  bool is_integer;
  std::int64_t n;
  r.ReadNumber(is_integer, n, out);
}

void Read(JsonReader& r, bool& out) {
  const char k = r.Peek();
  if (k == 't' || k == 'f') {
    out = r.ReadBool();
    return;
  }
  if (k != '"') throw ModelError("expected a boolean");
  std::string s;
  r.ReadString(s);  // Python's str(bool)
  if (s == "true" || s == "True")
    out = true;
  else if (s == "false" || s == "False")
    out = false;
  else
    throw ModelError("expected a boolean, got \"" + s.substr(0, 32) + "\"");
}

void Read(JsonReader& r, RawJson& out) {
  // Normalised to compact JSON (the text of the answer may carry any spacing).
  const std::string_view raw = r.CaptureValue();
  out.text = json::parse(raw.begin(), raw.end(), nullptr, false).dump(-1, ' ', false, json::error_handler_t::replace);
}

// false: "" or a masked value ("***"), which mean "not set" (the Python SDK's rule).
bool ReadTimestamp(JsonReader& r, Timestamp& out) {
  if (r.Peek() != '"') throw ModelError("expected a timestamp string");
  std::string s;
  r.ReadString(s);
  if (s.empty() || s.find('*') != std::string::npos) return false;
  auto t = Timestamp::Parse(s);
  if (!t.ok()) throw ModelError(t.status().message());
  out = *t;
  return true;
}

template <class T>
void Read(JsonReader& r, T& out) {  // a nested model
  ReadModel(r, out);
}

[[noreturn]] void Rethrow(const std::string& prefix, const ModelError& e) {
  const char c = e.what()[0];
  throw ModelError(prefix + (c == '.' || c == '[' ? "" : ": ") + e.what());
}

template <class T>
void Read(JsonReader& r, std::vector<T>& out) {
  if (r.Peek() != '[') throw ModelError("expected a list");
  r.BeginArray();
  out.clear();
  while (r.NextElement()) {
    try {
      Read(r, out.emplace_back());
    } catch (const ModelError& e) {
      Rethrow("[" + std::to_string(out.size() - 1) + "]", e);
    }
  }
}

template <class T>
void ReadField(JsonReader& r, const char* key, std::optional<T>& out) {
  try {
    if (r.TryNull()) {
      out.reset();
    } else if constexpr (std::is_same_v<T, Timestamp>) {
      if (!ReadTimestamp(r, out.emplace())) out.reset();
    } else {
      Read(r, out.emplace());
    }
  } catch (const ModelError& e) {
    Rethrow(std::string(".") + key, e);
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

// An object's members into a model; unknown members are skipped.
template <class T>
void ReadObject(JsonReader& r, T& out) {
  if (r.Peek() != '{') throw ModelError("expected an object");
  r.BeginObject();
  std::string key;
  while (r.NextKey(key))
    if (!ReadMember(r, key, out)) r.SkipValue();
}

template <class T>
Status ParseText(std::string_view text, T& out) {
  try {
    JsonReader r(text);
    out = T{};
    ReadObject(r, out);
    r.ExpectEnd();
    return OkStatus();
  } catch (const ModelError& e) {
    return InvalidArgumentError(std::string("invalid JSON") + (e.what()[0] == '.' ? "" : ": ") + e.what());
  }
}

template <class T>
std::string WriteText(const T& in) {
  json j;
  ToJson(in, j);
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}
}  // namespace
}  // namespace internal

#define BALCAO_READ_MEMBER(type, member, k) \
  if (key == k) {                           \
    internal::ReadField(r, k, out.member);  \
    return true;                            \
  }
#define BALCAO_WRITE_FIELD(type, member, key) internal::WriteField(j, key, in.member);
#define BALCAO_MODEL_CODEC(Name, FIELDS)                                                         \
  bool ReadMember(internal::JsonReader& r, std::string_view key, Name& out) {                    \
    FIELDS(BALCAO_READ_MEMBER)                                                                   \
    return false;                                                                                \
  }                                                                                              \
  void ReadModel(internal::JsonReader& r, Name& out) { internal::ReadObject(r, out); }           \
  Status ParseModel(std::string_view text, Name& out) { return internal::ParseText(text, out); } \
  std::string ToJsonText(const Name& in) { return internal::WriteText(in); }                     \
  void ToJson(const Name& in, nlohmann::json& j) {                                               \
    j = nlohmann::json::object();                                                                \
    FIELDS(BALCAO_WRITE_FIELD)                                                                   \
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
