#include "settlement/internal/bank_view.h"

#include <map>
#include <set>
#include <string>
#include <utility>

#include "checkout/intake.h"
#include "checkout/types.h"

namespace balcao::settlement::internal {
namespace {

using api::ListParams;

constexpr std::string_view kBrcodeTagPrefix = "dynamic-brcode/";

template <typename T>
StatusOr<std::vector<T>> ListAll(const api::ResourceClient<T>& resource, ListParams params) {
  std::vector<T> items;
  for (StatusOr<T>& item : resource.List(std::move(params))) {
    if (!item.ok()) return item.status();
    items.push_back(*std::move(item));
  }
  return items;
}

ListParams ByTag(const std::string& tag) { return ListParams().Filter("tags", tag); }
ListParams InWindow(UnixMicros from, UnixMicros to) {
  return ListParams().Filter("after", FormatDate(from)).Filter("before", FormatDate(to));
}

template <typename T>
UnixMicros Created(const T& model) {
  return model.created ? model.created->micros : 0;
}
template <typename T>
bool CreatedIn(const T& model, UnixMicros from, UnixMicros to) {
  const UnixMicros created = Created(model);
  return created >= from && created < to;
}

std::string BrcodeOfDeposit(const api::Deposit& deposit) {
  for (const std::string& tag : deposit.tags.value_or(api::Strings{})) {
    if (tag.starts_with(kBrcodeTagPrefix)) return tag.substr(kBrcodeTagPrefix.size());
  }
  return "";
}

BankEntity FromPurchase(const api::MerchantPurchase& p, std::string sale_id) {
  BankEntity e{BankKind::kPurchase, p.id.value_or(""), std::move(sale_id), p.status.value_or(""), p.amount.value_or(0)};
  e.funding = p.funding_type.value_or("");
  e.created = Created(p);
  return e;
}
BankEntity FromInvoice(const api::Invoice& i, std::string sale_id) {
  BankEntity e{BankKind::kInvoice, i.id.value_or(""), std::move(sale_id), i.status.value_or(""), i.amount.value_or(0)};
  e.created = Created(i);
  e.due = i.due ? i.due->micros : 0;
  return e;
}
BankEntity FromDeposit(const api::Deposit& d, std::string sale_id) {
  BankEntity e{BankKind::kDeposit, d.id.value_or(""), std::move(sale_id), d.status.value_or(""), d.amount.value_or(0)};
  e.brcode_uuid = BrcodeOfDeposit(d);
  e.created = Created(d);
  return e;
}

// The ledger's `source` of an entity's transactions.
std::string SourceOf(const BankEntity& e) {
  switch (e.kind) {
    case BankKind::kPurchase:
      return "merchant-purchase/" + e.id;
    case BankKind::kInvoice:
      return "invoice/" + e.id;
    case BankKind::kDeposit:
      return "deposit/" + e.id;
  }
  return "";
}

// The ledger lines of entities, keyed by the transaction's source ("invoice/<id>").
class LedgerBySource {
 public:
  void Add(const api::Transaction& tx) {
    if (!seen_.insert(tx.id.value_or("")).second) return;
    const Cents amount = tx.amount.value_or(0);
    auto& [in, out] = lines_[tx.source.value_or("")];
    if (amount >= 0) {
      in += amount + tx.fee.value_or(0);
    } else {
      out += -amount;
    }
  }
  void Fill(BankEntity& e) const {
    auto it = lines_.find(SourceOf(e));
    if (it == lines_.end()) return;
    e.ledger_in = it->second.first;
    e.ledger_out = it->second.second;
  }

