// Boleto holmes (API documentation, part 1, "Boleto Holmes"): POST starts an investigation
// of a boleto against the interbank registry: status solving, `result` empty; 10 minutes of
// sandbox time later it is solved with result paid, canceled or registered (the boleto's
// state then) and a log "solved". A second investigation while one is solving ->
// repeatedHolmes; after one solved with a final result (paid, canceled) ->
// finalHolmesStatus.
#include "sandbox/internal/engine_core.h"
#include "sandbox/internal/family.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {
namespace {

constexpr UnixMicros kSolveDelay = 10 * 60 * kMicrosPerSecond;

Json CreateHolmes(Context& ctx, const Json& element, Problems& problems) {
  Reader in(element, problems);
  auto boleto_id = in.String("boletoId", Need::kRequired, "invalidBoletoId", 1, 64);
  auto tags = in.Tags();
  in.RejectUnknown();
  if (!problems.empty()) return nullptr;
  if (!ctx.Find("boleto", *boleto_id)) {
    in.Fail("boletoId", "invalidBoletoId", "names no boleto of this workspace.", "não é um boleto deste workspace.");
    return nullptr;
  }
  ListQuery q;
  q.resource = "boleto-holmes";
  q.scope = ctx.workspace_id();
  q.keys = {{"boletoId", {*boleto_id}}};
  for (const auto& other : ctx.Checked(ctx.engine().store().List(q))) {
    if (other.status() != "solved") {
      in.Fail("boletoId", "repeatedHolmes", "is already being investigated by holmes " + other.id + ".",
              "já está sendo investigado pelo holmes " + other.id + ".");
      return nullptr;
    }
    const std::string result = other.doc.value("result", "");
    if (result == "paid" || result == "canceled") {
      in.Fail("boletoId", "finalHolmesStatus", "was found " + result + " by holmes " + other.id + ": that is final.",
              "já foi encontrado " + result + " pelo holmes " + other.id + ": isso é definitivo.");
      return nullptr;
    }
  }
  Entity e =
      ctx.Insert("boleto-holmes", {{"boletoId", *boleto_id}, {"result", ""}, {"status", "solving"}, {"tags", tags}});
  ctx.AddLog(e, "solving", {{"updated", e.doc["updated"]}});
  ctx.Schedule(ctx.Now() + kSolveDelay, "boleto-holmes.solve", {{"id", e.id}});
  return e.doc;
}

void Solve(Context& ctx, const Json& payload) {
  auto e = ctx.Find("boleto-holmes", payload["id"].get<std::string>());
  if (!e || e->status() != "solving") return;
  auto boleto = ctx.Find("boleto", e->doc["boletoId"].get<std::string>());
  const std::string status = boleto ? boleto->status() : "canceled";
  e->doc["result"] = status == "paid" || status == "canceled" ? status : "registered";
  e->doc["status"] = "solved";
  ctx.Save(*e);
  ctx.AddLog(*e, "solved", {{"updated", e->doc["updated"]}});
}

}  // namespace

BALCAO_SANDBOX_FAMILY(boleto_holmes) {
  registry.Add({.resource = "boleto-holmes",
                .statuses = {"created", "solving", "solved"},
                .log_types = {"solving", "solved"},
                .create = CreateHolmes});
  registry.AddJob("boleto-holmes.solve", Solve);
}

}  // namespace balcao::sandbox::internal
