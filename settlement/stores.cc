#include "settlement/stores.h"

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>

#include "checkout/types.h"
#include "common/money.h"
#include "settlement/words.h"

namespace balcao::settlement {
namespace {

using ordered_json = nlohmann::ordered_json;

ordered_json EntityJson(const BankEntity& e) {
  return {{"kind", BankKindName(e.kind)}, {"id", e.id},        {"sale_id", e.sale_id}, {"status", e.status},
          {"amount", e.amount},           {"held", HeldBy(e)}, {"party", e.party},     {"lane", e.lane}};
}
ordered_json EntitiesJson(const std::vector<BankEntity>& entities) {
  ordered_json list = ordered_json::array();
  for (const BankEntity& e : entities) list.push_back(EntityJson(e));
  return list;
}

const LaneRecord* RecordOf(const AccountDay& account, const std::string& lane) {
  for (const LaneRecord& r : account.records)
    if (r.lane == lane) return &r;
  return nullptr;
}

std::string MethodOf(const BankEntity& e) {
  switch (e.kind) {
    case BankKind::kPurchase:
      return e.funding == "debit" ? "debit" : "credit";
    case BankKind::kInvoice:
      return "invoice";
    case BankKind::kDeposit:
      return "pix";
  }
  return "";
}

LaneDay EmptyLane(const std::string& store, const std::string& terminal) {
  LaneDay lane{store, terminal};
  for (const char* method : {"credit", "debit", "pix", "invoice"}) lane.methods.push_back({method});
  lane.total.method = "total";
  return lane;
}

void Add(MethodTotal& into, const MethodTotal& part) {
  into.count += part.count;
  into.gross += part.gross;
  into.refund_count += part.refund_count;
  into.refunds += part.refunds;
}

ordered_json TotalJson(const MethodTotal& t) {
  return {{"method", t.method},   {"count", t.count}, {"gross", t.gross}, {"refund_count", t.refund_count},
          {"refunds", t.refunds}, {"net", t.net()}};
}
ordered_json LaneJson(const LaneDay& lane) {
  ordered_json methods = ordered_json::array();
  for (const MethodTotal& t : lane.methods) methods.push_back(TotalJson(t));
  ordered_json doc = {
      {"store", lane.store}, {"terminal", lane.terminal}, {"sales", lane.sales}, {"entities", lane.entities}};
  doc["methods"] = std::move(methods);
  doc["total"] = TotalJson(lane.total);
  doc["held"] = lane.held;
  doc["awaiting_capture"] = lane.awaiting_capture;
  doc["matches_ledger"] = lane.matches_ledger();
  doc["day_ledger"] = lane.day_ledger;
  doc["earlier_net"] = lane.earlier_net;
  doc["earlier_lines"] = lane.earlier_lines;
  doc["unexplained"] = EntitiesJson(lane.unexplained);
  return doc;
}
ordered_json StoreJson(const StoreDay& store) {
  ordered_json lanes = ordered_json::array();
  for (const LaneDay& lane : store.lanes) lanes.push_back(LaneJson(lane));
  ordered_json doc = {{"store", store.sum.store}};
  doc["lanes"] = std::move(lanes);
  doc["sum"] = LaneJson(store.sum);
  doc["ledger_net"] = store.ledger_net;
  doc["matches_ledger"] = store.matches_ledger;
  return doc;
}

std::string Pad(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text + " ";
}
std::string Brl(Cents cents) { return FormatBrl(cents); }

void LaneLines(std::string& out, const LaneDay& lane, const std::string& name, Lang l) {
  out += "  " + Pad(name, 22) + Pad(std::to_string(lane.sales) + Say(l, " vendas", " sales"), 11);
  for (const MethodTotal& t : lane.methods) out += Pad(MethodWords(t.method, l) + " " + Brl(t.net()), 19);
  out += Say(l, "líquido ", "net ") + Brl(lane.total.net()) +
         (lane.total.refunds > 0 ? Say(l, " (devolvido ", " (given back ") + Brl(lane.total.refunds) + ")" : "") +
         (lane.matches_ledger() ? "" : Say(l, "  ! o banco tem ", "  ! bank holds ") + Brl(lane.held)) + "\n";
  if (lane.awaiting_capture > 0)
    out += "      " + std::to_string(lane.awaiting_capture) +
           Say(l, " compra(s) no cartão aprovada(s), ainda não capturada(s)\n",
               " card purchases approved, not captured yet\n");
}

}  // namespace

StatusOr<LaneRecord> LaneRecordOf(const std::string& lane, const std::string& report_json) {
  const nlohmann::json doc = nlohmann::json::parse(report_json, nullptr, false);
  if (!doc.is_object()) return InvalidArgumentError("the lane's settlement record: not a JSON object");
  LaneRecord record{lane, doc.value("status", "") == "reconciled", doc.value("attention", 0)};
  if (auto d = doc.find("difference"); d != doc.end() && d->is_object()) {
    record.journal = d->value("journal", Cents{0});
    record.bank = d->value("bank", Cents{0});
  } else if (auto t = doc.find("total"); t != doc.end() && t->is_object()) {
    record.journal = record.bank = t->value("net", Cents{0});  // a record from before the difference line
  }
  return record;
}

int ItemsToLookAt(const AccountDay& account, const std::string& store_id) {
  int items = static_cast<int>(account.unclaimed.size());
  for (const StoreDay& store : account.stores) {
    if (!store_id.empty() && store.sum.store != store_id) continue;
    items += !store.matches_ledger + static_cast<int>(store.sum.unexplained.size());
    for (const LaneDay& lane : store.lanes) {
      const LaneRecord* record = RecordOf(account, checkout::LaneRoot(lane.store, lane.terminal));
      items += record != nullptr && !record->reconciled;
    }
  }
  return items;
}

std::pair<std::string, std::string> SplitLaneRoot(const std::string& lane) {
  if (!lane.starts_with(checkout::kStoreTagPrefix)) return {"", ""};
  const std::string rest = lane.substr(checkout::kStoreTagPrefix.size());
  const auto at = rest.find(checkout::kLaneTagInfix);
  if (at == std::string::npos) return {rest, ""};
  return {rest.substr(0, at), rest.substr(at + checkout::kLaneTagInfix.size())};
}

AccountDay GroupByLane(const std::string& day, const std::vector<BankEntity>& entities,
                       const std::vector<LedgerLine>& ledger) {
  AccountDay account;
  account.day = day;
  std::map<std::string, std::map<std::string, LaneDay>> stores;                // store -> terminal -> day
  std::map<std::string, std::set<std::string>> sales_of;                       // lane root -> its sales
  std::set<std::tuple<std::string, std::string, std::string>> paid, refunded;  // (lane, method, sale)
  std::map<std::string, std::string> lane_of_source;                           // ledger source -> lane root
  for (const BankEntity& e : entities) {
    if (e.lane.empty()) {
      account.unclaimed.push_back(e);
      continue;
    }
    const auto [store_id, terminal] = SplitLaneRoot(e.lane);
    auto& lanes = stores[store_id];
    LaneDay& lane = lanes.try_emplace(terminal, EmptyLane(store_id, terminal)).first->second;
    lane_of_source[SourceOf(e)] = e.lane;
    ++lane.entities;
    if (sales_of[e.lane].insert(e.sale_id).second) ++lane.sales;
    lane.held += HeldBy(e);
    lane.awaiting_capture += AwaitingCapture(e);
    if (e.sale_id.empty()) lane.unexplained.push_back(e);
    for (MethodTotal& t : lane.methods) {
      if (t.method != MethodOf(e)) continue;
      // Sales, not entities: a sale's second attempt by the same method counts once.
      t.count += e.ledger_in > 0 && paid.emplace(e.lane, t.method, e.sale_id).second;
      t.gross += e.ledger_in;
      t.refund_count += e.ledger_out > 0 && refunded.emplace(e.lane, t.method, e.sale_id).second;
      t.refunds += e.ledger_out;
    }
  }
  std::map<std::string, Cents> store_ledger;
  for (const LedgerLine& line : ledger) {
    ++account.ledger_count;
    (line.amount >= 0 ? account.ledger_credits : account.ledger_debits) +=
        line.amount >= 0 ? line.amount : -line.amount;
    const Cents net = line.amount + (line.amount >= 0 ? line.fee : 0);
    const auto of_entity = lane_of_source.find(line.source);
    const std::string& lane_root = of_entity != lane_of_source.end() ? of_entity->second : line.lane;
    const auto [store_id, terminal] = SplitLaneRoot(lane_root);
    if (store_id.empty()) {
      account.ledger_unclaimed += line.amount;
      continue;
    }
    LaneDay& lane = stores[store_id].try_emplace(terminal, EmptyLane(store_id, terminal)).first->second;
    lane.day_ledger += net;
    if (of_entity != lane_of_source.end()) {
      store_ledger[store_id] += net;
    } else {  // a sale of an earlier day: its money reached the ledger today
      lane.earlier_net += net;
      ++lane.earlier_lines;
    }
  }
  for (auto& [store_id, lanes] : stores) {
    StoreDay store;
    store.sum = EmptyLane(store_id, "");
    for (auto& [terminal, lane] : lanes) {
      for (MethodTotal& t : lane.methods) Add(lane.total, t);
      lane.total.method = "total";
      store.sum.sales += lane.sales;
      store.sum.entities += lane.entities;
      store.sum.held += lane.held;
      store.sum.awaiting_capture += lane.awaiting_capture;
      store.sum.day_ledger += lane.day_ledger;
      store.sum.earlier_net += lane.earlier_net;
      store.sum.earlier_lines += lane.earlier_lines;
      store.sum.unexplained.insert(store.sum.unexplained.end(), lane.unexplained.begin(), lane.unexplained.end());
      for (std::size_t i = 0; i < lane.methods.size(); ++i) Add(store.sum.methods[i], lane.methods[i]);
      Add(store.sum.total, lane.total);
      store.lanes.push_back(lane);
    }
    store.ledger_net = store_ledger[store_id];
    store.matches_ledger = store.sum.matches_ledger() && store.sum.total.net() == store.ledger_net;
    account.stores.push_back(std::move(store));
  }
  return account;
}

const StoreDay* FindStore(const AccountDay& account, const std::string& store_id) {
  for (const StoreDay& store : account.stores) {
    if (store.sum.store == store_id) return &store;
  }
  return nullptr;
}

std::string StoresJson(const AccountDay& account, const std::string& store_id) {
  ordered_json doc = {{"day", account.day}};
  if (!store_id.empty()) {
    const StoreDay* store = FindStore(account, store_id);
    doc["store"] = store ? StoreJson(*store) : StoreJson(StoreDay{EmptyLane(store_id, "")});
  } else {
    ordered_json stores = ordered_json::array();
    for (const StoreDay& store : account.stores) stores.push_back(StoreJson(store));
    doc["stores"] = std::move(stores);
  }
  doc["ledger"] = {{"count", account.ledger_count},
                   {"credits", account.ledger_credits},
                   {"debits", account.ledger_debits},
                   {"unclaimed_net", account.ledger_unclaimed}};
  ordered_json unclaimed = ordered_json::array();
  for (const BankEntity& e : account.unclaimed) unclaimed.push_back(EntityJson(e));
  doc["unclaimed"] = std::move(unclaimed);
  ordered_json records = ordered_json::array();
  for (const LaneRecord& r : account.records)
    records.push_back({{"lane", r.lane},
                       {"status", r.reconciled ? "reconciled" : "attention"},
                       {"attention", r.attention},
                       {"journal", r.journal},
                       {"bank", r.bank}});
  doc["lane_records"] = std::move(records);
  doc["to_look_at"] = ItemsToLookAt(account, store_id);
  doc["status"] = doc["to_look_at"] == 0 ? "reconciled" : "attention";
  return doc.dump(2) + "\n";
}

std::string StoresText(const AccountDay& account, const std::string& store_id) {
  const Lang l = account.lang;
  const int items = ItemsToLookAt(account, store_id);
  std::string out = Say(l, "Fechamento de ", "Settlement of ") + account.day +
                    (store_id.empty() ? Say(l, ", a conta inteira", ", the whole account")
                                      : Say(l, ", loja ", ", store ") + store_id) +
                    "\n";
  out += items == 0 ? Say(l, "CONCILIADO: cada caixa soma o seu extrato, cada item no banco é venda de um caixa\n\n",
                          "RECONCILED: every lane sums to its ledger, every entity is a lane's sale\n\n")
                    : Say(l, "ATENÇÃO: ", "ATTENTION: ") + std::to_string(items) +
                          Say(l, " item(ns) a verificar (marcados com !)\n\n", " item(s) to look at (marked !)\n\n");
  const auto store_lines = [&](const StoreDay& store) {
    out += Say(l, "Loja ", "Store ") + store.sum.store + ": " + std::to_string(store.lanes.size()) +
           (store.lanes.size() == 1 ? Say(l, " caixa\n", " lane\n") : Say(l, " caixas\n", " lanes\n"));
    for (const LaneDay& lane : store.lanes) LaneLines(out, lane, Say(l, "caixa ", "lane ") + lane.terminal, l);
    LaneLines(out, store.sum, Say(l, "total da loja", "store total"), l);
    out += std::string(store.matches_ledger ? "  " : "! ") +
           Say(l, "o extrato do banco para os seus itens: ", "the bank's ledger for its entities: ") +
           Brl(store.ledger_net) +
           (store.matches_ledger ? Say(l, " (confere)", " (matches)") : Say(l, " (não confere)", " (does not match)")) +
           "\n";
    if (store.sum.earlier_lines > 0)
      out +=
          Say(l,
              "  de vendas de dias anteriores, no extrato do dia: ", "  earlier days' sales, in the day's ledger: ") +
          Brl(store.sum.earlier_net) + " (" + std::to_string(store.sum.earlier_lines) +
          Say(l, " lançamento(s))\n", " line(s))\n");
    for (const BankEntity& e : store.sum.unexplained)
      out += "! " + e.lane + ": " + DescribeEntity(e, l) +
             Say(l, ": etiquetas do caixa, nenhuma venda do caixa", ": the lane's tags, no sale of the lane") + "\n";
    for (const LaneDay& lane : store.lanes) {
      const LaneRecord* r = RecordOf(account, checkout::LaneRoot(lane.store, lane.terminal));
      if (r == nullptr) continue;
      out += std::string(r->reconciled ? "  " : "! ") + Say(l, "fechamento do caixa ", "lane ") + lane.terminal +
             Say(l, " neste aparelho: ", "'s night on this box: ") +
             (r->reconciled ? Say(l, "conciliado", "reconciled")
                            : std::to_string(r->attention) + Say(l, " item(ns) a verificar", " item(s) to look at")) +
             Say(l, "; banco ", "; bank ") + Brl(r->bank) + Say(l, ", diário do caixa ", ", journal ") +
             Brl(r->journal) + Say(l, ", diferença ", ", difference ") + Brl(r->bank - r->journal) + "\n";
    }
    out += "\n";
  };
  if (!store_id.empty()) {
    if (const StoreDay* store = FindStore(account, store_id)) {
      store_lines(*store);
    } else {
      out +=
          Say(l, "Loja ", "Store ") + store_id + Say(l, ": nada no banco neste dia\n\n", ": no entity in the day\n\n");
    }
  } else {
    for (const StoreDay& store : account.stores) store_lines(store);
  }
  out += Say(l, "O extrato da conta no dia: ", "The account's ledger for the day: ") +
         std::to_string(account.ledger_count) + Say(l, " lançamentos, entradas ", " lines, in ") +
         Brl(account.ledger_credits) + Say(l, ", saídas ", ", out ") + Brl(account.ledger_debits) +
         Say(l, "; de nenhum caixa: ", "; of no lane: ") + Brl(account.ledger_unclaimed) + "\n";
  if (!account.unclaimed.empty()) {
    out += Say(l, "! Itens que nenhum caixa reconhece (", "! Entities no lane claims (") +
           std::to_string(account.unclaimed.size()) + ")\n";
    for (const BankEntity& e : account.unclaimed)
      out += "    " + DescribeEntity(e, l) +
             (e.sale_id.empty() ? ""
                                : Say(l, ", da venda ", ", for sale ") + e.sale_id +
                                      Say(l, " (antes dos caixas)", " (before lanes)")) +
             "\n";
  }
  return out;
}

}  // namespace balcao::settlement
