// Dynamic brcodes (API documentation, part 1, "Dynamic Brcode"): one-time BR Codes looked
// up by uuid, payable once before `expiration` seconds after creation; paying one (POST
// /sandbox/dynamic-brcode/pay) creates a deposit tagged dynamic-brcode/<uuid>.
#include "sandbox/internal/artifacts.h"
#include "sandbox/internal/family.h"
#include "sandbox/internal/payer.h"

namespace balcao::sandbox::internal {
namespace {

constexpr const char* kPaidResource = "dynamic-brcode:paid";  // internal marker, id = uuid

Json CreateBrcode(Context& ctx, const Json& element, Problems& problems) {
  Reader in(element, problems);
  auto amount = in.Int("amount", Need::kRequired, 0, 100'000'000'000, "invalidAmount");
  auto description = in.String("displayDescription", Need::kOptional, "invalidDisplayDescription", 0, 140);
  auto expiration = in.Int("expiration", Need::kOptional, 1, 100LL * 365 * 86400, "invalidExpiration");
  Json rules = Json::array();
  if (const Json* list = in.ObjectList("rules", Need::kOptional, 10, "invalidRule")) rules = *list;
  auto tags = in.Tags();
  in.RejectUnknown();
  if (!problems.empty()) return nullptr;
  const std::string uuid = ctx.NewUuid();
  const std::string brcode = SandboxBrCode(ctx, "dynamic-brcode", uuid, *amount);
  Entity e = ctx.Insert("dynamic-brcode", {{"id", brcode},
                                           {"uuid", uuid},
                                           {"amount", *amount},
                                           {"displayDescription", description.value_or("")},
                                           {"expiration", expiration.value_or(3600)},
                                           {"pictureUrl", ctx.public_base_url() + "/brcode/" + uuid + ".png"},
                                           {"rules", rules},
                                           {"tags", tags}});
  return e.doc;
}

// POST /sandbox/dynamic-brcode/pay {"uuid"|"brcode", "amount"?, payer fields...}
Json PayBrcode(Context& ctx, const Json& body, Problems& problems) {
  Reader in(body, problems);
  auto uuid = in.String("uuid", Need::kOptional, "invalidUuid", 1, 64);
  auto brcode = in.String("brcode", Need::kOptional, "invalidBrcode", 1, 512);
  auto amount = in.Int("amount", Need::kOptional, 1, 100'000'000'000, "invalidAmount");
  Payer payer = ReadPayer(ctx, in);
  in.RejectUnknown();
  if (!problems.empty()) return nullptr;
  std::string key = uuid.value_or("");
  if (brcode) {
    auto [kind, parsed] = ParseSandboxBrCode(*brcode);
    if (kind != "dynamic-brcode") {
      problems.push_back(MakeProblem("invalidBrcode", "This BR Code is not a dynamic brcode of this sandbox.",
                                     "Este BR Code não é um brcode dinâmico deste sandbox."));
      return nullptr;
    }
    key = parsed;
  }
  auto e = ctx.FindBy("dynamic-brcode", "uuid", key);
  if (!e) {
    problems.push_back(NotFound("dynamic-brcode", key));
    return nullptr;
  }
  const UnixMicros expires = e->created + e->doc["expiration"].get<std::int64_t>() * kMicrosPerSecond;
  if (ctx.Find(kPaidResource, key) || ctx.Now() > expires) {
    problems.push_back(MakeProblem("invalidOperation", "Dynamic brcode " + key + " was already paid or has expired.",
                                   "O brcode dinâmico " + key + " já foi pago ou expirou."));
    return nullptr;
  }
  if (!PayerAllowed(ctx, e->doc["rules"], payer, problems)) return nullptr;
  const std::int64_t stated = e->doc["amount"].get<std::int64_t>();
  const std::int64_t paid = stated > 0 ? stated : amount.value_or(0);
  if (paid <= 0 || (amount && *amount != paid)) {
    problems.push_back(
        MakeProblem("invalidAmount",
                    stated > 0 ? "This brcode must be paid with exactly " + std::to_string(stated) + " cents."
                               : "This brcode has no amount: send a positive 'amount'.",
                    stated > 0 ? "Este brcode deve ser pago com exatamente " + std::to_string(stated) + " centavos."
                               : "Este brcode não tem valor: envie um 'amount' positivo."));
    return nullptr;
  }
  ctx.Insert(kPaidResource, {{"id", key}});
  Entity deposit = CreateDeposit(ctx, paid, payer, "pix", {"dynamic-brcode/" + key});
  return {{"deposit", deposit.doc}, {"brcode", e->doc}};
}

}  // namespace

BALCAO_SANDBOX_FAMILY(dynamic_brcode) {
  registry.Add({.resource = "dynamic-brcode", .lookup_key = "uuid", .create = CreateBrcode});
  registry.AddSimulation("dynamic-brcode/pay", PayBrcode);
}

}  // namespace balcao::sandbox::internal