 private:
  std::set<std::string> seen_;
  std::map<std::string, std::pair<Cents, Cents>> lines_;
};

// The sale's entities, their ledger lines, and the brcodes it showed (uuid -> sale).
Status ReadSale(const api::Bank& bank, const std::string& sale_id, BankDay& day, LedgerBySource& ledger,
                std::set<std::string>& known_ids) {
  const std::string tag = checkout::SaleTag(sale_id);
  BALCAO_ASSIGN_OR_RETURN(auto purchases, ListAll(bank.merchant_purchase(), ByTag(tag)));
  for (const auto& p : purchases) day.entities.push_back(FromPurchase(p, sale_id));
  BALCAO_ASSIGN_OR_RETURN(auto invoices, ListAll(bank.invoice(), ByTag(tag)));
  for (const auto& i : invoices) day.entities.push_back(FromInvoice(i, sale_id));
  BALCAO_ASSIGN_OR_RETURN(auto transactions, ListAll(bank.transaction(), ByTag(tag)));
  for (const auto& tx : transactions) ledger.Add(tx);
  BALCAO_ASSIGN_OR_RETURN(auto brcodes, ListAll(bank.dynamic_brcode(), ByTag(tag)));
  for (const auto& brcode : brcodes) {
    const std::string deposit_tag = checkout::BrcodeDepositTag(brcode.uuid.value_or(""));
    BALCAO_ASSIGN_OR_RETURN(auto deposits, ListAll(bank.deposit(), ByTag(deposit_tag)));
    for (const auto& d : deposits) day.entities.push_back(FromDeposit(d, sale_id));
    BALCAO_ASSIGN_OR_RETURN(auto deposit_txs, ListAll(bank.transaction(), ByTag(deposit_tag)));
    for (const auto& tx : deposit_txs) ledger.Add(tx);
  }
  for (const BankEntity& e : day.entities) known_ids.insert(e.id);
  return OkStatus();
}

// Entities created in the window that name a sale the journal does not have.
Status ReadOrphans(const api::Bank& bank, UnixMicros from, UnixMicros to, const JournaledFn& journaled,
                   const std::set<std::string>& known_ids, BankDay& day) {
  std::map<std::string, bool> journaled_cache;
  auto orphan_sale = [&](const api::Strings& tags) -> StatusOr<std::string> {
    const std::string sale = checkout::SaleIdFromTags(tags);
    if (sale.empty()) return std::string();
    auto it = journaled_cache.find(sale);
    if (it == journaled_cache.end()) {
      BALCAO_ASSIGN_OR_RETURN(bool known, journaled(sale));
      it = journaled_cache.emplace(sale, known).first;
    }
    return it->second ? std::string() : sale;
  };
  BALCAO_ASSIGN_OR_RETURN(auto purchases, ListAll(bank.merchant_purchase(), InWindow(from, to)));
  for (const auto& p : purchases) {
    if (!CreatedIn(p, from, to) || known_ids.count(p.id.value_or(""))) continue;
    BALCAO_ASSIGN_OR_RETURN(std::string sale, orphan_sale(p.tags.value_or(api::Strings{})));
    if (!sale.empty()) day.entities.push_back(FromPurchase(p, sale));
  }
  BALCAO_ASSIGN_OR_RETURN(auto invoices, ListAll(bank.invoice(), InWindow(from, to)));
  for (const auto& i : invoices) {
    if (!CreatedIn(i, from, to) || known_ids.count(i.id.value_or(""))) continue;
    BALCAO_ASSIGN_OR_RETURN(std::string sale, orphan_sale(i.tags.value_or(api::Strings{})));
    if (!sale.empty()) day.entities.push_back(FromInvoice(i, sale));
  }
  BALCAO_ASSIGN_OR_RETURN(auto deposits, ListAll(bank.deposit(), InWindow(from, to)));
  for (const auto& d : deposits) {
    const std::string uuid = BrcodeOfDeposit(d);
    if (!CreatedIn(d, from, to) || uuid.empty() || known_ids.count(d.id.value_or(""))) continue;
    BALCAO_ASSIGN_OR_RETURN(auto brcodes, ListAll(bank.dynamic_brcode(), ListParams().Filter("uuids", uuid)));
    if (brcodes.empty()) continue;
    BALCAO_ASSIGN_OR_RETURN(std::string sale, orphan_sale(brcodes.front().tags.value_or(api::Strings{})));
    if (!sale.empty()) day.entities.push_back(FromDeposit(d, sale));
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::set<std::string>> SalesWithDebits(const api::Bank& bank, UnixMicros from, UnixMicros to,
                                                const JournaledFn& journaled) {
  BALCAO_ASSIGN_OR_RETURN(auto transactions, ListAll(bank.transaction(), InWindow(from, to)));
  std::set<std::string> sales;
  std::map<std::string, std::string> brcode_sales;  // uuid -> sale ("" when none)
  auto brcode_sale = [&](const std::string& uuid) -> StatusOr<std::string> {
    auto it = brcode_sales.find(uuid);
    if (it != brcode_sales.end()) return it->second;
    BALCAO_ASSIGN_OR_RETURN(auto brcodes, ListAll(bank.dynamic_brcode(), ListParams().Filter("uuids", uuid)));
    const std::string sale =
        brcodes.empty() ? std::string() : checkout::SaleIdFromTags(brcodes.front().tags.value_or(api::Strings{}));
    return brcode_sales.emplace(uuid, sale).first->second;
  };
  for (const auto& tx : transactions) {
    if (!CreatedIn(tx, from, to) || tx.amount.value_or(0) >= 0) continue;
    const api::Strings tags = tx.tags.value_or(api::Strings{});
    std::string sale = checkout::SaleIdFromTags(tags);
    for (const std::string& tag : tags) {
      if (!sale.empty()) break;
      if (tag.starts_with(kBrcodeTagPrefix)) {
        BALCAO_ASSIGN_OR_RETURN(sale, brcode_sale(tag.substr(kBrcodeTagPrefix.size())));
      }
    }
    if (sale.empty() || sales.count(sale)) continue;
    BALCAO_ASSIGN_OR_RETURN(bool known, journaled(sale));
    if (known) sales.insert(sale);
  }
  return sales;
}

StatusOr<BankDay> ReadBank(const api::Bank& bank, const std::vector<std::string>& sale_ids, UnixMicros from,
                           UnixMicros to, const JournaledFn& journaled,
                           const std::function<void(int done, int total)>& on_sale_read) {
  BankDay day;
  LedgerBySource ledger;
  std::set<std::string> known_ids;
  const int total = static_cast<int>(sale_ids.size());
  for (int done = 0; done < total; ++done) {
    BALCAO_RETURN_IF_ERROR(ReadSale(bank, sale_ids[done], day, ledger, known_ids));
    if (on_sale_read) on_sale_read(done + 1, total);
  }
  for (BankEntity& e : day.entities) ledger.Fill(e);
  BALCAO_RETURN_IF_ERROR(ReadOrphans(bank, from, to, journaled, known_ids, day));

  BALCAO_ASSIGN_OR_RETURN(auto transactions, ListAll(bank.transaction(), InWindow(from, to)));
  std::set<std::string> sale_sources;
  for (const BankEntity& e : day.entities) {
    if (known_ids.count(e.id)) sale_sources.insert(SourceOf(e));
  }
  day.ledger.known = true;
  for (const auto& tx : transactions) {
    if (!CreatedIn(tx, from, to)) continue;
    const Cents amount = tx.amount.value_or(0);
    ++day.ledger.count;
    (amount >= 0 ? day.ledger.credits : day.ledger.debits) += amount >= 0 ? amount : -amount;
    if (sale_sources.count(tx.source.value_or(""))) day.ledger.sales_net += amount;
  }
  BALCAO_ASSIGN_OR_RETURN(api::Balance balance, bank.GetBalance());
  day.ledger.balance_known = true;
  day.ledger.balance = balance.amount.value_or(0);
  return day;
}

}  // namespace balcao::settlement::internal
