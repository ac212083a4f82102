// What the seeded store did over its 60 days (seed.h), each day in `per_day` rounds between
// 09:00 and 21:00 UTC: cash in (deposits, invoices and their payers, dynamic BR Codes,
// boletos the sandbox payer settles), cash out (transfers, Pix, boleto, utility, tax and
// DARF payments, approved payment requests, splits to receivers), card sales (sessions,
// purchases, saved cards and their direct purchases, installments, reversals), recurring
// billing (pull subscriptions and requests), new workspaces of the organization and
// split profile updates. Two webhooks subscribed from the first day turn logs into events;
// one is deleted on the last day, the other stays; nine events in ten were delivered.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "api/formats/boleto.h"
#include "api/formats/brcode.h"
#include "api/formats/utility_slip.h"
#include "sandbox/internal/seed_history.h"

namespace balcao::sandbox::internal {
namespace {

const std::vector<std::string> kNames = {"Maria Souza",   "Joao Pereira", "Ana Lima",    "Carlos Alves",
                                         "Beatriz Rocha", "Pedro Santos", "Julia Costa", "Rafael Dias"};
const std::vector<std::string> kTaxIds = {"012.345.678-90", "337.451.076-08", "20.018.183/0001-80",
                                          "91.642.017/0001-06"};
// Approved by the sandbox issuer, then the two decline scenarios (docs/sandbox.md, "Test cards").
const std::vector<std::string> kApprovedCards = {"4242424242424242", "5277696455399733", "36490101441625",
                                                 "6062825624254001", "5448280000000007"};
const std::vector<std::string> kDeniedCards = {"4000000000009995", "4000000000000002"};
// The store's regular customers (holderId, 16 digits like the bank's); the first is the one
// the official SDKs' suites filter sessions and purchases by.
const std::vector<std::string> kHolderIds = {"0123456789012345", "5718209346612224", "6297110485530624",
                                             "4821903377614848"};
// The saved card the official Node SDK's suite charges by id (its MerchantPurchaseCreate):
// the first card the history saves takes it (docs/sandbox.md, "A seeded account").
constexpr const char* kPublishedCardId = "5052994169077760";
// Documented subscriptions only (api::Subscriptions()): the bank refuses any other.
const std::vector<std::string> kSubscriptions = {"invoice",        "deposit",        "boleto",         "transfer",
                                                 "brcode-payment", "boleto-payment", "utility-payment"};

std::string Date(UnixMicros t) { return FormatTimestamp(t).substr(0, 10); }

formats::Date FormatsDate(UnixMicros t) {
  return formats::Date(std::chrono::sys_days(std::chrono::days(t / kSeedDay)));
}

std::string ZeroPadded(std::int64_t n, int width) {
  std::string s = std::to_string(n);
  return std::string(width > static_cast<int>(s.size()) ? width - s.size() : 0, '0') + s;
}

template <typename T>
T Value(const StatusOr<T>& v) {
  if (!v.ok()) throw std::runtime_error("seed: " + v.status().message());
  return *v;
}

class Script {
 public:
  Script(History& h, SeedResult& result) : h_(h), result_(result) {}

  void Start() {
    // The first webhook is the store's old receiver, deleted on the last day; the second is
    // its current one, served by this sandbox (POST /sandbox/webhook-receiver answers 200).
    Context first = h_.Now();
    const std::string base = first.public_base_url();
    const std::vector<std::string> urls = {
        "https://hooks.example.com/store/0",
        base.empty() ? "https://hooks.example.com/store/1" : base + "/sandbox/webhook-receiver"};
    for (const auto& url : urls)
      webhooks_.push_back(
          h_.Create("webhook", {{"url", url}, {"subscriptions", kSubscriptions}})["id"].get<std::string>());
    h_.Create("split-profile", {{"interval", "day"}, {"delay", 0}});
    Context ctx = h_.Now();
    h_.Simulate(ctx, "deposit", {{"amount", 50'000'000}, {"name", "Store Owner"}, {"taxId", kTaxIds[2]}});
  }

