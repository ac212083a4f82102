// Account resources: workspace (organization-only create, PATCH incl. block/unblock and
// picture), balance (the ledger's running sum), transactions (read-only: written by
// every financial operation through Context::AddTransaction) and the public key that
// signs webhook deliveries.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>

#include "api/crypto.h"
#include "sandbox/internal/engine_core.h"
#include "sandbox/internal/family.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {
namespace {

bool UrlSafe(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return std::islower(c) || std::isdigit(c) || c == '-' || c == '_';
  });
}

// "image/png" of "data:image/png;base64,<bytes>"; nullopt when `picture` is not a data URL.
std::optional<std::string> DataUrlType(const std::string& picture) {
  constexpr std::string_view kPrefix = "data:";
  const std::size_t marker = picture.find(";base64,");
  if (picture.rfind(kPrefix, 0) != 0 || marker == std::string::npos) return std::nullopt;
  return picture.substr(kPrefix.size(), marker - kPrefix.size());
}

// Shared by create and PATCH: username (URL-safe, unique), name, allowedTaxIds.
void ReadWorkspaceFields(Context& ctx, Reader& in, Json& doc, const std::string& self_id) {
  if (auto name = in.String("name", Need::kOptional, "invalidName", 1, 100)) doc["name"] = *name;
  if (auto username = in.String("username", Need::kOptional, "invalidUsername", 1, 50)) {
    if (!UrlSafe(*username)) {
      in.Fail("username", "invalidUsername", "must hold only lowercase letters, digits, '-' and '_'.",
              "deve ter apenas letras minúsculas, dígitos, '-' e '_'.");
    } else {
      ListQuery q;
      q.resource = "workspace";
      q.scope = ctx.caller().organization_id;
      q.keys = {{"username", {*username}}};
      for (const auto& other : ctx.Checked(ctx.engine().store().List(q)))
        if (other.id != self_id) return in.Fail("username", "invalidUsername", "is already taken.", "já está em uso.");
      doc["username"] = *username;
    }
  }
  if (auto ids = in.StringList("allowedTaxIds", Need::kOptional, "invalidTaxId")) {
    Json list = Json::array();
    for (const auto& t : *ids) {
      auto formatted = NormalizeTaxId(t);
      if (!formatted)
        return in.Fail("allowedTaxIds", "invalidTaxId", "holds an invalid CPF/CNPJ: " + t + ".",
                       "contém um CPF/CNPJ inválido: " + t + ".");
      list.push_back(*formatted);
    }
    doc["allowedTaxIds"] = list;
  }
}

Json CreateWorkspace(Context& ctx, const Json& body, Problems& problems) {
  Reader in(body, problems);
  Json doc = Json::object();
  if (!in.Has("name")) in.String("name", Need::kRequired, "invalidName");
  if (!in.Has("username")) in.String("username", Need::kRequired, "invalidUsername");
  ReadWorkspaceFields(ctx, in, doc, "");
  in.RejectUnknown();
  if (!problems.empty()) return nullptr;
  doc.update({{"organizationId", ctx.caller().organization_id}, {"pictureUrl", ""}, {"status", "active"}});
  if (!doc.contains("allowedTaxIds")) doc["allowedTaxIds"] = Json::array();
  return ctx.Insert("workspace", std::move(doc)).doc;
}

void PatchWorkspace(Context& ctx, Entity& e, const Json& changes, Problems& problems) {
  Reader in(changes, problems);
  Json doc = Json::object();
  ReadWorkspaceFields(ctx, in, doc, e.id);
  auto status = in.Enum("status", Need::kOptional, {"active", "blocked"}, "invalidStatus");
  auto picture = in.String("picture", Need::kOptional, "invalidPicture", 1, 2'000'000);
  // The official SDKs send the picture as a data URL ("data:image/png;base64,...") that
  // carries its own type, without `pictureType`; the bank's sandbox accepts it. A bare
  // Base64 picture needs `pictureType`, as the API documentation says.
  std::optional<std::string> embedded_type;
  if (picture) embedded_type = DataUrlType(*picture);
  auto type = in.Enum("pictureType", picture && !embedded_type ? Need::kRequired : Need::kOptional,
                      {"image/png", "image/jpeg"}, "invalidPictureType");
  in.RejectUnknown();
  if (picture && embedded_type && !type) {
    if (*embedded_type != "image/png" && *embedded_type != "image/jpeg")
      in.Fail("picture", "invalidPictureType", "must be an image/png or image/jpeg data URL.",
              "deve ser uma data URL image/png ou image/jpeg.");
    else
      type = embedded_type;
  }
  if (picture && embedded_type && !api::Base64Decode(picture->substr(picture->find(',') + 1)).ok())
    in.Fail("picture", "invalidPicture", "must carry Base64 image bytes after 'base64,'.",
            "deve trazer os bytes da imagem em Base64 depois de 'base64,'.");
  if (!problems.empty()) return;
  if (status) doc["status"] = *status;
  if (picture && type) doc["pictureUrl"] = ctx.public_base_url() + "/workspace/" + e.id + "/picture";
  e.doc.update(doc);
  ctx.Save(e);
}

Json ListBalance(Context& ctx, const Query&, Problems&) {
  Json balance = {{"id", ctx.workspace_id()},
                  {"amount", ctx.Balance()},
                  {"currency", "BRL"},
                  {"updated", FormatTimestamp(ctx.Now())}};
  return {{"cursor", nullptr}, {"balances", Json::array({balance})}};
}

Json ListPublicKeys(Context& ctx, const Query&, Problems&) {
  Engine& engine = ctx.engine();
  Json key = {{"content", engine.signing_key().public_key().ToPem()}, {"created", engine.signing_key_created()}};
  return {{"cursor", nullptr}, {"publicKeys", Json::array({key})}};
}

}  // namespace

BALCAO_SANDBOX_FAMILY(account) {
  registry.Add(
      {.resource = "workspace", .statuses = {"active", "blocked"}, .create = CreateWorkspace, .patch = PatchWorkspace});
  registry.Add({.resource = "balance", .list = ListBalance});
  registry.Add({.resource = "public-key", .list = ListPublicKeys});
}

}  // namespace balcao::sandbox::internal
