// Forwarding a sealed card sale: merchant session + purchase, looked up by tag first
// whenever an earlier attempt may have reached the bank.
#include "offline/card_forwarder.h"

#include <nlohmann/json.hpp>

#include "common/log.h"

namespace balcao::offline {
namespace {

using nlohmann::json;

StatusOr<CardAuthorizer::Decision> DecisionOf(const json& purchase) {
  const std::string status = purchase.value("status", "");
  const std::string id = purchase.value("id", "");
  if (status == "approved" || status == "confirmed" || status == "paid")
    return CardAuthorizer::Decision{true, status, id};
  if (status == "denied" || status == "failed" || status == "canceled" || status == "voided")
    return CardAuthorizer::Decision{false, "the issuer declined it (" + status + ")", id};
  return FailedPreconditionError("purchase " + id + " is still " + status + " at the bank");
}

// Appends `text` as a JSON string body (quotes and backslashes escaped; the holder name
// was validated as one printable line).
void AppendJsonString(std::string& out, const std::string& text) {
  out += '"';
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
}

// What the card's forward carries besides it (CardData::forward, sealed with it): the sale's
// tags, the store's challenge mode, and the customer's part of the purchase as the bank
// spells it. A record sealed before these were kept: the sale id's tags, challenge disabled,
// empty metadata.
struct ForwardTerms {
  json tags = json::array();
  std::string challenge_mode = "disabled";
  json purchase = {{"metadata", json::object()}};
};

ForwardTerms TermsOf(const SealedCardInfo& info, const CardData& card) {
  ForwardTerms terms;
  const json forward = card.forward.empty() ? json() : json::parse(card.forward, nullptr, false);
  if (forward.is_object() && forward.contains("tags") && forward["tags"].is_array()) {
    terms.tags = forward["tags"];
    terms.challenge_mode = forward.value("challengeMode", "disabled");
    if (forward.contains("purchase") && forward["purchase"].is_object()) terms.purchase = forward["purchase"];
  } else {
    terms.tags.push_back(info.sale_id);
  }
  terms.tags.push_back(BankCardAuthorizer::LookupTag(info.sale_id));
  return terms;
}

}  // namespace

StatusOr<CardAuthorizer::Decision> BankCardAuthorizer::Lookup(const SealedCardInfo& info, bool& found) {
  found = false;
  auto answer = bank_.Call("GET", "/v2/merchant-purchase", {{"tags", LookupTag(info.sale_id)}, {"limit", "10"}}, "");
  if (!answer.ok()) return answer.status();
  const json page = json::parse(*answer, nullptr, false);
  if (!page.is_object() || !page.contains("purchases") || !page["purchases"].is_array())
    return InternalError("merchant purchase list: unexpected answer");
  for (const json& p : page["purchases"]) {
    if (!p.is_object()) continue;
    found = true;
    logging::Info("card_forwarder", "found at the bank by its tag",
                  {{"sale", info.sale_id}, {"status", p.value("status", "")}, {"bank_id", p.value("id", "")}});
    return DecisionOf(p);
  }
  logging::Info("card_forwarder", "not at the bank", {{"sale", info.sale_id}, {"tag", LookupTag(info.sale_id)}});
  return NotFoundError("no purchase tagged " + LookupTag(info.sale_id));
}

StatusOr<CardAuthorizer::Decision> BankCardAuthorizer::Authorize(const SealedCardInfo& info, const CardData& card,
                                                                 bool may_exist, bool lookup_only) {
  if (may_exist || lookup_only) {
    bool found = false;
    auto decided = Lookup(info, found);
    if (found || lookup_only) return decided;
    if (!decided.ok() && decided.status().code() != StatusCode::kNotFound) return decided.status();
  }
  const ForwardTerms terms = TermsOf(info, card);
  const json session_body = {{"allowedFundingTypes", {card.funding_type}},
                             {"allowedInstallments", {{{"totalAmount", info.amount}, {"count", card.installments}}}},
                             {"expiration", 3600},
                             {"challengeMode", terms.challenge_mode},
                             {"tags", terms.tags}};
  auto session = bank_.Call("POST", "/v2/merchant-session", {}, session_body.dump());
  if (!session.ok()) return session.status();
  const json session_doc = json::parse(*session, nullptr, false);
  const std::string uuid =
      session_doc.is_object() && session_doc.contains("session") ? session_doc["session"].value("uuid", "") : "";
  if (uuid.empty()) return InternalError("merchant session: the answer has no uuid");
  logging::Info("card_forwarder", "session created; sending the purchase",
                {{"sale", info.sale_id}, {"amount", info.amount}, {"session", uuid}});

  std::string body;
  body.reserve(384 + card.holder_name.size() + card.forward.size());
  body += "{\"amount\":";
  body += std::to_string(info.amount);
  body += ",\"cardExpiration\":";
  AppendJsonString(body, card.expiration);
  body += ",\"cardNumber\":";
  AppendJsonString(body, card.number);
  body += ",\"cardSecurityCode\":";
  AppendJsonString(body, card.security_code);
  body += ",\"fundingType\":";
  AppendJsonString(body, card.funding_type);
  body += ",\"holderName\":";
  AppendJsonString(body, card.holder_name);
  body += ",\"installmentCount\":";
  body += std::to_string(card.installments);
  for (const auto& [key, value] : terms.purchase.items()) body += ",\"" + key + "\":" + value.dump();
  body += "}";
  auto purchase = bank_.Call("POST", "/v2/merchant-session/" + uuid + "/purchase", {}, body);
  WipeString(body);
  if (!purchase.ok()) {
    const Status& s = purchase.status();
    // The bank refused the card outright (invalid number, expired...): a decline. The
    // reason keeps the bank's error codes only: its messages could echo the card.
    if (s.delivery() == Delivery::kAnswered && s.http_status() == 400) {
      std::string codes;
      for (const ErrorEntry& e : s.errors()) codes += (codes.empty() ? "" : ", ") + e.code;
      logging::Info("card_forwarder", "purchase refused by the bank",
                    {{"sale", info.sale_id}, {"amount", info.amount}, {"codes", codes}});
      return Decision{false, "refused by the bank (http 400" + (codes.empty() ? "" : ": " + codes) + ")", ""};
    }
    return s;
  }
  const json doc = json::parse(*purchase, nullptr, false);
  if (!doc.is_object() || !doc.contains("purchase")) return InternalError("purchase: unexpected answer");
  logging::Info("card_forwarder", "purchase answered",
                {{"sale", info.sale_id},
                 {"amount", info.amount},
                 {"status", doc["purchase"].value("status", "")},
                 {"bank_id", doc["purchase"].value("id", "")}});
  return DecisionOf(doc["purchase"]);
}

}  // namespace balcao::offline