  // One round of the day's business, its steps 20 s apart from `t`.
  void Round(const std::string& tag, UnixMicros t) {
    const std::vector<std::function<void()>> steps = {
        [&] { Deposit(tag); },       [&] { Receiver(tag); },         [&] { Invoice(tag); },
        [&] { DynamicBrcode(tag); }, [&] { Boleto(tag); },           [&] { Transfer(tag); },
        [&] { SlipPayments(tag); },  [&] { Card(tag + "a", true); }, [&] { Card(tag + "b", false); },
        [&] { DirectPurchase(); },   [&] { PullSubscription(tag); }, [&] { PaymentRequest(tag); },
        [&] { Workspace(tag); },     [&] { Profile(tag); }};
    for (std::size_t i = 0; i < steps.size(); ++i) {
      h_.AdvanceTo(t + static_cast<UnixMicros>(i) * 20 * kMicrosPerSecond);
      steps[i]();
    }
  }

  void Finish() {
    Context ctx = h_.Now();
    h_.Remove(ctx, "webhook", webhooks_.front());
    // Nine events in ten were delivered; the others have one failed attempt each.
    ListQuery q;
    q.resource = "event";
    q.scope = h_.plan().workspace_id;
    q.limit = 500;
    EntityStore& store = ctx.engine().store();
    while (true) {
      auto page = ctx.Checked(store.List(q));
      const bool more = page.size() > static_cast<std::size_t>(q.limit);
      if (more) page.pop_back();
      for (auto& event : page) {
        if (h_.Chance(90)) {
          event.doc["isDelivered"] = true;
          ctx.Checked(store.Update(event, IndexKeys(event.resource, event.doc)));
        } else {
          Context at = h_.At(event.created + kSeedMinute);
          at.Insert("event/attempt", {{"code", "500"},
                                      {"message", "The receiver answered HTTP 500."},
                                      {"webhookId", h_.Pick(webhooks_)},
                                      {"eventId", event.id}});
        }
      }
      if (!more || page.empty()) break;
      q.cursor = {{page.back().created, page.back().seq}};
    }
    // credentials.json names the card the official suite charges.
    for (const auto& id : cards_) {
      auto card = ctx.Find("merchant-card", id);
      if (card && card->status() == "active" && (result_.card_id.empty() || id == kPublishedCardId))
        result_.card_id = id;
    }
  }

 private:
  const std::string& Name() { return h_.Pick(kNames); }
  const std::string& TaxId() { return h_.Pick(kTaxIds); }

