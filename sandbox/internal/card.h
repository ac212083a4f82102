// Card acquiring shared by the merchant-* families (API documentation, part 2, "Merchant
// Session" and "Merchant Purchase"; docs/wire.md, "Card acceptance"): the test card table,
// the purchase fields both purchase routes validate, and the issuer decision that stores a
// purchase with its card, installments, logs and confirmation. Card numbers and security
// codes never leave the request handler: only the last four digits, the BIN-derived network
// and the expiration month are kept. Thread-safety: as Context.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "sandbox/internal/engine.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {

// What the sandbox issuer does with a card (docs/sandbox.md "Test cards").
enum class CardScenario {
  kApprove,            // approved, confirmed 30 s of sandbox time later
  kChallenge,          // 3-D Secure challenge when challengeMode is enabled
  kInsufficientFunds,  // denied: insufficientFunds
  kExpiredCard,        // denied: expiredCard
  kStolenCard,         // denied: stolenCard
  kDeclined,           // denied: cardDeclined
  kSlowIssuer,         // stays "created"; the issuer answers (approved) 20 s later
};

// Card facts a purchase may keep (nothing sensitive).
struct CardFacts {
  std::string ending;      // last 4 digits
  std::string network;     // visa, mastercard, elo, amex, diners, hipercard, discover
  std::string expiration;  // "YYYY-MM"
  std::string holder_name;
  std::string funding_type;  // credit | debit
  CardScenario scenario = CardScenario::kApprove;
  std::string card_id;  // the saved merchant-card, when charged by cardId
};

inline constexpr UnixMicros kConfirmDelay = 30 * kMicrosPerSecond;
inline constexpr UnixMicros kSlowIssuerDelay = 20 * kMicrosPerSecond;
inline constexpr UnixMicros kChallengeTimeout = 15 * 60 * kMicrosPerSecond;

bool LuhnValid(std::string_view digits);
std::string NetworkOf(std::string_view digits);
CardScenario ScenarioOf(std::string_view digits);
// "2035-01" -> the last microsecond of January 2035 in BRT (2035-02-01T02:59:59.999999Z);
// nullopt when not YYYY-MM.
std::optional<UnixMicros> CardExpirationEnd(std::string_view yyyy_mm);

// Reads billing*, holderEmail, holderPhone, holderId, softDescriptor, metadata and tags into
// `doc`; billing/holder contact fields and the metadata keys userAgent, userIp, language,
// timezoneOffset are required when the challenge mode is enabled.
void ReadPurchaseFields(Reader& in, bool challenge_enabled, Json& doc);
// installmentCount: integer or digit string, 1..12, default 1.
std::optional<int> ReadInstallmentCount(Reader& in);

// Stores the purchase `doc` (amount, installmentCount, fundingType, holder/billing fields,
// challengeMode, source, tags already set) and runs the issuer decision for `card`.
// `session_id` names the merchant-session it came from (empty for saved-card purchases).
Json DecidePurchase(Context& ctx, Json doc, const CardFacts& card, const std::string& session_id);

// Implemented by family_merchant_card.cc / family_merchant_installment.cc.
Entity CreateMerchantCard(Context& ctx, const CardFacts& card, const Json& tags);
void CreateInstallments(Context& ctx, const Entity& purchase);
// Moves every installment of `purchase_id` still "created" to `status` (canceled, voided),
// or rescales their amounts to `new_total` when status is "updated".
void UpdateInstallments(Context& ctx, const std::string& purchase_id, const std::string& status,
                        std::int64_t new_total);

}  // namespace balcao::sandbox::internal
