// Boletos (API documentation, part 1, "Boleto"): batch create with customer data, bar code
// and line built with api/formats (bank 462, the boleto id in the free field), fine /
// interest / discounts, overdueLimit 0-59, receiverName + receiverTaxId pair, splits;
// overdue after due on the sandbox clock; DELETE cancels the registration (twice ->
// invalidBoleto); about 90% are paid automatically within an hour of sandbox time
// (deterministic by id); payer action POST /sandbox/boleto/pay {id | line | barCode,
// amount?, payer...}; public PDF.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <iterator>

#include "api/formats/boleto.h"
#include "common/money.h"
#include "sandbox/internal/artifacts.h"
#include "sandbox/internal/discounts.h"
#include "sandbox/internal/engine_core.h"
#include "sandbox/internal/family.h"
#include "sandbox/internal/payer.h"
#include "sandbox/internal/payment_flow.h"
#include "sandbox/internal/slip.h"
#include "sandbox/internal/split.h"
#include "sandbox/internal/transition.h"

namespace balcao::sandbox::internal {
namespace {

bool Open(const Entity& e) { return e.status() == "created" || e.status() == "overdue"; }

// End of the due day (23:59:59.999999 BRT).
UnixMicros DueEnd(const Entity& e) { return *ParseTimestamp(e.doc["due"].get<std::string>()) + kMicrosPerDay - 1; }

struct BoletoCharge {
  std::int64_t total = 0, fine = 0, interest = 0, discount = 0;
};

BoletoCharge BoletoChargeAt(const Entity& e, std::int64_t nominal, UnixMicros now) {
  BoletoCharge c{nominal, 0, 0, 0};
  if (now > DueEnd(e)) {
    const std::int64_t days = (now - DueEnd(e) + kMicrosPerDay - 1) / kMicrosPerDay;
    c.fine = std::llround(nominal * e.doc["fine"].get<double>() / 100.0);
    c.interest = std::llround(nominal * e.doc["interest"].get<double>() / 100.0 * days / 30.0);
  } else {
    for (const auto& d : e.doc["discounts"])
      if (now <= *ParseTimestamp(d["date"].get<std::string>()) + kMicrosPerDay - 1) {
        c.discount = std::llround(nominal * d["percentage"].get<double>() / 100.0);
        break;
      }
  }
  c.total = nominal + c.fine + c.interest - c.discount;
  return c;
}

// The nominal amount is the bar code's (positions 10-19).
std::int64_t NominalOf(const Entity& e) { return std::stoll(e.doc["barCode"].get<std::string>().substr(9, 10)); }

bool Payable(const Entity& e, UnixMicros now) {
  return Open(e) && now <= DueEnd(e) + e.doc["overdueLimit"].get<std::int64_t>() * kMicrosPerDay;
}

void ReadDescriptions(Reader& in, Json& out) {
  out = Json::array();
  if (const Json* list = in.ObjectList("descriptions", Need::kOptional, 15, "invalidDescription"))
    for (const auto& d : *list) {
      const bool ok = d.contains("text") && d["text"].is_string() &&
                      (!d.contains("amount") || d["amount"].is_number_integer()) &&
                      d.size() == (d.contains("amount") ? 2u : 1u);
      if (!ok)
        return in.Fail("descriptions", "invalidDescription", "items must be {\"text\", \"amount\"?}.",
                       "itens devem ser {\"text\", \"amount\"?}.");
      out.push_back(d);
    }
}

constexpr const char* kAutopayMeta = "boleto_autopay_percent";

int AutopayPercent(Context& ctx) {
  auto v = ctx.Checked(ctx.engine().store().GetMeta(kAutopayMeta));
  return v ? std::stoi(*v) : 90;
}

// POST /sandbox/boleto/autopay {"percent": 0..100}: share of new boletos paid automatically.
Json SetAutopay(Context& ctx, const Json& body, Problems& problems) {
  Reader in(body, problems);
  auto percent = in.Int("percent", Need::kRequired, 0, 100, "invalidPercent");
  in.RejectUnknown();
  if (!problems.empty()) return nullptr;
  ctx.Checked(ctx.engine().store().SetMeta(kAutopayMeta, std::to_string(*percent)));
  return {{"percent", *percent}};
}

// The checks across fields of a new boleto; returns the zip code's digits.
std::string CheckBoletoFields(Context& ctx, Reader& in, const std::optional<std::string>& state,
                              const std::optional<std::string>& zip, const std::optional<UnixMicros>& due,
                              UnixMicros due_day) {
  if (state && !std::all_of(state->begin(), state->end(), ::isalpha))
    in.Fail("stateCode", "invalidStateCode", "must be a 2-letter state code.",
            "deve ser a sigla de 2 letras do estado.");
  std::string zip_digits;
  if (zip) std::copy_if(zip->begin(), zip->end(), std::back_inserter(zip_digits), ::isdigit);
  if (zip && zip_digits.size() != 8)
    in.Fail("zipCode", "invalidZipCode", "must be 8 digits (NNNNN-NNN).", "deve ter 8 dígitos (NNNNN-NNN).");
  if (in.Has("receiverName") != in.Has("receiverTaxId"))
    in.Fail(in.Has("receiverName") ? "receiverTaxId" : "receiverName", "invalidReceiver",
            "is required together with the other receiver field.",
            "é obrigatório junto com o outro campo do recebedor.");
  if (due && due_day < BusinessDayStartOf(ctx.Now()))
    in.Fail("due", "invalidDue", "must not be in the past.", "não pode estar no passado.");
  return zip_digits;
}

// The bar code and the typeable line of boleto `id`.
struct BoletoCodes {
  std::string bar_code;
  std::string line;
};

StatusOr<BoletoCodes> BuildBoletoCodes(const std::string& id, UnixMicros due_day, std::int64_t amount) {
  formats::BoletoSpec spec;
  spec.bank_code = std::string(kSandboxBankCode);
  spec.due_date = formats::ParseIsoDate(BusinessDayOf(due_day)).value();
  spec.amount_cents = amount;
  spec.free_field = "000000000" + id;
  BALCAO_ASSIGN_OR_RETURN(std::string bar_code, formats::BuildBoletoBarcode(spec));
  BALCAO_ASSIGN_OR_RETURN(std::string line, formats::BoletoLineFromBarcode(bar_code));
  return BoletoCodes{std::move(bar_code), std::move(line)};
}

// A new boleto turns overdue after its due day; about 90% (POST /sandbox/boleto/autopay
// {"percent"}) are paid by a sandbox payer within an hour, chosen by the id (deterministic).
void ScheduleBoleto(Context& ctx, const Entity& e) {
  ctx.Schedule(DueEnd(e) + 1, "boleto.overdue", {{"id", e.id}});
  const std::size_t h = std::hash<std::string>{}(e.id);
  if (static_cast<int>(h % 100) < AutopayPercent(ctx))
    ctx.Schedule(ctx.Now() + static_cast<UnixMicros>(60 + h % 3500) * kMicrosPerSecond, "boleto.autopay",
                 {{"id", e.id}});
}

Json CreateBoleto(Context& ctx, const Json& element, Problems& problems) {
  Reader in(element, problems);
  auto amount = in.Int("amount", Need::kRequired, 1, 9'999'999'999, "invalidAmount");
  auto name = in.String("name", Need::kRequired, "invalidName", 3, 200);
  auto tax_id = in.TaxId("taxId", Need::kRequired);
  Json address = Json::object();
  for (const char* key : {"city", "district", "streetLine1", "streetLine2"}) {
    std::string code = std::string("invalid") + static_cast<char>(std::toupper(key[0])) + (key + 1);
    address[key] =
        in.String(key, Need::kRequired, code, std::string_view(key) == "streetLine2" ? 0 : 1, 200).value_or("");
  }
  auto state = in.String("stateCode", Need::kRequired, "invalidStateCode", 2, 2);
  auto zip = in.String("zipCode", Need::kRequired, "invalidZipCode", 8, 9);
  auto due = in.Time("due", Need::kOptional, "invalidDue");
  if (due && element["due"].get<std::string>().size() == 10)
    *due = FromSaoPauloWallClock(*due);  // a date: that day in BRT
  auto fine = in.Number("fine", Need::kOptional, 0, 20, "invalidFine");
  auto interest = in.Number("interest", Need::kOptional, 0, 10, "invalidInterest");
  auto overdue_limit = in.Int("overdueLimit", Need::kOptional, 0, 59, "invalidOverdueLimit");
  auto receiver_name = in.String("receiverName", Need::kOptional, "invalidReceiverName", 3, 200);
  auto receiver_tax_id = in.TaxId("receiverTaxId", Need::kOptional);
  Json descriptions;
  ReadDescriptions(in, descriptions);
  const UnixMicros due_day = BusinessDayStartOf(due.value_or(ctx.Now() + 2 * kMicrosPerDay));
  Json discounts = ReadDiscounts(in, due_day, kBoletoDiscounts);
  Json splits = ReadSplits(ctx, in, amount, kBoletoSplits);
  auto tags = in.Tags();
  in.RejectUnknown();
  const std::string zip_digits = CheckBoletoFields(ctx, in, state, zip, due, due_day);
  if (!problems.empty()) return nullptr;

  const std::string id = ctx.NewId();
  const StatusOr<BoletoCodes> codes = BuildBoletoCodes(id, due_day, *amount);
  if (!codes.ok()) {
    in.Fail("due", "invalidDue", "cannot be written in a boleto: " + codes.status().message(),
            "não cabe em um boleto: " + codes.status().message());
    return nullptr;
  }
  auto ws = ctx.Find("workspace", ctx.workspace_id());
  Json doc = {{"id", id},
              {"amount", *amount},
              {"barCode", codes->bar_code},
              {"line", codes->line},
              {"name", *name},
              {"taxId", *tax_id},
              {"stateCode", *state},
              {"zipCode", zip_digits.substr(0, 5) + "-" + zip_digits.substr(5)},
              {"descriptions", descriptions},
              {"discounts", discounts},
              {"due", FormatTimestamp(due_day)},
              {"fee", ctx.engine().Fee("boleto")},
              {"fine", fine.value_or(2.0)},
              {"interest", interest.value_or(1.0)},
              {"overdueLimit", overdue_limit.value_or(59)},
              {"ourNumber", id.substr(id.size() - 11)},
              {"receiverName", receiver_name.value_or(ws ? ws->doc.value("name", "") : std::string())},
              {"receiverTaxId", receiver_tax_id.value_or("")},
              {"splits", splits},
              {"status", "created"},
              {"tags", tags},
              {"transactionIds", Json::array()},
              {"workspaceId", ctx.workspace_id()}};
  doc.update(address);
  Entity e = ctx.Insert("boleto", std::move(doc));
  ctx.AddLog(e, "created");
  ScheduleBoleto(ctx, e);
  return e.doc;
}

// Pays `e` now as `payer`; `amount` (if given) must be what is owed.
Json Pay(Context& ctx, Entity& e, const Payer& payer, std::optional<std::int64_t> amount, Problems& problems) {
  if (!Payable(e, ctx.Now())) {
    problems.push_back(MakeProblem(
        "invalidBoleto",
        "Boleto " + e.id + " cannot be paid (status " + e.status() + (Open(e) ? ", past its overdue limit" : "") + ").",
        "O boleto " + e.id + " não pode ser pago (status " + e.status() + ")."));
    return nullptr;
  }
  const BoletoCharge c = BoletoChargeAt(e, NominalOf(e), ctx.Now());
  if (amount && *amount != c.total) {
    problems.push_back(MakeProblem("invalidAmount",
                                   "Boleto " + e.id + " costs " + std::to_string(c.total) + " cents now.",
                                   "O boleto " + e.id + " custa " + std::to_string(c.total) + " centavos agora."));
    return nullptr;
  }
  const std::int64_t fee = e.doc["fee"].get<std::int64_t>();
  e.doc["amount"] = c.total;
  e.doc["status"] = "paid";
  ctx.Save(e);
  ctx.AddLog(e, "paid",
             {{"payment", PayerJson(payer, c.total, "boleto")},
              {"fineAmount", c.fine},
              {"interestAmount", c.interest},
              {"discountAmount", c.discount}});
  Json tx = ctx.AddTransaction({c.total - fee, fee, "Boleto paid by " + payer.name, "boleto/" + e.id,
                                e.doc["tags"].get<std::vector<std::string>>(), ""});
  e.doc["transactionIds"].push_back(tx["id"]);
  ctx.Save(e);
  ctx.AddLog(e, "credited");
  CreateSplits(ctx, e);
  return {{"boleto", e.doc}};
}

// POST /sandbox/boleto/pay {"id" | "line" | "barCode", "amount"?, payer fields...}
Json SimulatePay(Context& ctx, const Json& body, Problems& problems) {
  Reader in(body, problems);
  auto id = in.String("id", Need::kOptional, "invalidBoleto", 1, 64);
  std::optional<Slip> slip;
  if (in.Has("line") || in.Has("barCode")) slip = ReadSlip(ctx, in, {SlipKind::kBoleto});
  auto amount = in.Int("amount", Need::kOptional, 1, 100'000'000'000, "invalidAmount");
  Payer payer = ReadPayer(ctx, in);
  in.RejectUnknown();
  if (!problems.empty()) return nullptr;
  std::string boleto_id = id.value_or("");
  if (slip) boleto_id = SandboxBoletoId(*slip).value_or("");
  auto e = ctx.Find("boleto", boleto_id);
  if (!e) {
    problems.push_back(NotFound("boleto", boleto_id));
    return nullptr;
  }
  return Pay(ctx, *e, payer, amount, problems);
}

void RemoveBoleto(Context& ctx, Entity& e, Problems& problems) {
  if (!Open(e)) {
    problems.push_back(MakeProblem("invalidBoleto", "Boleto " + e.id + " is " + e.status() + ": it cannot be deleted.",
                                   "O boleto " + e.id + " está " + e.status() + ": não pode ser excluído."));
    return;
  }
  e.doc["status"] = "canceled";
  ctx.Save(e);
  ctx.AddLog(e, "canceled");
}

File BoletoPdf(Context&, const Entity& e, std::string_view, const Query& query, Problems& problems) {
  std::vector<std::string> hidden;
  if (auto it = query.find("hiddenFields"); it != query.end()) hidden = SplitList(it->second);
  for (const auto& h : hidden)
    if (h != "customerAddress")
      problems.push_back(MakeProblem("invalidFields", "hiddenFields value '" + h + "' is unknown (customerAddress).",
                                     "O valor '" + h + "' de hiddenFields é desconhecido (customerAddress)."));
  std::string layout = "default";
  if (auto it = query.find("layout"); it != query.end()) layout = it->second;
  if (layout != "default" && layout != "booklet")
    problems.push_back(
        MakeProblem("invalidLayout", "layout must be default or booklet.", "layout deve ser default ou booklet."));
  if (!problems.empty()) return {};
  const Json& d = e.doc;
  std::vector<std::string> lines = {
      "Bank 462  " + d["line"].get<std::string>(),
      "Receiver: " + d["receiverName"].get<std::string>() + " " + d["receiverTaxId"].get<std::string>(),
      "Payer: " + d["name"].get<std::string>() + " (" + d["taxId"].get<std::string>() + ")",
      "Amount: " + FormatBrl(d["amount"].get<std::int64_t>()) + "   Due: " + d["due"].get<std::string>().substr(0, 10),
      "Our number: " + d["ourNumber"].get<std::string>() + "   Status: " + e.status(),
      "Fine: " + std::to_string(d["fine"].get<double>()).substr(0, 4) +
          "%   Interest: " + std::to_string(d["interest"].get<double>()).substr(0, 4) + "% a month"};
  if (std::find(hidden.begin(), hidden.end(), "customerAddress") == hidden.end())
    lines.push_back("Address: " + d["streetLine1"].get<std::string>() + " " + d["streetLine2"].get<std::string>() +
                    ", " + d["district"].get<std::string>() + ", " + d["city"].get<std::string>() + " - " +
                    d["stateCode"].get<std::string>() + ", " + d["zipCode"].get<std::string>());
  for (const auto& desc : d["descriptions"]) {
    lines.push_back(desc["text"].get<std::string>() +
                    (desc.contains("amount") ? "  " + FormatBrl(desc["amount"].get<std::int64_t>()) : std::string()));
    if (layout == "booklet") break;
  }
  lines.push_back("Bar code: " + d["barCode"].get<std::string>());
  return TextPdf(layout == "booklet" ? "Boleto (booklet)" : "Boleto", lines);
}

}  // namespace

std::optional<std::int64_t> SandboxBoletoCharge(Context& ctx, const std::string& boleto_id) {
  std::optional<std::int64_t> out;
  InOwnerWorkspace(ctx, "boleto", boleto_id, [&](Context& owner) -> Json {
    auto e = owner.Find("boleto", boleto_id);
    if (e && Payable(*e, owner.Now())) out = BoletoChargeAt(*e, NominalOf(*e), owner.Now()).total;
    return nullptr;
  });
  return out;
}

BALCAO_SANDBOX_FAMILY(boleto) {
  registry.Add({.resource = "boleto",
                .statuses = {"created", "overdue", "paid", "canceled"},
                .log_types = {"created", "paid", "credited", "canceled", "overdue"},
                .create = CreateBoleto,
                .remove = RemoveBoleto,
                .file = BoletoPdf});
  registry.AddSimulation("boleto/pay", SimulatePay);
  registry.AddSimulation("boleto/autopay", SetAutopay);
  registry.AddJob("boleto.overdue", MoveStatusJob("boleto", "created", "overdue"));
  registry.AddJob("boleto.autopay", [](Context& ctx, const Json& p) {
    auto e = ctx.Find("boleto", p["id"].get<std::string>());
    Problems ignored;  // canceled or already paid meanwhile: nothing to do
    if (e && Payable(*e, ctx.Now())) Pay(ctx, *e, Payer{}, std::nullopt, ignored);
  });
}

}  // namespace balcao::sandbox::internal
