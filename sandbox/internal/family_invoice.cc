// Invoices (API documentation, part 1, "Invoice"): create with defaults and validation, BR
// Code, due / fine / interest / discounts, overdue and expiration on the sandbox clock,
// PATCH cancel / amount / due / expiration, reversal of a paid invoice by lowering its
// amount, the payment sub-resource, QR code and PDFs; payer simulation POST
// /sandbox/invoice/pay.
#include <algorithm>
#include <cmath>

#include "common/money.h"
#include "sandbox/internal/artifacts.h"
#include "sandbox/internal/discounts.h"
#include "sandbox/internal/family.h"
#include "sandbox/internal/payer.h"
#include "sandbox/internal/split.h"

namespace balcao::sandbox::internal {
namespace {

constexpr std::int64_t kMaxAmount = 100'000'000'000;         // R$ 1 billion
constexpr const char* kPaymentResource = "invoice:payment";  // internal: not an API route

bool Unpaid(const Entity& e) { return e.status() == "created" || e.status() == "overdue"; }

// Validates key/value lists (descriptions, rules).
void CheckKeyValues(Reader& in, const char* field, std::size_t max, const char* code, Json& out) {
  out = Json::array();
  if (const Json* list = in.ObjectList(field, Need::kOptional, max, code)) {
    for (const auto& item : *list) {
      if (!item.contains("key") || !item["key"].is_string() || !item.contains("value") || item.size() != 2) {
        in.Fail(field, code, "items must be objects with exactly 'key' and 'value'.",
                "itens devem ser objetos com exatamente 'key' e 'value'.");
        return;
      }
      out.push_back(item);
    }
  }
}

void ScheduleDeadlines(Context& ctx, const Entity& e) {
  const UnixMicros due = *ParseTimestamp(e.doc["due"].get<std::string>());
  const std::int64_t expiration = e.doc["expiration"].get<std::int64_t>();
  ctx.Schedule(due, "invoice.overdue", {{"id", e.id}, {"due", e.doc["due"]}});
  ctx.Schedule(due + expiration * kMicrosPerSecond, "invoice.expire",
               {{"id", e.id}, {"due", e.doc["due"]}, {"expiration", expiration}});
}

// Validates the fields shared by create and PATCH; writes accepted values into `doc`.
void ReadSchedule(Context& ctx, Reader& in, Json& doc, bool create) {
  if (auto due = in.Time("due", Need::kOptional, "invalidDue")) {
    if (*due < ctx.Now() - kMicrosPerDay)
      in.Fail("due", "invalidDue", "must not be in the past.", "não pode estar no passado.");
    else
      doc["due"] = FormatTimestamp(*due);
  } else if (create) {
    doc["due"] = FormatTimestamp(ctx.Now() + 2 * kMicrosPerDay);
  }
  if (auto exp = in.Int("expiration", Need::kOptional, 0, 100LL * 365 * 86400, "invalidExpiration"))
    doc["expiration"] = *exp;
  else if (create)
    doc["expiration"] = 5'097'600;
}

Json CreateInvoice(Context& ctx, const Json& element, Problems& problems) {
  Reader in(element, problems);
  Json doc = Json::object();
  auto amount = in.Int("amount", Need::kRequired, 0, kMaxAmount, "invalidAmount");
  auto name = in.String("name", Need::kRequired, "invalidName", 3, 200);
  auto tax_id = in.TaxId("taxId", Need::kRequired);
  ReadSchedule(ctx, in, doc, true);
  auto fine = in.Number("fine", Need::kOptional, 0, 20, "invalidFine");
  auto interest = in.Number("interest", Need::kOptional, 0, 10, "invalidInterest");
  Json descriptions, rules;
  CheckKeyValues(in, "descriptions", 15, "invalidDescription", descriptions);
  CheckKeyValues(in, "rules", 10, "invalidRule", rules);
  std::optional<UnixMicros> due;  // ReadSchedule checked it
  if (doc.contains("due"))
    if (StatusOr<UnixMicros> at = ParseTimestamp(doc["due"].get<std::string>()); at.ok()) due = *at;
  Json discounts = ReadDiscounts(in, due, kInvoiceDiscounts);
  Json splits = ReadSplits(ctx, in, amount, kInvoiceSplits);
  auto tags = in.Tags();
  in.RejectUnknown();
  if (!problems.empty()) return nullptr;

  doc.update({{"amount", *amount},
              {"nominalAmount", *amount},
              {"name", *name},
              {"taxId", *tax_id},
              {"fine", fine.value_or(2.0)},
              {"interest", interest.value_or(1.0)},
              {"descriptions", descriptions},
              {"rules", rules},
              {"discounts", discounts},
              {"splits", splits},
              {"tags", tags},
              {"status", "created"},
              {"fee", 0},
              {"fineAmount", 0},
              {"interestAmount", 0},
              {"discountAmount", 0},
              {"transactionIds", Json::array()}});
  doc["id"] = ctx.NewId();
  const std::string id = doc["id"].get<std::string>();
  doc["brcode"] = SandboxBrCode(ctx, "invoice", id, *amount);
  doc["link"] = ctx.public_base_url() + "/invoicelink/" + id;
  doc["pdf"] = ctx.public_base_url() + "/v2/invoice/" + id + "/pdf";
  Entity e = ctx.Insert("invoice", std::move(doc));
  ctx.AddLog(e, "created");
  ScheduleDeadlines(ctx, e);
  return e.doc;
}

// What the payer owes at `now`: (total, fine, interest, discount).
struct Charge {
  std::int64_t total, fine, interest, discount;
};
Charge ChargeAt(const Entity& e, UnixMicros now) {
  const std::int64_t nominal = e.doc["nominalAmount"].get<std::int64_t>();
  const UnixMicros due = *ParseTimestamp(e.doc["due"].get<std::string>());
  Charge c{nominal, 0, 0, 0};
  if (now > due) {
    const std::int64_t days = (now - due + kMicrosPerDay - 1) / kMicrosPerDay;
    c.fine = std::llround(nominal * e.doc["fine"].get<double>() / 100.0);
    c.interest = std::llround(nominal * e.doc["interest"].get<double>() / 100.0 * days / 30.0);
  } else {
    for (const auto& d : e.doc["discounts"])
      if (now <= *ParseTimestamp(d["due"].get<std::string>())) {
        c.discount = std::llround(nominal * d["percentage"].get<double>() / 100.0);
        break;
      }
  }
  c.total = nominal + c.fine + c.interest - c.discount;
  return c;
}

Problem Closed(const Entity& e, const char* what_en, const char* what_pt) {
  return MakeProblem("invalidOperation", std::string(what_en) + " (invoice " + e.id + " is " + e.status() + ").",
                     std::string(what_pt) + " (fatura " + e.id + " está " + e.status() + ").");
}

void PatchInvoice(Context& ctx, Entity& e, const Json& changes, Problems& problems) {
  Reader in(changes, problems);
  auto status = in.Enum("status", Need::kOptional, {"canceled"}, "invalidStatus");
  auto amount = in.Int("amount", Need::kOptional, 0, kMaxAmount, "invalidAmount");
  Json schedule = Json::object();
  ReadSchedule(ctx, in, schedule, false);
  in.RejectUnknown();
  if (!problems.empty()) return;
  if (e.status() == "paid") {
    const std::int64_t current = e.doc["amount"].get<std::int64_t>();
    if (status || !schedule.empty() || !amount)
      return problems.push_back(Closed(e, "A paid invoice only accepts a lower amount (reversal)",
                                       "Uma fatura paga só aceita um valor menor (estorno)"));
    if (*amount >= current)
      return problems.push_back(
          MakeProblem("invalidAmount", "A reversal must lower the amount below " + std::to_string(current) + ".",
                      "Um estorno deve reduzir o valor para menos de " + std::to_string(current) + "."));
    const std::int64_t reversed = current - *amount;
    Json tx = ctx.AddTransaction({-reversed, 0, "Invoice reversal: " + e.doc["name"].get<std::string>(),
                                  "invoice/" + e.id, e.doc["tags"].get<std::vector<std::string>>(), ""});
    e.doc["amount"] = *amount;
    e.doc["transactionIds"].push_back(tx["id"]);
    ctx.Save(e);
    ctx.AddLog(e, "reversed", {{"reversedAmount", reversed}});
    return;
  }
  if (!Unpaid(e))
    return problems.push_back(Closed(e, "This invoice can no longer change", "Esta fatura não pode mais mudar"));
  if (status) {
    e.doc["status"] = "canceled";
    ctx.Save(e);
    ctx.AddLog(e, "canceled");
    return;
  }
  if (amount) {
    e.doc["amount"] = *amount;
    e.doc["nominalAmount"] = *amount;
    e.doc["brcode"] = SandboxBrCode(ctx, "invoice", e.id, *amount);
  }
  e.doc.update(schedule);
  if (ctx.Now() <= *ParseTimestamp(e.doc["due"].get<std::string>())) e.doc["status"] = "created";
  ctx.Save(e);
  ctx.AddLog(e, "updated");
  if (!schedule.empty()) ScheduleDeadlines(ctx, e);
}

File InvoiceFile(Context& ctx, const Entity& e, std::string_view what, const Query& query, Problems& problems) {
  if (what == "qrcode") {
    int size = 7;
    if (auto it = query.find("size"); it != query.end()) {
      const std::string& v = it->second;
      size = !v.empty() && v.size() <= 2 && std::all_of(v.begin(), v.end(), ::isdigit) ? std::stoi(v) : 0;
      if (size < 1 || size > 50) {
        problems.push_back(MakeProblem("invalidSize", "Query parameter 'size' must be from 1 to 50.",
                                       "Parâmetro 'size' deve ser de 1 a 50."));
        return {};
      }
    }
    return QrPng(e.doc["brcode"].get<std::string>(), size);
  }
  if (what == "log-pdf") {
    if (e.doc.value("type", "") != "reversed") {
      problems.push_back(MakeProblem("invalidInvoiceLog", "Only reversed logs have a receipt.",
                                     "Apenas logs de estorno têm comprovante."));
      return {};
    }
    const Json& inv = e.doc["invoice"];
    return TextPdf("Invoice reversal receipt",
                   {"Log: " + e.id, "Invoice: " + inv.value("id", ""), "Payer: " + inv.value("name", ""),
                    "Reversed: " + FormatBrl(e.doc.value("reversedAmount", 0)),
                    "Remaining amount: " + FormatBrl(inv.value("amount", 0)), "Date: " + e.doc.value("created", "")});
  }
  (void)ctx;
  std::vector<std::string> lines = {
      "Invoice " + e.id,
      "Payer: " + e.doc["name"].get<std::string>() + " (" + e.doc["taxId"].get<std::string>() + ")",
      "Amount: " + FormatBrl(e.doc["amount"].get<std::int64_t>()),
      "Due: " + e.doc["due"].get<std::string>(),
      "Status: " + e.status(),
      "Pix copy and paste:",
      e.doc["brcode"].get<std::string>()};
  for (const auto& d : e.doc["descriptions"]) lines.push_back(d.value("key", "") + ": " + d["value"].dump());
  return TextPdf("Invoice", lines);
}

Json InvoicePayment(Context& ctx, const Entity& e, Problems& problems) {
  auto payment = ctx.Find(kPaymentResource, e.id);
  if (!payment) {
    problems.push_back(MakeProblem("invalidInvoice", "Invoice " + e.id + " has not been paid.",
                                   "A fatura " + e.id + " não foi paga."));
    return nullptr;
  }
  Json doc = payment->doc;
  doc.erase("id");
  doc.erase("created");
  doc.erase("updated");
  return doc;
}

// POST /sandbox/invoice/pay {"id"|"brcode", "amount"?, payer fields...}
Json PayInvoice(Context& ctx, const Json& body, Problems& problems) {
  Reader in(body, problems);
  auto id = in.String("id", Need::kOptional, "invalidInvoice", 1, 64);
  auto brcode = in.String("brcode", Need::kOptional, "invalidBrcode", 1, 512);
  auto amount = in.Int("amount", Need::kOptional, 1, kMaxAmount, "invalidAmount");
  Payer payer = ReadPayer(ctx, in);
  in.RejectUnknown();
  if (!problems.empty()) return nullptr;
  std::string invoice_id = id.value_or("");
  if (brcode) {
    auto [kind, key] = ParseSandboxBrCode(*brcode);
    if (kind != "invoice") {
      problems.push_back(MakeProblem("invalidBrcode", "This BR Code was not issued for an invoice of this sandbox.",
                                     "Este BR Code não foi emitido para uma fatura deste sandbox."));
      return nullptr;
    }
    invoice_id = key;
  }
  auto e = ctx.Find("invoice", invoice_id);
  if (!e) {
    problems.push_back(NotFound("invoice", invoice_id));
    return nullptr;
  }
  const UnixMicros deadline =
      *ParseTimestamp(e->doc["due"].get<std::string>()) + e->doc["expiration"].get<std::int64_t>() * kMicrosPerSecond;
  if (!Unpaid(*e) || ctx.Now() > deadline) {
    problems.push_back(Closed(*e, "This invoice cannot be paid", "Esta fatura não pode ser paga"));
    return nullptr;
  }
  if (!PayerAllowed(ctx, e->doc["rules"], payer, problems)) return nullptr;
  Charge c = ChargeAt(*e, ctx.Now());
  if (c.total == 0) c.total = amount.value_or(0);  // amount 0: any amount
  if (c.total <= 0 || (amount && *amount != c.total)) {
    problems.push_back(MakeProblem("invalidAmount", "The amount due now is " + std::to_string(c.total) + " cents.",
                                   "O valor devido agora é " + std::to_string(c.total) + " centavos."));
    return nullptr;
  }
  const std::int64_t fee = ctx.Fee("invoice");
  e->doc.update({{"amount", c.total},
                 {"fineAmount", c.fine},
                 {"interestAmount", c.interest},
                 {"discountAmount", c.discount},
                 {"fee", fee},
                 {"status", "paid"}});
  Json payment = PayerJson(payer, c.total, "pix");
  payment["id"] = e->id;
  ctx.Insert(kPaymentResource, std::move(payment));
  ctx.Save(*e);
  ctx.AddLog(*e, "paid");
  Json tx = ctx.AddTransaction({c.total - fee, fee, "Invoice payment: " + payer.name, "invoice/" + e->id,
                                e->doc["tags"].get<std::vector<std::string>>(), ""});
  e->doc["transactionIds"].push_back(tx["id"]);
  ctx.Save(*e);
  ctx.AddLog(*e, "credited");
  CreateSplits(ctx, *e);  // each `splits` entry becomes a split tagged invoice/<id>
  return {{"invoice", e->doc}, {"payment", PayerJson(payer, c.total, "pix")}};
}

void InvoiceDeadline(Context& ctx, const Json& payload, const char* status) {
  auto e = ctx.Find("invoice", payload["id"].get<std::string>());
  if (!e || !Unpaid(*e) || e->doc["due"] != payload["due"]) return;  // stale job
  if (payload.contains("expiration") && e->doc["expiration"] != payload["expiration"]) return;
  if (e->status() == status) return;
  e->doc["status"] = status;
  ctx.Save(*e);
  ctx.AddLog(*e, status);
}

}  // namespace

BALCAO_SANDBOX_FAMILY(invoice) {
  registry.Add({.resource = "invoice",
                .statuses = {"created", "paid", "canceled", "overdue", "expired"},
                .log_types = {"created", "updated", "paid", "credited", "canceled", "overdue", "expired", "reversed"},
                .create = CreateInvoice,
                .patch = PatchInvoice,
                .file = InvoiceFile,
                .sub_get = InvoicePayment});
  registry.AddJob("invoice.overdue", [](Context& ctx, const Json& p) { InvoiceDeadline(ctx, p, "overdue"); });
  registry.AddJob("invoice.expire", [](Context& ctx, const Json& p) { InvoiceDeadline(ctx, p, "expired"); });
  registry.AddSimulation("invoice/pay", PayInvoice);
}

}  // namespace balcao::sandbox::internal
