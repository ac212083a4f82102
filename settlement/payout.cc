#include "settlement/payout.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "common/money.h"
#include "settlement/words.h"

namespace balcao::settlement {
namespace {

using api::ListParams;
using nlohmann::ordered_json;

// The transfer of this store's day at the bank, if any (the externalId is also its tag).
StatusOr<std::optional<api::Transfer>> FindTransfer(const api::Bank& bank, const std::string& external_id) {
  for (StatusOr<api::Transfer>& item : bank.transfer().List(ListParams().Filter("tags", external_id))) {
    if (!item.ok()) return item.status();
    if (item->external_id.value_or("") == external_id) return std::optional<api::Transfer>(*std::move(item));
  }
  return std::optional<api::Transfer>();
}

Payout Found(Payout payout, const api::Transfer& transfer) {
  payout.status = "found";
  payout.transfer_id = transfer.id.value_or("");
  payout.transfer_status = transfer.status.value_or("");
  payout.amount = transfer.amount.value_or(0);
  payout.reason = {"o banco já tem a transferência deste dia, de uma execução anterior: não foi enviada de novo",
                   "the bank has this day's transfer from an earlier run: not sent again"};
  return payout;
}

// A create whose answer was lost, found at the bank by its externalId.
Words AnswerLost() {
  return {"a resposta do banco se perdeu; a transferência foi achada pelo seu externalId",
          "the bank's answer was lost; the transfer was found by its externalId"};
}

std::string DueDay(const std::optional<api::Timestamp>& t) { return t ? BusinessDayOf(t->micros) : ""; }

std::string SaleOfTags(const std::optional<std::vector<std::string>>& tags) {
  if (!tags) return "";
  for (const std::string& tag : *tags) {
    if (tag.rfind("sale/", 0) == 0 && tag.find('/', 5) == std::string::npos) return tag.substr(5);
  }
  return "";
}

}  // namespace

std::string PayoutExternalId(const std::string& store, const std::string& day, const std::string& terminal) {
  return "balcao-payout-" + store + (terminal.empty() ? "" : "/lane/" + terminal) + "-" + day;
}

StatusOr<Payout> RunPayout(const api::Bank& bank, const PayoutSettings& settings, const PayoutInput& input) {
  Payout payout;
  if (!settings.enabled) return payout;
  payout.external_id = input.external_id.empty() ? PayoutExternalId(settings.store, input.day) : input.external_id;
  if (!input.reconciled) {
    payout.status = "withheld";
    payout.reason = input.withheld_why.empty() ? Words{"o dia não concilia: nada é repassado até conciliar",
                                                       "the day does not reconcile: nothing is paid out until it does"}
                                               : input.withheld_why;
    return payout;
  }
  // Asked first: an earlier run may have sent it and died before its record.
  BALCAO_ASSIGN_OR_RETURN(std::optional<api::Transfer> earlier, FindTransfer(bank, payout.external_id));
  if (earlier) return Found(payout, *earlier);

  std::int64_t balance = input.balance;
  if (!input.balance_known) {
    BALCAO_ASSIGN_OR_RETURN(api::Balance now, bank.GetBalance());
    balance = now.amount.value_or(0);
  }
  if (settings.keep_balance_cents >= 0) {
    payout.amount = balance - settings.keep_balance_cents;
    const std::string kept = FormatBrl(settings.keep_balance_cents);
    payout.reason = {"tudo acima do saldo mantido (" + kept + ")", "everything above the balance kept (" + kept + ")"};
  } else {
    // Never more than the account holds (what reached the balance: docs/settlement.md).
    payout.amount = std::min(input.day_net, balance);
    const std::string net = FormatBrl(input.day_net), held = FormatBrl(balance);
    payout.reason = payout.amount < input.day_net ? Words{"o líquido do dia é " + net + "; o saldo tem " + held,
                                                          "the day's net is " + net + "; the balance holds " + held}
                                                  : Words{"o líquido do dia", "the day's net"};
  }
  if (payout.amount <= 0) {
    payout.status = "nothing";
    payout.amount = 0;
    payout.reason = settings.keep_balance_cents >= 0
                        ? Words{"o saldo não passa do que é mantido", "the balance is not above what is kept"}
                        : Words{"nem líquido nem saldo a enviar", "no net and no balance to send"};
    return payout;
  }
  if (input.dry_run) {
    payout.status = "dry-run";
    return payout;
  }

  const PayoutAccount& a = settings.account;
  api::Transfer transfer;
  transfer.amount = payout.amount;
  transfer.name = a.name;
  transfer.tax_id = a.tax_id;
  transfer.bank_code = a.bank_code;
  transfer.branch_code = a.branch_code;
  transfer.account_number = a.account_number;
  transfer.account_type = a.account_type;
  transfer.external_id = payout.external_id;
  transfer.tags = std::vector<std::string>{payout.external_id};
  transfer.description = "Balcao " + settings.store + " " + input.day;
  auto made = bank.transfer().CreateOne(transfer);
  if (made.ok()) {
    payout.status = "sent";
    payout.transfer_id = made->id.value_or("");
    payout.transfer_status = made->status.value_or("");
    return payout;
  }
  // The answer was lost, or the bank says the externalId is taken (a run alongside this one):
  // what the bank has decides.
  if (made.status().delivery() == Delivery::kOutcomeUnknown || made.status().HasErrorCode("invalidExternalId")) {
    BALCAO_ASSIGN_OR_RETURN(std::optional<api::Transfer> there, FindTransfer(bank, payout.external_id));
    if (there) {
      Payout sent = Found(payout, *there);
      if (made.status().delivery() == Delivery::kOutcomeUnknown) {
        sent.status = "sent";
        sent.reason = AnswerLost();
      }
      return sent;
    }
  }
  return Status(made.status().code(), "payout " + payout.external_id + ": " + made.status().message(),
                made.status().detail());
}

StatusOr<std::vector<Receivable>> ReadReceivables(const api::Bank& bank, const std::vector<std::string>& purchase_ids,
                                                  UnixMicros from) {
  std::vector<Receivable> out;
  if (purchase_ids.empty()) return out;
  const std::set<std::string> wanted(purchase_ids.begin(), purchase_ids.end());
  // Installments are made when their purchase is approved: from the day on.
  for (StatusOr<api::MerchantInstallment>& item :
       bank.merchant_installment().List(ListParams().Filter("after", FormatDate(from)))) {
    if (!item.ok()) return item.status();
    const std::string purchase = item->purchase_id.value_or("");
    if (!wanted.count(purchase)) continue;
    const std::string status = item->status.value_or("");
    if (status == "canceled" || status == "voided") continue;
    out.push_back({purchase, SaleOfTags(item->tags), item->funding_type.value_or(""), item->network.value_or(""),
                   item->amount.value_or(0), item->fee.value_or(0), DueDay(item->due), status});
  }
  std::sort(out.begin(), out.end(), [](const Receivable& a, const Receivable& b) {
    return std::tie(a.due, a.purchase_id, a.amount) < std::tie(b.due, b.purchase_id, b.amount);
  });
  return out;
}

std::string PayoutJson(const Payout& payout, Lang l) {
  ordered_json doc = {{"status", payout.status},
                      {"amount", payout.amount},
                      {"external_id", payout.external_id},
                      {"transfer_id", payout.transfer_id},
                      {"transfer_status", payout.transfer_status},
                      {"reason", Say(l, payout.reason)},
                      {"scope", payout.scope}};
  if (payout.scope == "store") {
    doc["store_net"] = payout.store_net;
    doc["earlier_net"] = payout.earlier_net;
    doc["lanes"] = payout.lanes;
    doc["lane"] = payout.lane;
    doc["lane_share"] = payout.lane_share;
    ordered_json withheld_for = ordered_json::array();
    for (const Words& why : payout.withheld_for) withheld_for.push_back(Say(l, why));
    doc["withheld_for"] = withheld_for;
  }
  return doc.dump();
}

std::string WithMoneyOut(const std::string& report_json, const Payout& payout,
                         const std::vector<Receivable>& receivables, Lang l) {
  ordered_json doc = ordered_json::parse(report_json, nullptr, false);
  if (doc.is_discarded()) return report_json;
  doc["payout"] = nlohmann::ordered_json::parse(PayoutJson(payout, l));
  ordered_json list = ordered_json::array();
  std::map<std::string, std::int64_t> by_due;
  std::int64_t total = 0;
  for (const Receivable& r : receivables) {
    list.push_back({{"purchase_id", r.purchase_id},
                    {"sale_id", r.sale_id},
                    {"funding", r.funding},
                    {"network", r.network},
                    {"amount", r.amount},
                    {"fee", r.fee},
                    {"net", r.amount - r.fee},
                    {"due", r.due},
                    {"status", r.status}});
    by_due[r.due] += r.amount - r.fee;
    total += r.amount - r.fee;
  }
  ordered_json schedule = ordered_json::array();
  for (const auto& [due, net] : by_due) schedule.push_back({{"due", due}, {"net", net}});
  doc["receivables"] = {{"total_net", total}, {"by_due", schedule}, {"installments", list}};
  return doc.dump();
}

std::string PayoutText(const Payout& payout, Lang l) {
  static const std::map<std::string, std::pair<const char*, const char*>> kStatus = {
      {"sent", {"enviado", "sent"}},
      {"found", {"já enviado", "found"}},
      {"withheld", {"RETIDO", "withheld"}},
      {"nothing", {"nada a repassar", "nothing"}},
      {"dry-run", {"simulação", "dry-run"}}};
  std::string text;
  if (payout.status == "off") {
    text += Say(l, "Repasse: não configurado\n", "Payout: not configured\n");
  } else {
    const auto status = kStatus.find(payout.status);
    text +=
        (payout.scope == "store" ? Say(l, "Repasse da loja (", "Store payout (") : Say(l, "Repasse (", "Payout (")) +
        payout.external_id + "): " +
        (status == kStatus.end() ? payout.status
         : l == Lang::kPtBr      ? status->second.first
                                 : status->second.second);
    if (payout.amount > 0) text += " " + FormatBrl(payout.amount);
    if (!payout.transfer_id.empty()) text += Say(l, ", transferência ", ", transfer ") + payout.transfer_id;
    if (!payout.reason.empty()) text += " (" + Say(l, payout.reason) + ")";
    text += "\n";
    if (payout.scope == "store") {
      text += Say(l, "  líquido da loja no extrato do dia, ", "  the store's net in the day's ledger, ") +
              std::to_string(payout.lanes) + Say(l, " caixa(s): ", " lane(s): ") + FormatBrl(payout.store_net);
      if (payout.earlier_net != 0)
        text += Say(l, " (", " (") + FormatBrl(payout.earlier_net) +
                Say(l, " de vendas de dias anteriores)", " of earlier days' sales)");
      if (!payout.lane.empty())
        text += Say(l, "; parte deste caixa (", "; this lane's (") + payout.lane + Say(l, ") ", ") share ") +
                FormatBrl(payout.lane_share);
      text += "\n";
      for (const Words& why : payout.withheld_for)
        text += Say(l, "  ! retido: ", "  ! withheld: ") + Say(l, why) + "\n";
    }
  }
  return text;
}

std::string MoneyOutText(const Payout& payout, const std::vector<Receivable>& receivables, Lang l) {
  std::string text = PayoutText(payout, l);
  std::map<std::string, std::int64_t> by_due;
  std::int64_t total = 0;
  for (const Receivable& r : receivables) {
    by_due[r.due] += r.amount - r.fee;
    total += r.amount - r.fee;
  }
  text += Say(l, "Cartões do dia a receber: ", "Card receivables of the day: ") + FormatBrl(total) +
          Say(l, " líquido em ", " net in ") + std::to_string(receivables.size()) +
          Say(l, " parcela(s) (agenda do banco; já nos totais, não contado de novo)\n",
              " installment(s) (the bank's schedule; already in the totals, not counted again)\n");
  for (const auto& [due, net] : by_due) text += "  " + due + "  " + FormatBrl(net) + "\n";
  return text;
}

void AddMoneyOutToSummary(const std::string& report_json, printer::DaySummary& summary) {
  const nlohmann::json doc = nlohmann::json::parse(report_json, nullptr, false);
  if (!doc.is_object()) return;
  if (auto p = doc.find("payout"); p != doc.end() && p->is_object()) {
    summary.payout_status = p->value("status", "");
    summary.payout_cents = p->value("amount", std::int64_t{0});
    if (auto w = p->find("withheld_for"); w != p->end() && w->is_array())
      for (const auto& why : *w)
        if (why.is_string()) summary.withheld_for.push_back(why.get<std::string>());
  }
  if (auto r = doc.find("receivables"); r != doc.end() && r->is_object() && r->contains("by_due")) {
    for (const auto& due : (*r)["by_due"])
      if (due.is_object()) summary.receivables.push_back({due.value("due", ""), due.value("net", std::int64_t{0})});
  }
}

}  // namespace balcao::settlement
