// Deposits: passive cash-ins (simulation POST /sandbox/deposit, dynamic brcode payments),
// with partial and full reversal by PATCH {amount} (API documentation, part 1, "Deposit").
#include <algorithm>

#include "api/formats/end_to_end_id.h"
#include "common/money.h"
#include "sandbox/internal/artifacts.h"
#include "sandbox/internal/family.h"
#include "sandbox/internal/payer.h"

namespace balcao::sandbox::internal {

Payer ReadPayer(Context& ctx, Reader& in) {
  Payer p;
  if (auto v = in.String("name", Need::kOptional, "invalidName", 1, 200)) p.name = *v;
  if (auto v = in.TaxId("taxId", Need::kOptional)) p.tax_id = *v;
  if (auto v = in.String("bankCode", Need::kOptional, "invalidBankCode", 3, 8)) p.bank_code = *v;
  if (auto v = in.String("branchCode", Need::kOptional, "invalidBranchCode", 1, 10)) p.branch_code = *v;
  if (auto v = in.String("accountNumber", Need::kOptional, "invalidAccountNumber", 1, 20)) p.account_number = *v;
  if (auto v =
          in.Enum("accountType", Need::kOptional, {"checking", "savings", "salary", "payment"}, "invalidAccountType"))
    p.account_type = *v;
  std::string ispb = p.bank_code.size() == 8 ? p.bank_code : "20018183";
  std::string seq = ctx.NewUuid().substr(0, 11);
  auto e2e = formats::BuildEndToEndId(ispb, ctx.Now(), seq);
  p.end_to_end_id = e2e.ok() ? *e2e : "E" + ispb + seq;
  return p;
}

Json PayerJson(const Payer& p, std::int64_t amount, const std::string& method) {
  return {{"accountNumber", p.account_number},
          {"accountType", p.account_type},
          {"amount", amount},
          {"bankCode", p.bank_code},
          {"branchCode", p.branch_code},
          {"endToEndId", p.end_to_end_id},
          {"method", method},
          {"name", p.name},
          {"taxId", p.tax_id}};
}

bool PayerAllowed(Context& ctx, const Json& rules, const Payer& payer, Problems& problems) {
  std::vector<std::string> allowed;
  if (rules.is_array())
    for (const auto& r : rules)
      if (r.value("key", "") == "allowedTaxIds" && r.contains("value") && r["value"].is_array())
        for (const auto& t : r["value"])
          if (t.is_string()) allowed.push_back(TaxIdDigits(t.get<std::string>()));
  if (auto ws = ctx.Find("workspace", ctx.workspace_id()); ws && ws->doc["allowedTaxIds"].is_array())
    for (const auto& t : ws->doc["allowedTaxIds"])
      if (t.is_string()) allowed.push_back(TaxIdDigits(t.get<std::string>()));
  if (allowed.empty() || std::find(allowed.begin(), allowed.end(), TaxIdDigits(payer.tax_id)) != allowed.end())
    return true;
  problems.push_back(MakeProblem("invalidTaxId", "Payer tax id " + payer.tax_id + " is not in allowedTaxIds.",
                                 "O CPF/CNPJ do pagador " + payer.tax_id + " não está em allowedTaxIds."));
  return false;
}

Entity CreateDeposit(Context& ctx, std::int64_t amount, const Payer& payer, const std::string& type,
                     std::vector<std::string> tags) {
  const std::int64_t fee = ctx.Fee("deposit");
  Entity e = ctx.Insert("deposit", {{"accountNumber", payer.account_number},
                                    {"accountType", payer.account_type},
                                    {"amount", amount},
                                    {"bankCode", payer.bank_code},
                                    {"branchCode", payer.branch_code},
                                    {"fee", fee},
                                    {"name", payer.name},
                                    {"status", "created"},
                                    {"tags", tags},
                                    {"taxId", payer.tax_id},
                                    {"transactionIds", Json::array()},
                                    {"type", type}});
  ctx.AddLog(e, "created");
  Json tx = ctx.AddTransaction({amount - fee, fee, "Deposit from " + payer.name, "deposit/" + e.id, tags, ""});
  e.doc["transactionIds"].push_back(tx["id"]);
  ctx.Save(e);
  ctx.AddLog(e, "credited");
  return e;
}

namespace {

void PatchDeposit(Context& ctx, Entity& e, const Json& changes, Problems& problems) {
  Reader in(changes, problems);
  const std::int64_t current = e.doc["amount"].get<std::int64_t>();
  auto amount = in.Int("amount", Need::kRequired, 0, current, "invalidAmount");
  in.String("reversalDisplayDescription", Need::kOptional, "invalidDescription", 0, 140);
  in.RejectUnknown();
  if (!problems.empty()) return;
  if (e.status() != "created" || *amount == current) {
    problems.push_back(MakeProblem(
        "invalidOperation",
        "Only a deposit in status created can be reversed, to an amount lower than " + std::to_string(current) + ".",
        "Só um depósito com status created pode ser estornado, para um valor menor que " + std::to_string(current) +
            "."));
    return;
  }
  const std::int64_t reversed = current - *amount;
  Json tx = ctx.AddTransaction(
      {-reversed, 0, "Deposit reversal", "deposit/" + e.id, e.doc["tags"].get<std::vector<std::string>>(), ""});
  e.doc["amount"] = *amount;
  e.doc["transactionIds"].push_back(tx["id"]);
  if (*amount == 0) e.doc["status"] = "void";  // full reversal (docs/sandbox.md)
  ctx.Save(e);
  ctx.AddLog(e, "reversed", {{"reversedAmount", reversed}});
}

File DepositFile(Context&, const Entity& log, std::string_view, const Query&, Problems& problems) {
  if (log.doc.value("type", "") != "reversed") {
    problems.push_back(MakeProblem("invalidDepositLog", "Only reversed logs have a receipt.",
                                   "Apenas logs de estorno têm comprovante."));
    return {};
  }
  const Json& d = log.doc["deposit"];
  return TextPdf("Deposit reversal receipt",
                 {"Log: " + log.id, "Deposit: " + d.value("id", ""),
                  "Payer: " + d.value("name", "") + " (" + d.value("taxId", "") + ")",
                  "Reversed: " + FormatBrl(log.doc.value("reversedAmount", 0)),
                  "Remaining amount: " + FormatBrl(d.value("amount", 0)), "Date: " + log.doc.value("created", "")});
}

Json SimulateDeposit(Context& ctx, const Json& body, Problems& problems) {
  Reader in(body, problems);
  auto amount = in.Int("amount", Need::kRequired, 1, 100'000'000'000, "invalidAmount");
  auto type = in.Enum("type", Need::kOptional, {"pix", "ted", "boleto"}, "invalidType");
  auto tags = in.Tags();
  Payer payer = ReadPayer(ctx, in);
  in.RejectUnknown();
  if (!problems.empty() || !PayerAllowed(ctx, Json::array(), payer, problems)) return nullptr;
  return {{"deposit", CreateDeposit(ctx, *amount, payer, type.value_or("pix"), tags).doc}};
}

}  // namespace

BALCAO_SANDBOX_FAMILY(deposit) {
  registry.Add({.resource = "deposit",
                .statuses = {"created", "void"},
                .log_types = {"created", "credited", "reversed"},
                .patch = PatchDeposit,
                .file = DepositFile});
  registry.AddSimulation("deposit", SimulateDeposit);
}

}  // namespace balcao::sandbox::internal
