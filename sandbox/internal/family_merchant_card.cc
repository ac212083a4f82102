// Merchant cards (API documentation, part 2, "Merchant Card and Installment"; docs/wire.md,
// "Card acceptance"): created by approved session purchases (ending, BIN network,
// expiration at the end of its month in BRT, funding type, holder name), status active
// until that moment, then expired. Also the test card table and the purchase fields shared
// by both purchase routes (card.h).
#include <algorithm>
#include <cctype>
#include <cstdio>

#include "sandbox/internal/card.h"
#include "sandbox/internal/family.h"
#include "sandbox/internal/transition.h"

namespace balcao::sandbox::internal {

bool LuhnValid(std::string_view digits) {
  if (digits.size() < 12 || digits.size() > 19) return false;
  int sum = 0;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    const char c = digits[digits.size() - 1 - i];
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    int d = c - '0';
    if (i % 2 == 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 == 0;
}

std::string NetworkOf(std::string_view n) {
  auto starts = [&](std::string_view p) { return n.substr(0, p.size()) == p; };
  const int two = n.size() >= 2 ? std::stoi(std::string(n.substr(0, 2))) : 0;
  const int four = n.size() >= 4 ? std::stoi(std::string(n.substr(0, 4))) : 0;
  for (std::string_view elo : {"636368", "438935", "504175", "451416", "636297", "5067", "4576", "4011", "509"})
    if (starts(elo)) return "elo";
  if (starts("6062") || starts("3841")) return "hipercard";
  if (two == 34 || two == 37) return "amex";
  if (two == 36 || two == 38 || (four >= 3000 && four <= 3059)) return "diners";
  if (starts("6011") || two == 65) return "discover";
  if (starts("4")) return "visa";
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return "mastercard";
  return "unknown";
}

CardScenario ScenarioOf(std::string_view digits) {
  if (digits == "5500000000000004") return CardScenario::kChallenge;
  if (digits == "4000000000009995") return CardScenario::kInsufficientFunds;
  if (digits == "4000000000000069") return CardScenario::kExpiredCard;
  if (digits == "4000000000009979") return CardScenario::kStolenCard;
  if (digits == "4000000000000002") return CardScenario::kDeclined;
  if (digits == "4000000000000077") return CardScenario::kSlowIssuer;
  return CardScenario::kApprove;  // 4242424242424242, the SDK test cards, any valid number
}

std::optional<UnixMicros> CardExpirationEnd(std::string_view text) {
  if (text.size() != 7 || text[4] != '-') return std::nullopt;
  for (std::size_t i : {0, 1, 2, 3, 5, 6})
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
  int year = std::stoi(std::string(text.substr(0, 4))), month = std::stoi(std::string(text.substr(5, 2)));
  if (month < 1 || month > 12 || year < 2000) return std::nullopt;
  if (++month == 13) month = 1, ++year;
  char next[32];
  std::snprintf(next, sizeof next, "%04d-%02d-01", year, month);
  auto start = ParseTimestamp(next);
  if (!start.ok()) return std::nullopt;
  return FromSaoPauloWallClock(*start) - 1;  // midnight BRT, minus 1 µs
}

void ReadPurchaseFields(Reader& in, bool challenge, Json& doc) {
  const Need need = challenge ? Need::kRequired : Need::kOptional;
  for (const char* key : {"billingCity", "billingCountryCode", "billingStateCode", "billingStreetLine1",
                          "billingStreetLine2", "billingZipCode", "holderEmail", "holderPhone"}) {
    const std::string code = std::string("invalid") + static_cast<char>(std::toupper(key[0])) + (key + 1);
    // billingStreetLine2 may be empty (no complement); the others need text.
    const std::size_t min = std::string_view(key) == "billingStreetLine2" ? 0 : 1;
    doc[key] = in.String(key, need, code, min, 200).value_or("");
  }
  if (!doc["holderEmail"].get<std::string>().empty() &&
      doc["holderEmail"].get<std::string>().find('@') == std::string::npos)
    in.Fail("holderEmail", "invalidHolderEmail", "must be an e-mail address.", "deve ser um endereço de e-mail.");
  doc["holderId"] = in.String("holderId", Need::kOptional, "invalidHolderId", 0, 64).value_or("");
  doc["softDescriptor"] = in.String("softDescriptor", Need::kOptional, "invalidSoftDescriptor", 0, 22).value_or("");
  doc["metadata"] = Json::object();
  if (const Json* meta = in.Raw("metadata")) {
    if (!meta->is_object()) {
      in.Fail("metadata", "invalidMetadata", "must be an object.", "deve ser um objeto.");
    } else {
      doc["metadata"] = *meta;
    }
  } else if (challenge) {
    in.Fail("metadata", "invalidJson", "is required when challengeMode is enabled.",
            "é obrigatório quando challengeMode está habilitado.");
  }
  if (challenge && doc["metadata"].is_object() && !doc["metadata"].empty())
    for (const char* key : {"userAgent", "userIp", "language", "timezoneOffset"})
      if (!doc["metadata"].contains(key) || doc["metadata"][key].is_null())
        in.Fail("metadata", "invalidMetadata",
                std::string("must carry '") + key + "' when challengeMode is enabled (3-D Secure).",
                std::string("deve conter '") + key + "' quando challengeMode está habilitado (3-D Secure).");
  doc["tags"] = in.Tags();
}

std::optional<int> ReadInstallmentCount(Reader& in) {
  const Json* v = in.Raw("installmentCount");
  if (!v) return 1;
  std::int64_t n = -1;
  if (v->is_number_integer()) n = v->get<std::int64_t>();
  const std::string text = v->is_string() ? v->get<std::string>() : std::string();
  if (!text.empty() && text.size() <= 2 && std::all_of(text.begin(), text.end(), ::isdigit)) n = std::stoll(text);
  if (n < 1 || n > 12) {
    in.Fail("installmentCount", "invalidInstallmentCount", "must be an integer from 1 to 12.",
            "deve ser um inteiro de 1 a 12.");
    return std::nullopt;
  }
  return static_cast<int>(n);
}

Entity CreateMerchantCard(Context& ctx, const CardFacts& card, const Json& tags) {
  const UnixMicros end = *CardExpirationEnd(card.expiration);
  Entity e = ctx.Insert("merchant-card", {{"ending", card.ending},
                                          {"expiration", FormatTimestamp(end)},
                                          {"fundingType", card.funding_type},
                                          {"holderName", card.holder_name},
                                          {"network", card.network},
                                          {"status", "active"},
                                          {"tags", tags}});
  // What the issuer does on later purchases by cardId: a scenario, not card data.
  ctx.Insert("merchant-card:scenario",
             {{"id", e.id}, {"scenario", static_cast<int>(card.scenario)}, {"expiration", card.expiration}});
  ctx.AddLog(e, "active");
  ctx.Schedule(end, "merchant-card.expire", {{"id", e.id}});
  return e;
}

BALCAO_SANDBOX_FAMILY(merchant_card) {
  registry.Add({.resource = "merchant-card",
                .statuses = {"active", "expired", "canceled", "blocked"},
                .log_types = {"active", "expired", "canceled", "blocked"}});
  registry.AddJob("merchant-card.expire", MoveStatusJob("merchant-card", "active", "expired"));
}

}  // namespace balcao::sandbox::internal
