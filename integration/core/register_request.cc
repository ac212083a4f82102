#include "integration/core/register_request.h"

#include <array>
#include <nlohmann/json.hpp>

namespace balcao::integration {
namespace {

using nlohmann::json;

constexpr std::array kPayMethodNames{"ask", "card", "pix", "invoice"};
constexpr std::array kFundingNames{"any", "credit", "debit"};
constexpr std::array kResultNames{"approved",    "refused",     "aborted",   "busy",   "not-allowed",
                                  "unavailable", "in-progress", "not-found", "invalid"};

template <typename E, typename Names>
bool ParseIn(const Names& names, std::string_view text, E& out) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (text == names[i]) {
      out = static_cast<E>(i);
      return true;
    }
  }
  return false;
}

std::vector<std::string> Lines(const json& value) {
  std::vector<std::string> lines;
  if (value.is_array())
    for (const json& line : value)
      if (line.is_string()) lines.push_back(line.get<std::string>());
  return lines;
}

}  // namespace

const char* PayMethodName(PayMethod method) { return kPayMethodNames[static_cast<std::size_t>(method)]; }
bool ParsePayMethod(std::string_view text, PayMethod& out) { return ParseIn(kPayMethodNames, text, out); }
const char* ResultName(Result result) { return kResultNames[static_cast<std::size_t>(result)]; }
bool ParseResult(std::string_view text, Result& out) { return ParseIn(kResultNames, text, out); }

std::string OutcomeToJson(const PaymentOutcome& o) {
  const json value = {{"result", ResultName(o.result)},
                      {"reason", o.reason},
                      {"sale_id", o.sale_id},
                      {"time_ms", o.time_ms},
                      {"amount", o.amount},
                      {"method", PayMethodName(o.method)},
                      {"funding", kFundingNames[static_cast<std::size_t>(o.funding)]},
                      {"installments", o.installments},
                      {"card_mask", o.card_mask},
                      {"card_brand", o.card_brand},
                      {"authorization_code", o.authorization_code},
                      {"pix_end_to_end_id", o.pix_end_to_end_id},
                      {"institution_cnpj", o.institution_cnpj},
                      {"cashier_receipt", o.cashier_receipt},
                      {"customer_receipt", o.customer_receipt}};
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

StatusOr<PaymentOutcome> OutcomeFromJson(std::string_view text) {
  const json value = json::parse(text, nullptr, false);
  if (!value.is_object()) return InvalidArgumentError("outcome: not a JSON object");
  PaymentOutcome o;
  auto str = [&](const char* key) {
    auto it = value.find(key);
    return it != value.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  auto num = [&](const char* key) {
    auto it = value.find(key);
    return it != value.end() && it->is_number_integer() ? it->get<std::int64_t>() : std::int64_t{0};
  };
  if (!ParseResult(str("result"), o.result))
    return InvalidArgumentError("outcome.result: unknown '" + str("result") + "'");
  if (!ParsePayMethod(str("method"), o.method)) return InvalidArgumentError("outcome.method: unknown");
  if (!ParseIn(kFundingNames, str("funding"), o.funding)) return InvalidArgumentError("outcome.funding: unknown");
  o.reason = str("reason");
  o.sale_id = str("sale_id");
  o.time_ms = num("time_ms");
  o.amount = num("amount");
  o.installments = static_cast<int>(num("installments"));
  o.card_mask = str("card_mask");
  o.card_brand = str("card_brand");
  o.authorization_code = str("authorization_code");
  o.pix_end_to_end_id = str("pix_end_to_end_id");
  o.institution_cnpj = str("institution_cnpj");
  if (value.contains("cashier_receipt")) o.cashier_receipt = Lines(value["cashier_receipt"]);
  if (value.contains("customer_receipt")) o.customer_receipt = Lines(value["customer_receipt"]);
  return o;
}

}  // namespace balcao::integration