  void Deposit(const std::string& tag) {
    Context ctx = h_.Now();
    Json d = h_.Simulate(ctx, "deposit",
                         {{"amount", h_.Amount(100'000, 2'000'000)},
                          {"type", h_.Pick(std::vector<std::string>{"pix", "ted", "boleto"})},
                          {"name", Name()},
                          {"taxId", TaxId()},
                          {"tags", Json::array({tag})}})["deposit"];
    if (h_.Chance(5))
      h_.Later(h_.now() + kSeedDay,
               [this, id = d["id"].get<std::string>(), half = d["amount"].get<std::int64_t>() / 2](Context& c) {
                 h_.Patch(c, "deposit", id, {{"amount", half}});
               });
  }

  void Receiver(const std::string& tag) {
    const bool pix = h_.Chance(70);
    receivers_.push_back(h_.Create("split-receiver", {{"name", Name()},
                                                      {"taxId", TaxId()},
                                                      {"bankCode", pix ? "18236120" : "341"},
                                                      {"branchCode", "0001"},
                                                      {"accountNumber", ZeroPadded(h_.Amount(1, 99999), 5) + "-0"},
                                                      {"accountType", pix ? "payment" : "checking"},
                                                      {"tags", Json::array({tag})}})["id"]
                             .get<std::string>());
  }

  void Invoice(const std::string& tag) {
    const std::int64_t amount = h_.Amount(1'000, 500'000);
    Json element = {{"amount", amount},
                    {"name", Name()},
                    {"taxId", TaxId()},
                    {"due", FormatTimestamp(h_.now() + h_.Amount(1, 10) * kSeedDay)},
                    {"expiration", 5 * 86'400},
                    {"fine", 2},
                    {"interest", 1},
                    {"tags", Json::array({tag})}};
    if (h_.Chance(90))
      element["splits"] = Json::array({Json{{"receiverId", h_.Pick(receivers_)}, {"amount", amount / 10}}});
    const std::string id = h_.Create("invoice", element)["id"].get<std::string>();
    if (h_.Chance(75)) {
      h_.Later(h_.now() + h_.Amount(10, 6 * 24 * 60) * kSeedMinute, [this, id](Context& c) {
        auto e = c.Find("invoice", id);
        if (!e || (e->status() != "created" && e->status() != "overdue")) return;
        h_.Simulate(c, "invoice/pay", {{"id", id}, {"name", Name()}, {"taxId", TaxId()}});
        if (h_.Chance(5))  // partly refunded the next day
          h_.Later(c.Now() + kSeedDay, [this, id](Context& later) {
            auto paid = later.Find("invoice", id);
            h_.Patch(later, "invoice", id, {{"amount", paid->doc["amount"].get<std::int64_t>() / 2}});
          });
      });
    } else if (h_.Chance(40)) {
      h_.Later(h_.now() + kSeedHour, [this, id](Context& c) { h_.Patch(c, "invoice", id, {{"status", "canceled"}}); });
    }
  }

  void DynamicBrcode(const std::string& tag) {
    Json b = h_.Create("dynamic-brcode",
                       {{"amount", h_.Amount(500, 80'000)}, {"expiration", 3600}, {"tags", Json::array({tag})}});
    if (h_.Chance(70))
      h_.Later(h_.now() + h_.Amount(1, 30) * kSeedMinute, [this, uuid = b["uuid"].get<std::string>()](Context& c) {
        h_.Simulate(c, "dynamic-brcode/pay", {{"uuid", uuid}, {"name", Name()}, {"taxId", TaxId()}});
      });
  }

  void Boleto(const std::string& tag) {
    const std::int64_t amount = h_.Amount(2'000, 300'000);
    Json element = {{"amount", amount},          {"name", Name()},
                    {"taxId", TaxId()},          {"streetLine1", "Rua das Flores, 100"},
                    {"streetLine2", ""},         {"district", "Centro"},
                    {"city", "Sao Paulo"},       {"stateCode", "SP"},
                    {"zipCode", "01000-000"},    {"due", Date(h_.now() + h_.Amount(2, 10) * kSeedDay)},
                    {"tags", Json::array({tag})}};
    if (h_.Chance(50))
      element["splits"] = Json::array({Json{{"receiverId", h_.Pick(receivers_)}, {"amount", amount / 5}}});
    const std::string id = h_.Create("boleto", element)["id"].get<std::string>();
    h_.Later(h_.now() + 2 * kSeedHour, [this, id, tag](Context& c) {
      h_.Create(c, "boleto-holmes", {{"boletoId", id}, {"tags", Json::array({tag})}});
    });
    if (h_.Chance(5))
      h_.Later(h_.now() + 3 * kSeedHour, [this, id](Context& c) {
        auto e = c.Find("boleto", id);
        if (e && (e->status() == "created" || e->status() == "overdue")) h_.Remove(c, "boleto", id);
      });
  }

  void Transfer(const std::string& tag) {
    const bool pix = h_.Chance(70);
    const bool cancel = h_.Chance(5);
    Json element = {{"amount", h_.Amount(1'000, 200'000)},
                    {"name", Name()},
                    {"taxId", TaxId()},
                    {"bankCode", pix ? "20018183" : "341"},
                    {"branchCode", "0001"},
                    {"accountNumber", ZeroPadded(h_.Amount(1, 99999), 5) + "-0"},
                    {"externalId", "seed-" + tag},
                    {"tags", Json::array({tag})}};
    if (cancel) element["scheduled"] = Date(h_.now() + 3 * kSeedDay);
    const std::string id = h_.Create("transfer", element)["id"].get<std::string>();
    if (cancel) {
      h_.Later(h_.now() + kSeedHour, [this, id](Context& c) { h_.Remove(c, "transfer", id); });
    } else if (pix && h_.Chance(5)) {
      h_.Later(h_.now() + 5 * kMicrosPerSecond, [this, id](Context& c) {
        h_.Simulate(c, "payment/fail", {{"resource", "transfer"}, {"id", id}});
      });
    }
  }

  void SlipPayments(const std::string& tag) {
    formats::StaticBrCodeSpec pix;
    pix.key = "01234567890";
    pix.merchant_name = Name();
    pix.merchant_city = "Sao Paulo";
    pix.amount_cents = h_.Amount(500, 100'000);
    h_.Create("brcode-payment", {{"brcode", Value(formats::BuildStaticBrCode(pix))},
                                 {"taxId", TaxId()},
                                 {"description", "Supplier " + tag},
                                 {"tags", Json::array({tag})}});
    formats::BoletoSpec boleto;
    boleto.bank_code = "341";
    boleto.due_date = FormatsDate(h_.now() + 5 * kSeedDay);
    boleto.amount_cents = h_.Amount(1'000, 150'000);
    boleto.free_field = ZeroPadded(h_.Amount(0, 999'999'999'999), 13) + ZeroPadded(h_.Amount(0, 999'999'999'999), 12);
    h_.Create("boleto-payment", {{"barCode", Value(formats::BuildBoletoBarcode(boleto))},
                                 {"taxId", TaxId()},
                                 {"description", "Boleto of " + tag},
                                 {"tags", Json::array({tag})}});
    auto slip = [&](int segment) {
      formats::UtilitySlipSpec s;
      s.segment = segment;
      s.value = h_.Amount(500, 90'000);
      s.company_id = ZeroPadded(h_.Amount(1, 9999), 4);
      s.free_field = ZeroPadded(h_.Amount(0, 999'999'999'999), 13) + ZeroPadded(h_.Amount(0, 999'999'999'999), 12);
      return Value(formats::BuildUtilityBarcode(s));
    };
    h_.Create("utility-payment", {{"barCode", slip(h_.Pick(std::vector<int>{2, 3, 4, 6}))},
                                  {"description", "Utility bill " + tag},
                                  {"tags", Json::array({tag})}});
    h_.Create("tax-payment", {{"barCode", slip(h_.Pick(std::vector<int>{1, 5, 7}))},
                              {"description", "Tax bill " + tag},
                              {"tags", Json::array({tag})}});
    h_.Create("darf-payment", {{"revenueCode", "1240"},
                               {"taxId", kTaxIds[2]},
                               {"competence", Date(h_.now()).substr(0, 7)},
                               {"referenceNumber", ZeroPadded(h_.Amount(0, 9'999'999'999), 10)},
                               {"nominalAmount", h_.Amount(1'000, 90'000)},
                               {"fineAmount", h_.Amount(0, 500)},
                               {"interestAmount", h_.Amount(0, 500)},
                               {"due", Date(h_.now() + 10 * kSeedDay)},
                               {"description", "DARF of " + tag},
                               {"tags", Json::array({tag})}});
  }

  // A card sale; `sure` ones are approved, the others may be abandoned or declined.
  void Card(const std::string& tag, bool sure) {
    const std::int64_t amount = h_.Amount(1'000, 120'000);
    Json session = h_.Create("merchant-session",
                             {{"allowedFundingTypes", Json::array({"credit", "debit"})},
                              {"allowedInstallments", Json::array({Json{{"totalAmount", amount}, {"count", 1}},
                                                                   Json{{"totalAmount", amount}, {"count", 3}}})},
                              {"expiration", 3600},
                              {"challengeMode", "disabled"},
                              {"holderId", h_.Pick(kHolderIds)},
                              {"tags", Json::array({tag})}});
    if (!sure && h_.Chance(30)) return;  // abandoned: the session expires
    const bool approve = sure || h_.Chance(60);
    const bool credit = h_.Chance(70);
    Json body = {{"amount", amount},
                 {"installmentCount", credit && h_.Chance(50) ? 3 : 1},
                 {"cardExpiration", "2035-01"},
                 {"cardNumber", approve ? h_.Pick(kApprovedCards) : h_.Pick(kDeniedCards)},
                 {"cardSecurityCode", "123"},
                 {"holderName", Name()},
                 {"fundingType", credit ? "credit" : "debit"}};
    h_.AdvanceTo(h_.now() + 30 * kMicrosPerSecond);
    Context ctx = h_.Now();
    auto parent = ctx.Find("merchant-session", session["id"].get<std::string>());
    if (approve && cards_.empty()) ctx.PinNextId("merchant-card", kPublishedCardId);
    Problems problems;
    Json purchase = FamilyOf("merchant-session").sub_post(ctx, *parent, body, problems);
    if (!problems.empty()) Refused("merchant-session purchase", problems);
    if (!approve) return;
    cards_.push_back(purchase["cardId"].get<std::string>());
    // One sale in ten is partly refunded two days later, one in twenty voided.
    const int fate = static_cast<int>(h_.Amount(1, 20));
    if (fate <= 3)
      h_.Later(h_.now() + 2 * kSeedDay,
               [this, id = purchase["id"].get<std::string>(), to = fate == 1 ? 0 : amount / 2](Context& c) {
                 auto e = c.Find("merchant-purchase", id);
                 if (e && e->status() == "confirmed")
                   h_.Patch(c, "merchant-purchase", id, {{"status", "reversed"}, {"amount", to}});
               });
  }

  void DirectPurchase() {
    if (cards_.empty()) return;
    Context ctx = h_.Now();
    auto card = ctx.Find("merchant-card", h_.Pick(cards_));
    if (!card || card->status() != "active") return;
    h_.Create("merchant-purchase", {{"amount", h_.Amount(1'000, 60'000)},
                                    {"cardId", card->id},
                                    {"fundingType", "credit"},
                                    {"installmentCount", 2},
                                    {"challengeMode", "disabled"},
                                    {"holderId", h_.Pick(kHolderIds)}});
  }

  void PullSubscription(const std::string& tag) {
    const std::int64_t amount = h_.Amount(2'000, 30'000);
    Json subscription = h_.Create("invoice-pull-subscription", {{"displayDescription", "Monthly plan"},
                                                                {"externalId", "seed-" + tag},
                                                                {"interval", "month"},
                                                                {"name", Name()},
                                                                {"pullMode", "manual"},
                                                                {"pullRetryLimit", 3},
                                                                {"referenceCode", "contract-" + tag},
                                                                {"start", Date(h_.now() + 5 * kSeedDay)},
                                                                {"taxId", TaxId()},
                                                                {"type", "qrcode"},
                                                                {"amount", amount},
                                                                {"tags", Json::array({tag})}});
    const std::string id = subscription["id"].get<std::string>();
    if (h_.Chance(10))
      h_.Later(h_.now() + kSeedDay, [this, id](Context& c) { h_.Remove(c, "invoice-pull-subscription", id); });
    h_.Later(h_.now() + 2 * kSeedMinute, [this, tag, amount, id](Context& c) {
      Json invoice = h_.Create(c, "invoice", {{"amount", amount}, {"name", Name()}, {"taxId", TaxId()}});
      h_.Create(c, "invoice-pull-request",
                {{"subscriptionId", id},
                 {"invoiceId", invoice["id"].get<std::string>()},
                 {"due", FormatTimestamp(c.Now() + kSeedDay)},
                 {"attemptType", "default"},
                 {"externalId", "seed-request-" + id},
                 {"tags", Json::array({tag})}});
    });
  }

  void PaymentRequest(const std::string& tag) {
    Json request = h_.Create("payment-request", {{"centerId", h_.plan().center_id},
                                                 {"type", "transfer"},
                                                 {"payment",
                                                  {{"amount", h_.Amount(1'000, 50'000)},
                                                   {"name", Name()},
                                                   {"taxId", TaxId()},
                                                   {"bankCode", "20018183"},
                                                   {"branchCode", "0001"},
                                                   {"accountNumber", "10000-0"},
                                                   {"externalId", "seed-request-" + tag}}},
                                                 {"due", FormatTimestamp(h_.now() + kSeedHour * 6)},
                                                 {"tags", Json::array({tag})}});
    const int fate = static_cast<int>(h_.Amount(1, 10));
    if (fate <= 8)
      h_.Later(h_.now() + 3 * kSeedHour, [this, fate, id = request["id"].get<std::string>()](Context& c) {
        h_.Simulate(c, fate <= 6 ? "payment-request/approve" : "payment-request/deny", {{"id", id}});
      });
  }

  void Workspace(const std::string& tag) {
    Context ctx = h_.Now(true);
    h_.Create(ctx, "workspace", {{"username", "store-" + tag}, {"name", "Store " + tag}});
  }

  void Profile(const std::string& tag) {
    h_.Create("split-profile", {{"interval", h_.Pick(std::vector<std::string>{"day", "week", "month"})},
                                {"delay", h_.Amount(0, 4) * 3'600'000},
                                {"tags", Json::array({tag})}});
  }

  History& h_;
  SeedResult& result_;
  std::vector<std::string> webhooks_, receivers_, cards_;
};

}  // namespace

void RunSeedScript(History& h, UnixMicros first_day, SeedResult& result) {
  Script script(h, result);
  h.AdvanceTo(first_day + 8 * kSeedHour);
  script.Start();
  const int per_day = h.plan().per_day;
  for (int day = 0; day < h.plan().days; ++day) {
    for (int round = 0; round < per_day; ++round) {
      const UnixMicros t =
          first_day + day * kSeedDay + (9 + round * 12 / per_day) * kSeedHour + h.Amount(0, 59) * kSeedMinute;
      script.Round("d" + std::to_string(day) + "r" + std::to_string(round), t);
    }
  }
  h.AdvanceTo(h.plan().until - 1);
  script.Finish();
}

}  // namespace balcao::sandbox::internal
