// Merchant purchases (API documentation, part 2, "Merchant Purchase"; docs/wire.md, "Card
// acceptance"): the issuer decision by test card (approved, denied with a reason, pending
// behind a 3-D Secure challenge, slow issuer), confirmation 30 s of sandbox time after
// approval (ledger credit), PATCH cancel of an approved purchase (amount 0) and partial /
// full reversal of a confirmed one (ledger debit; full reversal -> voided), direct
// purchases by a saved cardId, and the challenge simulation POST
// /sandbox/challenge/pass|fail {"id"}.
#include "sandbox/internal/card.h"
#include "sandbox/internal/engine_core.h"
#include "sandbox/internal/family.h"

namespace balcao::sandbox::internal {
namespace {

// Card facts of a purchase still waiting for the issuer or the challenge (not card data).
constexpr const char* kPending = "merchant-purchase:pending";

Json FactsJson(const CardFacts& c, const std::string& session_id) {
  return {{"ending", c.ending},          {"network", c.network},          {"expiration", c.expiration},
          {"holderName", c.holder_name}, {"fundingType", c.funding_type}, {"scenario", static_cast<int>(c.scenario)},
          {"cardId", c.card_id},         {"sessionId", session_id}};
}

CardFacts FactsOf(const Json& j) {
  CardFacts c;
  c.ending = j["ending"].get<std::string>();
  c.network = j["network"].get<std::string>();
  c.expiration = j["expiration"].get<std::string>();
  c.holder_name = j["holderName"].get<std::string>();
  c.funding_type = j["fundingType"].get<std::string>();
  c.scenario = static_cast<CardScenario>(j["scenario"].get<int>());
  c.card_id = j["cardId"].get<std::string>();
  return c;
}

std::string EndToEndUuid(Context& ctx) {
  std::string u = ctx.NewUuid();
  return u.substr(0, 8) + "-" + u.substr(8, 4) + "-" + u.substr(12, 4) + "-" + u.substr(16, 4) + "-" + u.substr(20);
}

void Approve(Context& ctx, Entity& e, const CardFacts& card, const std::string& session_id) {
  if (e.doc["cardId"].get<std::string>().empty()) {
    Entity saved = CreateMerchantCard(ctx, card, e.doc["tags"]);
    e.doc["cardId"] = saved.id;
  }
  e.doc["status"] = "approved";
  e.doc["challengeUrl"] = "";
  ctx.Save(e);
  CreateInstallments(ctx, e);
  ctx.AddLog(e, "approved", {{"description", "Purchase approved."}});
  ctx.Schedule(ctx.Now() + kConfirmDelay, "merchant-purchase.confirm", {{"id", e.id}});
  if (session_id.empty()) return;
  if (auto session = ctx.Find("merchant-session", session_id); session && session->status() == "active") {
    session->doc["status"] = "success";
    ctx.Save(*session);
    ctx.AddLog(*session, "success");
  }
}

void Deny(Context& ctx, Entity& e, const std::string& code, const std::string& en) {
  e.doc["status"] = "denied";
  e.doc["challengeUrl"] = "";
  ctx.Save(e);
  ctx.AddLog(e, "denied", {{"description", en}, {"errors", Json::array({{{"code", code}, {"message", en}}})}});
}

// The decision once the issuer answers (immediately, after a delay, or after a challenge).
void Decide(Context& ctx, Entity& e, const CardFacts& card, const std::string& session_id) {
  switch (card.scenario) {
    case CardScenario::kInsufficientFunds:
      return Deny(ctx, e, "insufficientFunds", "Denied by the issuer: insufficient funds.");
    case CardScenario::kExpiredCard:
      return Deny(ctx, e, "expiredCard", "Denied by the issuer: the card has expired.");
    case CardScenario::kStolenCard:
      return Deny(ctx, e, "stolenCard", "Denied by the issuer: the card was reported stolen.");
    case CardScenario::kDeclined:
      return Deny(ctx, e, "cardDeclined", "Denied by the issuer.");
    default:
      return Approve(ctx, e, card, session_id);
  }
}

void ResumePending(Context& ctx, const std::string& id, const char* outcome) {
  auto e = ctx.Find("merchant-purchase", id);
  auto pending = ctx.Find(kPending, id);
  if (!e || !pending) return;
  const CardFacts card = FactsOf(pending->doc);
  const std::string session_id = pending->doc["sessionId"].get<std::string>();
  ctx.Remove(*pending);
  if (std::string_view(outcome) == "issuer") return Decide(ctx, *e, card, session_id);
  if (std::string_view(outcome) == "pass") return Approve(ctx, *e, card, session_id);
  if (std::string_view(outcome) == "fail")
    return Deny(ctx, *e, "challengeFailed", "Denied: the card holder failed the 3-D Secure challenge.");
  Deny(ctx, *e, "challengeExpired", "Denied: the 3-D Secure challenge was not completed in time.");
}

}  // namespace

Json DecidePurchase(Context& ctx, Json doc, const CardFacts& card, const std::string& session_id) {
  doc.update({{"cardEnding", card.ending},
              {"cardId", card.card_id},
              {"network", card.network},
              {"currencyCode", "BRL"},
              {"endToEndId", EndToEndUuid(ctx)},
              {"fee", ctx.engine().Fee("merchant-purchase")},
              {"status", "created"},
              {"challengeUrl", ""},
              {"transactionIds", Json::array()}});
  Entity e = ctx.Insert("merchant-purchase", std::move(doc));
  const bool challenge = card.scenario == CardScenario::kChallenge && e.doc["challengeMode"] == "enabled";
  if (challenge || card.scenario == CardScenario::kSlowIssuer) {
    Json facts = FactsJson(card, session_id);
    facts["id"] = e.id;
    ctx.Insert(kPending, std::move(facts));
    if (challenge) {
      e.doc["status"] = "pending";
      e.doc["challengeUrl"] = ctx.public_base_url() + "/sandbox/challenge/" + e.id;
      ctx.Save(e);
      ctx.AddLog(e, "pending", {{"description", "Waiting for the 3-D Secure challenge."}});
      ctx.Schedule(ctx.Now() + kChallengeTimeout, "merchant-purchase.challenge-timeout", {{"id", e.id}});
    } else {
      ctx.AddLog(e, "created", {{"description", "Waiting for the issuer."}});
      ctx.Schedule(ctx.Now() + kSlowIssuerDelay, "merchant-purchase.issuer", {{"id", e.id}});
    }
    return e.doc;
  }
  Decide(ctx, e, card, session_id);
  return e.doc;
}

namespace {

// POST /v2/merchant-purchase: charges a card saved by an earlier approved session purchase.
Json CreateDirect(Context& ctx, const Json& body, Problems& problems) {
  Reader in(body, problems);
  Json doc = Json::object();
  auto amount = in.Int("amount", Need::kRequired, 1, 100'000'000'000, "invalidAmount");
  auto card_id = in.String("cardId", Need::kRequired, "invalidCardId", 1, 64);
  auto funding = in.Enum("fundingType", Need::kRequired, {"credit", "debit"}, "invalidFundingType");
  auto mode = in.Enum("challengeMode", Need::kOptional, {"enabled", "disabled"}, "invalidChallengeMode");
  auto count = ReadInstallmentCount(in);
  auto holder = in.String("holderName", Need::kOptional, "invalidHolderName", 2, 100);  // default: the card's
  ReadPurchaseFields(in, mode.value_or("enabled") == "enabled", doc);
  in.RejectUnknown();
  if (!problems.empty()) return nullptr;
  auto card = ctx.Find("merchant-card", *card_id);
  auto scenario = ctx.Find("merchant-card:scenario", *card_id);
  if (!card || !scenario) {
    in.Fail("cardId", "invalidCardId", "names no saved card: approve a session purchase with the card first.",
            "não é um cartão salvo: aprove antes uma compra de sessão com o cartão.");
    return nullptr;
  }
  if (card->status() != "active") {
    in.Fail("cardId", "invalidCardId", "names a card in status " + card->status() + ".",
            "é um cartão com status " + card->status() + ".");
    return nullptr;
  }
  if (*funding == "debit" && *count > 1) {
    in.Fail("installmentCount", "invalidInstallmentCount", "must be 1 for debit.", "deve ser 1 para débito.");
    return nullptr;
  }
  CardFacts facts{card->doc["ending"].get<std::string>(),
                  card->doc["network"].get<std::string>(),
                  scenario->doc["expiration"].get<std::string>(),
                  holder.value_or(card->doc["holderName"].get<std::string>()),
                  *funding,
                  static_cast<CardScenario>(scenario->doc["scenario"].get<int>()),
                  card->id};
  doc.update({{"amount", *amount},
              {"installmentCount", *count},
              {"fundingType", *funding},
              {"holderName", facts.holder_name},
              {"challengeMode", mode.value_or("enabled")},
              {"source", "merchant-card/" + card->id}});
  return DecidePurchase(ctx, std::move(doc), facts, "");
}

Problem BadState(const Entity& e, const std::string& en, const std::string& pt) {
  return MakeProblem("invalidOperation", en + " (purchase " + e.id + " is " + e.status() + ").",
                     pt + " (compra " + e.id + " está " + e.status() + ").");
}

void Reverse(Context& ctx, Entity& e, std::int64_t to) {
  const std::int64_t reversed = e.doc["amount"].get<std::int64_t>() - to;
  Json tx = ctx.AddTransaction({-reversed, 0, "Card purchase reversal", "merchant-purchase/" + e.id,
                                e.doc["tags"].get<std::vector<std::string>>(), ""});
  e.doc["amount"] = to;
  e.doc["transactionIds"].push_back(tx["id"]);
  if (to == 0) e.doc["status"] = "voided";
  ctx.Save(e);
  UpdateInstallments(ctx, e.id, to == 0 ? "voided" : "updated", to);
  ctx.AddLog(e, to == 0 ? "voided" : "reversed", {{"reversedAmount", reversed}});
}

// PATCH {status, amount}: approved -> canceled (amount 0); confirmed -> reversed partially
// (lower amount, stays confirmed) or fully (amount 0 -> voided). A pending or slow purchase
// may be canceled too.
void PatchPurchase(Context& ctx, Entity& e, const Json& changes, Problems& problems) {
  Reader in(changes, problems);
  auto status = in.Enum("status", Need::kOptional, {"canceled", "reversed"}, "invalidStatus");
  auto amount = in.Int("amount", Need::kRequired, 0, 100'000'000'000, "invalidAmount");
  in.RejectUnknown();
  if (!problems.empty()) return;
  const std::int64_t current = e.doc["amount"].get<std::int64_t>();
  const std::string s = e.status();
  if (s == "approved" || s == "pending" || s == "created") {
    if (status == "reversed" || *amount != 0)
      return problems.push_back(BadState(e, "A purchase not yet confirmed is only canceled, with amount 0",
                                         "Uma compra ainda não confirmada só pode ser cancelada, com amount 0"));
    if (auto pending = ctx.Find(kPending, e.id)) ctx.Remove(*pending);
    e.doc["amount"] = 0;
    e.doc["status"] = "canceled";
    e.doc["challengeUrl"] = "";
    ctx.Save(e);
    UpdateInstallments(ctx, e.id, "canceled", 0);
    ctx.AddLog(e, "canceled");
    return;
  }
  if (s != "confirmed")
    return problems.push_back(BadState(e, "This purchase can no longer change", "Esta compra não pode mais mudar"));
  if (status == "canceled")
    return problems.push_back(BadState(e, "A confirmed purchase is reversed (status reversed), not canceled",
                                       "Uma compra confirmada é estornada (status reversed), não cancelada"));
  if (*amount >= current)
    return problems.push_back(
        MakeProblem("invalidAmount", "A reversal must lower the amount below " + std::to_string(current) + ".",
                    "Um estorno deve reduzir o valor para menos de " + std::to_string(current) + "."));
  Reverse(ctx, e, *amount);
}

void Confirm(Context& ctx, const Json& payload) {
  auto e = ctx.Find("merchant-purchase", payload["id"].get<std::string>());
  if (!e || e->status() != "approved") return;
  const std::int64_t amount = e->doc["amount"].get<std::int64_t>(), fee = e->doc["fee"].get<std::int64_t>();
  Json tx = ctx.AddTransaction(
      {amount - fee, fee,
       "Card purchase " + e->doc["network"].get<std::string>() + " ****" + e->doc["cardEnding"].get<std::string>(),
       "merchant-purchase/" + e->id, e->doc["tags"].get<std::vector<std::string>>(), ""});
  e->doc["status"] = "confirmed";
  e->doc["transactionIds"].push_back(tx["id"]);
  ctx.Save(*e);
  ctx.AddLog(*e, "confirmed", {{"transactionId", tx["id"]}});
}

SimulationFn Challenge(const char* outcome) {
  return [outcome](Context& ctx, const Json& body, Problems& problems) -> Json {
    Reader in(body, problems);
    auto id = in.String("id", Need::kRequired, "invalidPurchase", 1, 64);
    in.RejectUnknown();
    if (!problems.empty()) return nullptr;
    auto e = ctx.Find("merchant-purchase", *id);
    if (!e) {
      problems.push_back(NotFound("merchant-purchase", *id));
      return nullptr;
    }
    if (e->status() != "pending") {
      problems.push_back(BadState(*e, "Only a pending purchase has a 3-D Secure challenge",
                                  "Só uma compra pendente tem desafio 3-D Secure"));
      return nullptr;
    }
    ResumePending(ctx, *id, outcome);
    return {{"purchase", ctx.Find("merchant-purchase", *id)->doc}};
  };
}

}  // namespace

BALCAO_SANDBOX_FAMILY(merchant_purchase) {
  registry.Add(
      {.resource = "merchant-purchase",
       .statuses = {"created", "approved", "denied", "confirmed", "paid", "pending", "canceled", "voided", "failed"},
       .log_types = {"created", "pending", "approved", "denied", "confirmed", "canceled", "reversed", "voided"},
       .create = CreateDirect,
       .patch = PatchPurchase});
  registry.AddJob("merchant-purchase.confirm", Confirm);
  registry.AddJob("merchant-purchase.issuer",
                  [](Context& ctx, const Json& p) { ResumePending(ctx, p["id"].get<std::string>(), "issuer"); });
  registry.AddJob("merchant-purchase.challenge-timeout", [](Context& ctx, const Json& p) {
    auto e = ctx.Find("merchant-purchase", p["id"].get<std::string>());
    if (e && e->status() == "pending") ResumePending(ctx, e->id, "timeout");
  });
  registry.AddSimulation("challenge/pass", Challenge("pass"));
  registry.AddSimulation("challenge/fail", Challenge("fail"));
}

}  // namespace balcao::sandbox::internal
