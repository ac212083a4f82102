// Merchant sessions (API documentation, part 2, "Merchant Session"; docs/wire.md, "Card
// acceptance"): unwrapped create (allowedFundingTypes, allowedInstallments
// [{totalAmount,count}], expiration, challengeMode, allowedIps, tags), a 32-hex uuid,
// status active -> expired on the sandbox clock, or -> success once a purchase is approved;
// and POST /v2/merchant-session/{uuid}/purchase, which validates the card (Luhn, YYYY-MM in
// the future), the installment option and the 3-D Secure fields.
#include <algorithm>
#include <cctype>

#include "sandbox/internal/card.h"
#include "sandbox/internal/family.h"
#include "sandbox/internal/transition.h"

namespace balcao::sandbox::internal {
namespace {

Json CreateSession(Context& ctx, const Json& body, Problems& problems) {
  Reader in(body, problems);
  auto funding = in.StringList("allowedFundingTypes", Need::kRequired, "invalidAllowedFundingTypes");
  if (funding && (funding->empty() || !std::all_of(funding->begin(), funding->end(),
                                                   [](const std::string& f) { return f == "credit" || f == "debit"; })))
    in.Fail("allowedFundingTypes", "invalidAllowedFundingTypes", "must list credit and/or debit.",
            "deve listar credit e/ou debit.");
  Json installments = Json::array();
  if (const Json* list = in.ObjectList("allowedInstallments", Need::kRequired, 12, "invalidAllowedInstallments")) {
    for (const auto& item : *list) {
      Problems local;
      Reader ir(item, local, "allowedInstallments[]");
      auto total = ir.Int("totalAmount", Need::kRequired, 1, 100'000'000'000, "invalidAllowedInstallments");
      auto count = ir.Int("count", Need::kRequired, 1, 12, "invalidAllowedInstallments");
      ir.RejectUnknown();
      problems.insert(problems.end(), local.begin(), local.end());
      if (!local.empty()) break;
      installments.push_back({{"count", *count}, {"totalAmount", *total}});
    }
    if (list->empty())
      in.Fail("allowedInstallments", "invalidAllowedInstallments", "must hold at least one option.",
              "deve ter ao menos uma opção.");
  }
  auto expiration = in.Int("expiration", Need::kRequired, 1, 30LL * 86400, "invalidExpiration");
  auto mode = in.Enum("challengeMode", Need::kOptional, {"enabled", "disabled"}, "invalidChallengeMode");
  auto ips = in.StringList("allowedIps", Need::kOptional, "invalidAllowedIps");
  auto holder = in.String("holderId", Need::kOptional, "invalidHolderId", 0, 64);
  auto descriptor = in.String("softDescriptor", Need::kOptional, "invalidSoftDescriptor", 0, 22);
  auto tags = in.Tags();
  in.RejectUnknown();
  if (!problems.empty()) return nullptr;
  Entity e = ctx.Insert("merchant-session", {{"uuid", ctx.NewUuid()},
                                             {"status", "active"},
                                             {"allowedFundingTypes", *funding},
                                             {"allowedInstallments", installments},
                                             {"allowedIps", ips.value_or(std::vector<std::string>{})},
                                             {"challengeMode", mode.value_or("enabled")},
                                             {"expiration", *expiration},
                                             {"holderId", holder.value_or("")},
                                             {"softDescriptor", descriptor.value_or("")},
                                             {"tags", tags}});
  ctx.AddLog(e, "created");
  ctx.Schedule(e.created + *expiration * kMicrosPerSecond, "merchant-session.expire", {{"id", e.id}});
  return e.doc;
}

std::string CardNumberDigits(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '-') out += c;
  return out;
}

// POST /v2/merchant-session/{uuid}/purchase
Json SessionPurchase(Context& ctx, Entity& session, const Json& body, Problems& problems) {
  const bool challenge = session.doc["challengeMode"] == "enabled";
  Reader in(body, problems);
  Json doc = Json::object();
  auto amount = in.Int("amount", Need::kRequired, 0, 100'000'000'000, "invalidAmount");
  auto count = ReadInstallmentCount(in);
  auto expiration = in.String("cardExpiration", Need::kRequired, "invalidCardExpiration", 7, 7);
  auto number = in.String("cardNumber", Need::kRequired, "invalidCardNumber", 12, 23);
  auto cvv = in.String("cardSecurityCode", Need::kRequired, "invalidCardSecurityCode", 3, 4);
  auto funding = in.Enum("fundingType", Need::kRequired, {"credit", "debit"}, "invalidFundingType");
  auto holder = in.String("holderName", Need::kRequired, "invalidHolderName", 2, 100);
  in.Raw("cardId");  // the Node SDK's whitelist includes it; a session purchase uses the number
  ReadPurchaseFields(in, challenge, doc);
  in.RejectUnknown();
  const std::string digits = number ? CardNumberDigits(*number) : "";
  if (number && !LuhnValid(digits))
    in.Fail("cardNumber", "invalidCardNumber", "is not a valid card number (length or check digit).",
            "não é um número de cartão válido (tamanho ou dígito verificador).");
  if (cvv && !std::all_of(cvv->begin(), cvv->end(), ::isdigit))
    in.Fail("cardSecurityCode", "invalidCardSecurityCode", "must be 3 or 4 digits.", "deve ter 3 ou 4 dígitos.");
  if (expiration) {
    auto end = CardExpirationEnd(*expiration);
    if (!end)
      in.Fail("cardExpiration", "invalidCardExpiration", "must be YYYY-MM.", "deve ser AAAA-MM.");
    else if (*end < ctx.Now())
      in.Fail("cardExpiration", "invalidCardExpiration", "is in the past.", "está no passado.");
  }
  const Json& allowed_funding = session.doc["allowedFundingTypes"];
  if (funding && std::find(allowed_funding.begin(), allowed_funding.end(), Json(*funding)) == allowed_funding.end())
    in.Fail("fundingType", "invalidFundingType", "is not allowed by this session.", "não é permitido nesta sessão.");
  if (amount && count) {
    const Json& options = session.doc["allowedInstallments"];
    const bool match = std::any_of(options.begin(), options.end(), [&](const Json& o) {
      return o["totalAmount"].get<std::int64_t>() == *amount && o["count"].get<int>() == *count;
    });
    if (!match)
      in.Fail("amount", "invalidAmount", "and installmentCount must match one of the session's allowedInstallments.",
              "e installmentCount devem corresponder a uma das opções allowedInstallments da sessão.");
  }
  const Json& ips = session.doc["allowedIps"];
  if (!ips.empty()) {
    const Json ip = doc["metadata"].value("userIp", Json());
    if (std::find(ips.begin(), ips.end(), ip) == ips.end())
      in.Fail("metadata", "invalidUserIp", "userIp is not in the session's allowedIps.",
              "userIp não está em allowedIps da sessão.");
  }
  if (!problems.empty()) return nullptr;
  const UnixMicros expires = session.created + session.doc["expiration"].get<std::int64_t>() * kMicrosPerSecond;
  if (session.status() != "active" || ctx.Now() > expires) {
    problems.push_back(MakeProblem("invalidSession",
                                   "Session " + session.doc["uuid"].get<std::string>() + " is " +
                                       (session.status() == "active" ? "expired" : session.status()) +
                                       ": it accepts no more purchases.",
                                   "A sessão " + session.doc["uuid"].get<std::string>() + " não aceita mais compras."));
    return nullptr;
  }
  CardFacts card{
      digits.substr(digits.size() - 4), NetworkOf(digits), *expiration, *holder, *funding, ScenarioOf(digits), ""};
  doc.update({{"amount", *amount},
              {"installmentCount", *count},
              {"fundingType", *funding},
              {"holderName", *holder},
              {"challengeMode", session.doc["challengeMode"]},
              {"source", "merchant-session/" + session.id}});
  if (doc["tags"].empty()) doc["tags"] = session.doc["tags"];
  // A purchase made through a session belongs to the session's holder unless it names one.
  if (doc["holderId"] == "") doc["holderId"] = session.doc.value("holderId", "");
  return DecidePurchase(ctx, std::move(doc), card, session.id);
}

}  // namespace

BALCAO_SANDBOX_FAMILY(merchant_session) {
  registry.Add({.resource = "merchant-session",
                .statuses = {"active", "expired", "success"},
                .log_types = {"created", "expired", "success"},
                .create = CreateSession,
                .sub_post = SessionPurchase});
  registry.AddJob("merchant-session.expire", MoveStatusJob("merchant-session", "active", "expired"));
}

}  // namespace balcao::sandbox::internal
