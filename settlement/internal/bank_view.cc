#include "settlement/internal/bank_view.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "checkout/driver/intake.h"
#include "checkout/types.h"

namespace balcao::settlement::internal {
namespace {

using api::ListParams;

constexpr std::string_view kBrcodeTagPrefix = "dynamic-brcode/";
// Values per lookup (`tags` or `uuids`): the request line stays far under the header limits
// of HTTP servers (8 KiB on the sandbox) even with long sale ids, percent-encoded.
constexpr std::size_t kBatchValues = 40;
constexpr std::size_t kBatchChars = 2000;
constexpr int kRangeLists = 5;

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

template <typename T>
UnixMicros Created(const T& model) {
  return model.created ? model.created->micros : 0;
}

std::string BrcodeOfTags(const api::Strings& tags) {
  for (const std::string& tag : tags) {
    if (tag.starts_with(kBrcodeTagPrefix)) return tag.substr(kBrcodeTagPrefix.size());
  }
  return "";
}
// The sale key of an entity: its sale tag, lowercase ("store/<s>/lane/<t>/sale/<id>", or
// "sale/<id>" for the old layout): sale ids are unique within a lane only.
// An entity with a lane's tag and no sale's (a QR made at the dashboard with the lane's tags) is
// keyed "<lane>/sale/": the lane's, of no sale of its journal (an orphan of that lane).
std::string SaleKeyOfTags(const api::Strings& tags) {
  const checkout::TaggedSale tagged = checkout::SaleOfTags(tags);
  if (!tagged.sale_id.empty()) return Lower(checkout::SaleTag(tagged.lane(), tagged.sale_id));
  for (const std::string& tag : tags) {
    const std::string lane = Lower(tag);
    if (!lane.starts_with(checkout::kStoreTagPrefix)) continue;
    const auto at = lane.find(checkout::kLaneTagInfix);
    if (at == std::string::npos || at == checkout::kStoreTagPrefix.size()) continue;
    const std::string terminal = lane.substr(at + checkout::kLaneTagInfix.size());
    if (!terminal.empty() && terminal.find('/') == std::string::npos) return lane + "/sale/";
  }
  return "";
}
std::string SaleOfTags(const std::optional<api::Strings>& tags) { return SaleKeyOfTags(tags.value_or(api::Strings{})); }

BankEntity FromPurchase(const api::MerchantPurchase& p) {
  BankEntity e{BankKind::kPurchase, p.id.value_or(""), SaleOfTags(p.tags), p.status.value_or(""), p.amount.value_or(0)};
  e.funding = p.funding_type.value_or("");
  e.created = Created(p);
  return e;
}
// "name (tax id)", or what of it the bank gave.
std::string PartyOf(const std::optional<std::string>& name, const std::optional<std::string>& tax_id) {
  const std::string n = name.value_or(""), t = tax_id.value_or("");
  if (n.empty() || t.empty()) return n + t;
  return n + " (" + t + ")";
}
BankEntity FromInvoice(const api::Invoice& i) {
  BankEntity e{BankKind::kInvoice, i.id.value_or(""), SaleOfTags(i.tags), i.status.value_or(""), i.amount.value_or(0)};
  e.created = Created(i);
  e.party = PartyOf(i.name, i.tax_id);
  e.due = i.due ? i.due->micros : 0;
  return e;
}
// The deposit's sale is its brcode's: filled by the join.
BankEntity FromDeposit(const api::Deposit& d) {
  BankEntity e{BankKind::kDeposit, d.id.value_or(""), "", d.status.value_or(""), d.amount.value_or(0)};
  e.brcode_uuid = BrcodeOfTags(d.tags.value_or(api::Strings{}));
  e.created = Created(d);
  e.party = PartyOf(d.name, d.tax_id);
  return e;
}
DayLists::Tx TxOf(const api::Transaction& tx) {
  const api::Strings tags = tx.tags.value_or(api::Strings{});
  return {tx.id.value_or(""),
          tx.source.value_or(""),
          SaleKeyOfTags(tags),
          BrcodeOfTags(tags),
          tx.amount.value_or(0),
          tx.fee.value_or(0),
          tx.created ? tx.created->micros : 0};
}

bool In(UnixMicros t, UnixMicros from, UnixMicros to) { return t >= from && t < to; }

}  // namespace

SaleKey SplitSaleKey(const std::string& key) {
  constexpr std::string_view kSale = "sale/";
  if (key.starts_with(kSale)) return {"", key.substr(kSale.size())};
  const auto at = key.find("/sale/");
  if (at == std::string::npos) return {};
  return {key.substr(0, at), key.substr(at + 1 + kSale.size())};
}

namespace {

// Every item of a list, following the cursor; `pages` counts the requests.
template <typename T, typename Fn>
Status ForEach(const api::ResourceClient<T>& resource, ListParams params, Fn&& each, int& pages,
               const std::function<void()>& on_page = {}) {
  auto range = resource.List(std::move(params));
  int seen = 0;
  Status status;
  for (StatusOr<T>& item : range) {
    if (range.pages_loaded() != seen) {
      seen = range.pages_loaded();
      if (on_page) on_page();
    }
    if (!item.ok()) {
      status = item.status();
      break;
    }
    each(*item);
  }
  pages += range.pages_loaded();
  return status;
}

// `values` cut into lookups that keep the request line short.
std::vector<std::vector<std::string>> Batches(const std::vector<std::string>& values) {
  std::vector<std::vector<std::string>> batches;
  std::size_t chars = 0;
  for (const std::string& value : values) {
    if (batches.empty() || batches.back().size() >= kBatchValues || chars + value.size() * 3 > kBatchChars) {
      batches.emplace_back();
      chars = 0;
    }
    batches.back().push_back(value);
    chars += value.size() * 3 + 3;  // worst case: every character percent-encoded, and the comma
  }
  return batches;
}

}  // namespace

StatusOr<DayLists> DayLists::Read(const api::Bank& bank, UnixMicros from, UnixMicros to, const ReadOptions& options) {
  DayLists lists(from, to);
  lists.lane_ = options.lane;
  // `after` a date takes the whole day (the sandbox: from 00:00 UTC, three hours early);
  // no `before`: what came after the day (late money, refunds, captures) is listed too.
  const ListParams range = ListParams().Filter("after", FormatDate(from));
  // Items go straight into the lists (one lock; the bank's answers take far longer than the
  // insert), so no list is ever held twice.
  std::mutex mu;
  int pages_read = 0;
  const std::function<void()> on_page = [&] {
    std::lock_guard lock(mu);
    ++pages_read;
    if (options.on_page) options.on_page(pages_read);
  };
  const auto add = [&](BankEntity entity) {
    std::lock_guard lock(mu);
    lists.AddEntity(std::move(entity));
  };
  int pages[kRangeLists] = {};
  Status statuses[kRangeLists];
  // The largest list first, so that it starts on its own connection.
  const std::function<Status(int&)> tasks[kRangeLists] = {
      [&](int& n) {
        return ForEach(
            bank.transaction(), range,
            [&](const api::Transaction& tx) {
              Tx line = TxOf(tx);
              std::lock_guard lock(mu);
              lists.AddTx(std::move(line));
            },
            n, on_page);
      },
      [&](int& n) {
        return ForEach(
            bank.merchant_purchase(), range, [&](const api::MerchantPurchase& p) { add(FromPurchase(p)); }, n, on_page);
      },
      [&](int& n) {
        return ForEach(
            bank.invoice(), range, [&](const api::Invoice& i) { add(FromInvoice(i)); }, n, on_page);
      },
      [&](int& n) {
        return ForEach(
            bank.dynamic_brcode(), range,
            [&](const api::DynamicBrcode& b) {
              std::lock_guard lock(mu);
              lists.brcode_created_[b.uuid.value_or("")] = Created(b);
              lists.brcode_sale_[b.uuid.value_or("")] = SaleOfTags(b.tags);
            },
            n, on_page);
      },
      [&](int& n) {
        return ForEach(
            bank.deposit(), range, [&](const api::Deposit& d) { add(FromDeposit(d)); }, n, on_page);
      },
  };
  std::atomic<int> next{0};
  const auto work = [&] {
    for (int i = next++; i < kRangeLists; i = next++) statuses[i] = tasks[i](pages[i]);
  };
  const int threads = std::clamp(options.connections, 1, kRangeLists);
  std::vector<std::thread> readers;
  for (int i = 1; i < threads; ++i) readers.emplace_back(work);
  work();
  for (std::thread& reader : readers) reader.join();
  for (int i = 0; i < kRangeLists; ++i) {
    BALCAO_RETURN_IF_ERROR(statuses[i]);
    lists.counts_.range_pages += pages[i];
  }

  return lists;
}

void DayLists::AddEntity(BankEntity entity) {
  if (entity_ids_.insert(entity.id).second) entities_.push_back(std::move(entity));
}

void DayLists::AddTx(Tx tx) {
  if (tx.sale.empty() && tx.brcode_uuid.empty() && !In(tx.created, from_, to_)) return;
  if (tx_ids_.insert(tx.id).second) txs_.push_back(std::move(tx));
}

Status DayLists::LookUpBrcodes(const api::Bank& bank, const std::vector<std::string>& uuids) {
  for (const auto& batch : Batches(uuids)) {
    for (const std::string& uuid : batch) brcode_sale_.emplace(uuid, "");  // not found: no sale
    BALCAO_RETURN_IF_ERROR(ForEach(
        bank.dynamic_brcode(), ListParams().Filter("uuids", batch),
        [&](const api::DynamicBrcode& b) {
          const std::string uuid = b.uuid.value_or("");
          brcode_sale_[uuid] = SaleOfTags(b.tags);
          brcode_created_[uuid] = Created(b);
        },
        counts_.lookup_calls));
  }
  return OkStatus();
}

Status DayLists::LookUpSales(const api::Bank& bank, const std::vector<std::string>& sale_keys) {
  counts_.lookup_sales += static_cast<int>(sale_keys.size());
  const std::unordered_set<std::string> wanted(sale_keys.begin(), sale_keys.end());
  std::vector<std::string> tags;
  for (const std::string& key : sale_keys) tags.push_back(key);  // a key is the sale's tag
  int& calls = counts_.lookup_calls;
  for (const auto& batch : Batches(tags)) {
    const ListParams by_tags = ListParams().Filter("tags", batch);
    BALCAO_RETURN_IF_ERROR(ForEach(
        bank.merchant_purchase(), by_tags, [&](const api::MerchantPurchase& p) { AddEntity(FromPurchase(p)); }, calls));
    BALCAO_RETURN_IF_ERROR(ForEach(
        bank.invoice(), by_tags, [&](const api::Invoice& i) { AddEntity(FromInvoice(i)); }, calls));
    BALCAO_RETURN_IF_ERROR(ForEach(
        bank.dynamic_brcode(), by_tags,
        [&](const api::DynamicBrcode& b) {
          const std::string uuid = b.uuid.value_or("");
          brcode_sale_[uuid] = SaleOfTags(b.tags);
          brcode_created_[uuid] = Created(b);
        },
        calls));
    BALCAO_RETURN_IF_ERROR(ForEach(
        bank.transaction(), by_tags, [&](const api::Transaction& tx) { AddTx(TxOf(tx)); }, calls));
  }
  // Their brcodes' deposits and those deposits' ledger lines.
  std::vector<std::string> deposit_tags;
  for (const auto& [uuid, sale] : brcode_sale_) {
    if (wanted.count(sale)) deposit_tags.push_back(checkout::BrcodeDepositTag(uuid));
  }
  std::sort(deposit_tags.begin(), deposit_tags.end());
  for (const auto& batch : Batches(deposit_tags)) {
    const ListParams by_tags = ListParams().Filter("tags", batch);
    BALCAO_RETURN_IF_ERROR(ForEach(
        bank.deposit(), by_tags, [&](const api::Deposit& d) { AddEntity(FromDeposit(d)); }, calls));
    BALCAO_RETURN_IF_ERROR(ForEach(
        bank.transaction(), by_tags, [&](const api::Transaction& tx) { AddTx(TxOf(tx)); }, calls));
  }
  return OkStatus();
}

StatusOr<std::set<std::string>> DayLists::SalesWithDebits(const api::Bank& bank, const JournaledFn& journaled) {
  const auto debit_of_day = [&](const Tx& tx) { return tx.amount < 0 && In(tx.created, from_, to_); };
  std::vector<std::string> unknown;
  for (const Tx& tx : txs_) {
    if (debit_of_day(tx) && tx.sale.empty() && !tx.brcode_uuid.empty() && !brcode_sale_.count(tx.brcode_uuid)) {
      unknown.push_back(tx.brcode_uuid);
    }
  }
  std::sort(unknown.begin(), unknown.end());
  unknown.erase(std::unique(unknown.begin(), unknown.end()), unknown.end());
  BALCAO_RETURN_IF_ERROR(LookUpBrcodes(bank, unknown));
  std::set<std::string> sales, asked;
  for (const Tx& tx : txs_) {
    if (!debit_of_day(tx)) continue;
    const std::string key = !tx.sale.empty() ? tx.sale : tx.brcode_uuid.empty() ? "" : brcode_sale_[tx.brcode_uuid];
    const SaleKey sale = SplitSaleKey(key);
    if (sale.id.empty() || !OfThisBox(sale) || !asked.insert(key).second) continue;
    BALCAO_ASSIGN_OR_RETURN(bool known, journaled(sale.id));
    if (known) sales.insert(sale.id);
  }
  return sales;
}

// Deposits of the day whose brcode the lists do not have (a brcode shown before the day).
Status DayLists::LookUpDayDepositBrcodes(const api::Bank& bank) {
  std::vector<std::string> unknown;
  for (const BankEntity& e : entities_) {
    if (e.kind == BankKind::kDeposit && !e.brcode_uuid.empty() && !brcode_sale_.count(e.brcode_uuid) &&
        In(e.created, from_, to_)) {
      unknown.push_back(e.brcode_uuid);
    }
  }
  // And the day's ledger lines of deposits of earlier days (a Pix returned today): their sale,
  // and with it their lane, is their brcode's (DayLedger).
  for (const Tx& tx : txs_) {
    if (tx.sale.empty() && !tx.brcode_uuid.empty() && !brcode_sale_.count(tx.brcode_uuid) &&
        In(tx.created, from_, to_)) {
      unknown.push_back(tx.brcode_uuid);
    }
  }
  std::sort(unknown.begin(), unknown.end());
  unknown.erase(std::unique(unknown.begin(), unknown.end()), unknown.end());
  BALCAO_RETURN_IF_ERROR(LookUpBrcodes(bank, unknown));
  return OkStatus();
}

StatusOr<std::vector<BankEntity>> DayLists::DayEntities(const api::Bank& bank) {
  BALCAO_RETURN_IF_ERROR(LookUpDayDepositBrcodes(bank));
  std::unordered_map<std::string, std::pair<Cents, Cents>> lines;  // source -> (in, out)
  for (const Tx& tx : txs_) {
    auto& [in, out] = lines[tx.source];
    if (tx.amount >= 0) {
      in += tx.amount + tx.fee;
    } else {
      out += -tx.amount;
    }
  }
  std::vector<BankEntity> day;
  for (const BankEntity& e : entities_) {
    if (!In(e.created, from_, to_)) continue;
    BankEntity shown = e;
    std::string key = e.sale_id;
    if (e.kind == BankKind::kDeposit && !e.brcode_uuid.empty()) key = brcode_sale_[e.brcode_uuid];
    const SaleKey sale = SplitSaleKey(key);
    shown.sale_id = sale.id;
    shown.lane = sale.lane;
    if (auto it = lines.find(SourceOf(e)); it != lines.end()) {
      shown.ledger_in = it->second.first;
      shown.ledger_out = it->second.second;
    }
    day.push_back(std::move(shown));
  }
  return day;
}

std::vector<LedgerLine> DayLists::DayLedger() const {
  std::vector<LedgerLine> day;
  for (const Tx& tx : txs_) {
    if (!In(tx.created, from_, to_)) continue;
    std::string key = tx.sale;
    if (key.empty() && !tx.brcode_uuid.empty()) {
      if (auto it = brcode_sale_.find(tx.brcode_uuid); it != brcode_sale_.end()) key = it->second;
    }
    const SaleKey sale = SplitSaleKey(key);
    day.push_back({tx.source, tx.amount, tx.fee, tx.created, sale.lane, sale.id});
  }
  return day;
}

std::vector<LedgerLine> DayLists::LedgerSince() const {
  std::vector<LedgerLine> lines;
  lines.reserve(txs_.size());
  for (const Tx& tx : txs_) {
    const SaleKey sale = SplitSaleKey(tx.sale);
    lines.push_back({tx.source, tx.amount, tx.fee, tx.created, sale.lane, sale.id});
  }
  return lines;
}

// The sales the range cannot hold are looked up by tag, and the day's deposits whose
// brcode the lists lack by brcode; each deposit then takes its brcode's sale.
Status DayLists::CompleteScope(const api::Bank& bank, const std::vector<ScopeSale>& sales) {
  std::vector<std::string> before_range;
  for (const ScopeSale& sale : sales) {
    if (sale.before_range) before_range.push_back(Lower(checkout::SaleTag(sale.lane, sale.id)));
  }
  BALCAO_RETURN_IF_ERROR(LookUpSales(bank, before_range));
  BALCAO_RETURN_IF_ERROR(LookUpDayDepositBrcodes(bank));
  for (BankEntity& e : entities_) {
    if (e.kind != BankKind::kDeposit || e.brcode_uuid.empty()) continue;
    auto it = brcode_sale_.find(e.brcode_uuid);
    if (it != brcode_sale_.end()) e.sale_id = it->second;
  }
  return OkStatus();
}

// The sales' entities, sale by sale in scope order: purchases, invoices, then deposits by
// brcode (newest brcode first), each kind newest first as the bank lists them.
void DayLists::AddSalesEntities(const std::vector<ScopeSale>& sales, BankDay& day,
                                std::unordered_set<std::string>& known_ids) {
  std::unordered_map<std::string, std::size_t> scope;  // sale key -> position in `sales`
  for (std::size_t i = 0; i < sales.size(); ++i) scope.emplace(Lower(checkout::SaleTag(sales[i].lane, sales[i].id)), i);
  std::vector<std::vector<const BankEntity*>> of_sale(sales.size());
  for (const BankEntity& e : entities_) {
    if (e.sale_id.empty()) continue;
    auto it = scope.find(e.sale_id);
    if (it != scope.end()) of_sale[it->second].push_back(&e);
  }
  for (std::size_t i = 0; i < sales.size(); ++i) {
    std::vector<const BankEntity*>& mine = of_sale[i];
    std::stable_sort(mine.begin(), mine.end(), [&](const BankEntity* a, const BankEntity* b) {
      if (a->kind != b->kind) {
        const auto rank = [](BankKind k) { return k == BankKind::kPurchase ? 0 : k == BankKind::kInvoice ? 1 : 2; };
        return rank(a->kind) < rank(b->kind);
      }
      if (a->kind == BankKind::kDeposit && a->brcode_uuid != b->brcode_uuid) {
        return brcode_created_[a->brcode_uuid] > brcode_created_[b->brcode_uuid];
      }
      return a->created > b->created;
    });
    for (const BankEntity* e : mine) {
      day.entities.push_back(*e);
      day.entities.back().sale_id = sales[i].id;
      day.entities.back().lane = sales[i].lane;
      known_ids.insert(e->id);
    }
  }
}

// Each entity's ledger lines: what it received (fees added back) and gave back.
void DayLists::AddLedgerLines(BankDay& day) const {
  std::unordered_map<std::string, std::pair<Cents, Cents>> lines;
  for (const Tx& tx : txs_) {
    if (tx.sale.empty() && tx.brcode_uuid.empty()) continue;
    auto& [in, out] = lines[tx.source];
    if (tx.amount >= 0) {
      in += tx.amount + tx.fee;
    } else {
      out += -tx.amount;
    }
  }
  for (BankEntity& e : day.entities) {
    auto it = lines.find(SourceOf(e));
    if (it == lines.end()) continue;
    e.ledger_in = it->second.first;
    e.ledger_out = it->second.second;
  }
}

// Created in the day and not of a sale in scope: another lane's (listed as such), or an
// orphan, tagged for a sale the journal does not have.
Status DayLists::AddOutOfScope(BankDay& day, const std::unordered_set<std::string>& known_ids,
                               const JournaledFn& journaled) const {
  std::map<std::string, bool> journaled_cache;
  for (BankKind kind : {BankKind::kPurchase, BankKind::kInvoice, BankKind::kDeposit}) {
    for (const BankEntity& e : entities_) {
      if (e.kind != kind || e.sale_id.empty() || !In(e.created, from_, to_) || known_ids.count(e.id)) continue;
      const SaleKey sale = SplitSaleKey(e.sale_id);
      BankEntity shown = e;
      shown.sale_id = sale.id;
      shown.lane = sale.lane;
      if (!OfThisBox(sale) || sale.id.empty()) {  // another lane's, or this lane's of no sale
        day.entities.push_back(std::move(shown));
        continue;
      }
      auto it = journaled_cache.find(sale.id);
      if (it == journaled_cache.end()) {
        BALCAO_ASSIGN_OR_RETURN(bool known, journaled(sale.id));
        it = journaled_cache.emplace(sale.id, known).first;
      }
      if (!it->second) day.entities.push_back(std::move(shown));
    }
  }
  return OkStatus();
}

// The day's ledger: its transactions, and the part whose source is an entity of a sale.
void DayLists::CountLedger(BankDay& day, const std::unordered_set<std::string>& known_ids) const {
  std::unordered_set<std::string> sale_sources;
  for (const BankEntity& e : day.entities) {
    if (known_ids.count(e.id)) sale_sources.insert(SourceOf(e));
  }
  day.ledger.known = true;
  for (const Tx& tx : txs_) {
    if (!In(tx.created, from_, to_)) continue;
    ++day.ledger.count;
    (tx.amount >= 0 ? day.ledger.credits : day.ledger.debits) += tx.amount >= 0 ? tx.amount : -tx.amount;
    if (sale_sources.count(tx.source)) day.ledger.sales_net += tx.amount;
  }
}

StatusOr<BankDay> DayLists::Assemble(const api::Bank& bank, const std::vector<ScopeSale>& sales,
                                     const JournaledFn& journaled) {
  BALCAO_RETURN_IF_ERROR(CompleteScope(bank, sales));
  BankDay day;
  std::unordered_set<std::string> known_ids;  // the ids of the sales' entities
  AddSalesEntities(sales, day, known_ids);
  AddLedgerLines(day);
  BALCAO_RETURN_IF_ERROR(AddOutOfScope(day, known_ids, journaled));
  CountLedger(day, known_ids);
  BALCAO_ASSIGN_OR_RETURN(api::Balance balance, bank.GetBalance());
  day.ledger.balance_known = true;
  day.ledger.balance = balance.amount.value_or(0);
  return day;
}

}  // namespace balcao::settlement::internal
