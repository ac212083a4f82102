// Merchant installments (API documentation, part 2, "Merchant Card and Installment";
// docs/wire.md, "Card acceptance"): one per installment of an approved purchase ("even
// single payments get one installment"): amount, fee, nominalDue (credit: every 30 days;
// debit: next day), due (nominalDue moved to a weekday), status created -> paid when due
// arrives on the sandbox clock; canceled / voided with their purchase. The ledger side is
// the purchase's (credited at confirmation, see docs/sandbox.md).
#include <algorithm>

#include "sandbox/internal/card.h"
#include "sandbox/internal/family.h"

namespace balcao::sandbox::internal {
namespace {

// Internal index purchase id -> its installment ids (the resource table has no purchaseIds
// filter for installments, so it is not a stored key).
constexpr const char* kIndex = "merchant-purchase:installments";

// Saturday/Sunday (in BRT) move to Monday.
UnixMicros NextWeekday(UnixMicros t) {
  for (;;) {
    const int weekday = SaoPauloWeekday(t);  // 0 = Sunday
    if (weekday != 0 && weekday != 6) return t;
    t += kMicrosPerDay;
  }
}

// Splits `total` into `n` parts, the remainder on the first.
std::vector<std::int64_t> Shares(std::int64_t total, int n) {
  std::vector<std::int64_t> out(n, total / n);
  out[0] += total % n;
  return out;
}

void PayInstallment(Context& ctx, const Json& payload) {
  auto e = ctx.Find("merchant-installment", payload["id"].get<std::string>());
  if (!e || e->status() != "created") return;
  auto purchase = ctx.Find("merchant-purchase", e->doc["purchaseId"].get<std::string>());
  if (!purchase || purchase->status() != "confirmed") return;  // not captured: nothing to pay
  e->doc["status"] = "paid";
  ctx.Save(*e);
  ctx.AddLog(*e, "paid");
}

}  // namespace

void CreateInstallments(Context& ctx, const Entity& purchase) {
  const Json& p = purchase.doc;
  const int n = p["installmentCount"].get<int>();
  const bool debit = p["fundingType"] == "debit";
  const auto amounts = Shares(p["amount"].get<std::int64_t>(), n);
  const auto fees = Shares(p["fee"].get<std::int64_t>(), n);
  Json ids = Json::array();
  for (int i = 0; i < n; ++i) {
    const UnixMicros nominal = ctx.Now() + (debit ? 1 : 30 * (i + 1)) * kMicrosPerDay;
    const UnixMicros due = NextWeekday(nominal);
    Entity e = ctx.Insert("merchant-installment", {{"amount", amounts[i]},
                                                   {"fee", fees[i]},
                                                   {"due", FormatTimestamp(due)},
                                                   {"nominalDue", FormatTimestamp(nominal)},
                                                   {"fundingType", p["fundingType"]},
                                                   {"isProtected", false},
                                                   {"network", p["network"]},
                                                   {"purchaseId", purchase.id},
                                                   {"status", "created"},
                                                   {"tags", p["tags"]},
                                                   {"transactionIds", Json::array()}});
    ctx.AddLog(e, "created");
    ctx.Schedule(due, "merchant-installment.pay", {{"id", e.id}});
    ids.push_back(e.id);
  }
  ctx.Insert(kIndex, {{"id", purchase.id}, {"installmentIds", ids}});
}

void UpdateInstallments(Context& ctx, const std::string& purchase_id, const std::string& status,
                        std::int64_t new_total) {
  auto index = ctx.Find(kIndex, purchase_id);
  if (!index) return;
  std::vector<Entity> list;
  for (const auto& id : index->doc["installmentIds"])
    if (auto e = ctx.Find("merchant-installment", id.get<std::string>())) list.push_back(std::move(*e));
  const auto amounts = Shares(new_total, static_cast<int>(std::max<std::size_t>(list.size(), 1)));
  for (std::size_t i = 0; i < list.size(); ++i) {
    Entity& e = list[i];
    if (status == "updated") {
      e.doc["amount"] = amounts[i];
    } else {
      if (e.status() == "paid" && status == "canceled") continue;
      e.doc["status"] = status;
    }
    ctx.Save(e);
    ctx.AddLog(e, status);
  }
}

BALCAO_SANDBOX_FAMILY(merchant_installment) {
  registry.Add({.resource = "merchant-installment",
                .statuses = {"created", "paid", "canceled", "voided"},
                .log_types = {"created", "paid", "canceled", "voided", "updated"}});
  registry.AddJob("merchant-installment.pay", PayInstallment);
}

}  // namespace balcao::sandbox::internal
