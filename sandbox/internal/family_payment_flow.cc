// The shared payment life cycle (payment_flow.h) and its simulation action
// POST /sandbox/payment/fail {"resource", "id"}: the receiving side rejects a payment that
// is processing, which fails it and refunds the debit.
#include "common/money.h"
#include "sandbox/internal/artifacts.h"
#include "sandbox/internal/engine_core.h"
#include "sandbox/internal/payment_flow.h"
#include "sandbox/internal/transition.h"

namespace balcao::sandbox::internal {
namespace {

std::int64_t Total(const Entity& e) { return e.doc["amount"].get<std::int64_t>() + e.doc["fee"].get<std::int64_t>(); }

Problem Refused(const Entity& e, const char* en, const char* pt) {
  return MakeProblem("invalidAction", std::string(en) + " (" + e.resource + " " + e.id + " is " + e.status() + ").",
                     std::string(pt) + " (" + e.resource + " " + e.id + " está " + e.status() + ").");
}

void Fail(Context& ctx, Entity& e, const Problem& why, bool refund) {
  if (refund) {
    Json tx = ctx.AddTransaction({Total(e), 0, "Refund: " + e.resource + " failed", e.resource + "/" + e.id,
                                  e.doc["tags"].get<std::vector<std::string>>(), ""});
    e.doc["transactionIds"].push_back(tx["id"]);
  }
  e.doc["status"] = "failed";
  ctx.Save(e);
  ctx.AddLog(e, "failed", {{"errors", Json::array({{{"code", why.code}, {"message", why.en}}})}});
}

void Process(Context& ctx, const FlowSpec& spec, const Json& payload) {
  auto e = ctx.Find(spec.resource, payload["id"].get<std::string>());
  if (!e || e->status() != "created") return;  // canceled meanwhile
  if (ctx.Balance() < Total(*e))
    return Fail(ctx, *e,
                MakeProblem("insufficientBalance", "The workspace balance does not cover amount + fee.",
                            "O saldo do workspace não cobre valor + tarifa."),
                false);
  Json tx = ctx.AddTransaction({-Total(*e), e->doc["fee"].get<std::int64_t>(),
                                spec.label + ": " + e->doc.value("description", e->doc.value("name", e->id)),
                                spec.resource + "/" + e->id, e->doc["tags"].get<std::vector<std::string>>(),
                                e->doc.value("externalId", "")});
  e->doc["transactionIds"].push_back(tx["id"]);
  e->doc["status"] = "processing";
  ctx.Save(*e);
  ctx.AddLog(*e, "processing");
  if (spec.on_process)
    if (auto problem = spec.on_process(ctx, *e)) return Fail(ctx, *e, *problem, true);
  ctx.Schedule(ctx.Now() + spec.settle_delay, spec.resource + ".settle", {{"id", e->id}});
}

File Receipt(const FlowSpec& spec, const Entity& e, Problems& problems) {
  const std::string s = e.status();
  if (s != "created" && s != "processing" && s != "success") {
    problems.push_back(MakeProblem(
        NotFound(e.resource, e.id).code,
        "A receipt exists only for created, processing or successful " + spec.label + "s; " + e.id + " is " + s + ".",
        "Comprovante só existe para operações created, processing ou success; " + e.id + " está " + s + "."));
    return {};
  }
  std::vector<std::string> lines = {spec.label + " " + e.id,
                                    "Amount: " + FormatBrl(e.doc["amount"].get<std::int64_t>()),
                                    "Fee: " + FormatBrl(e.doc["fee"].get<std::int64_t>()),
                                    "Status: " + s,
                                    "Scheduled: " + e.doc.value("scheduled", ""),
                                    "Created: " + e.doc.value("created", "")};
  if (spec.receipt_lines)
    for (auto& l : spec.receipt_lines(e)) lines.push_back(std::move(l));
  return TextPdf(spec.label + " receipt", lines);
}

// POST /sandbox/payment/fail {"resource": "transfer", "id": "..."}
Json ForceFail(Context& ctx, const Json& body, Problems& problems) {
  Reader in(body, problems);
  auto resource =
      in.Enum("resource", Need::kRequired,
              {"transfer", "brcode-payment", "boleto-payment", "utility-payment", "tax-payment", "darf-payment"},
              "invalidResource");
  auto id = in.String("id", Need::kRequired, "invalidId", 1, 64);
  in.RejectUnknown();
  if (!problems.empty()) return nullptr;
  auto e = ctx.Find(*resource, *id);
  if (!e) {
    problems.push_back(NotFound(*resource, *id));
    return nullptr;
  }
  if (e->status() != "processing") {
    problems.push_back(
        Refused(*e, "Only a processing operation can be failed", "Só uma operação em processamento pode falhar"));
    return nullptr;
  }
  Fail(
      ctx, *e,
      MakeProblem("rejectedByReceiver", "The receiving institution rejected it.", "A instituição recebedora rejeitou."),
      true);
  return {{std::string(api::FindResource(*resource)->single_key), e->doc}};
}

}  // namespace

std::optional<UnixMicros> ReadScheduled(Context& ctx, Reader& in) {
  const Json* raw = in.Raw("scheduled");
  if (!raw) return ctx.Now();
  const bool date_only = raw->is_string() && raw->get<std::string>().size() == 10;
  const char* code = date_only ? "invalidDate" : "invalidDateTime";
  auto t = raw->is_string() ? ParseTimestamp(raw->get<std::string>()) : StatusOr<UnixMicros>(InvalidArgumentError(""));
  if (!t.ok()) {
    in.Fail("scheduled", code, "must be a date (YYYY-MM-DD) or an ISO 8601 timestamp.",
            "deve ser uma data (AAAA-MM-DD) ou um horário ISO 8601.");
    return std::nullopt;
  }
  UnixMicros at = date_only ? FromSaoPauloWallClock(*t) : *t;  // a date means that day in BRT
  if (at < BusinessDayStartOf(ctx.Now())) {
    in.Fail("scheduled", code, "must not be in the past.", "não pode estar no passado.");
    return std::nullopt;
  }
  if (!date_only && at < ctx.Now() - 60 * kMicrosPerSecond) {
    in.Fail("scheduled", code, "must not be in the past.", "não pode estar no passado.");
    return std::nullopt;
  }
  return std::max(at, ctx.Now());
}

Json StartFlow(Context& ctx, std::string_view resource, Json doc, UnixMicros scheduled) {
  doc["status"] = "created";
  if (!doc.contains("fee")) doc["fee"] = ctx.engine().Fee(std::string(resource));
  doc["transactionIds"] = Json::array();
  doc["scheduled"] = FormatTimestamp(scheduled);
  Entity e = ctx.Insert(resource, std::move(doc));
  ctx.AddLog(e, "created");
  ctx.Schedule(std::max(scheduled, ctx.Now()), std::string(resource) + ".process", {{"id", e.id}});
  return e.doc;
}

void CancelFlow(Context& ctx, Entity& e, Problems& problems) {
  if (e.status() != "created")
    return problems.push_back(Refused(e, "Only an operation whose processing has not started can be canceled",
                                      "Só uma operação cujo processamento não começou pode ser cancelada"));
  e.doc["status"] = "canceled";
  ctx.Save(e);
  ctx.AddLog(e, "canceled");
}

std::optional<Json> InOwnerWorkspace(Context& ctx, std::string_view resource, const std::string& id,
                                     const std::function<Json(Context&)>& fn) {
  auto scope = ctx.Checked(ctx.engine().ScopeOf(resource, id));
  if (!scope) return std::nullopt;
  // Jobs run without an organization: take it from the owner workspace itself.
  const std::string organization =
      ctx.Checked(ctx.engine().ScopeOf("workspace", *scope)).value_or(ctx.caller().organization_id);
  Context owner(ctx.engine(), Caller{Caller::Kind::kSimulation, "sandbox", organization, *scope}, ctx.lang(),
                ctx.Now());
  return fn(owner);
}

std::optional<Problem> PayInSandbox(Context& ctx, std::string_view resource, const std::string& id,
                                    const std::string& simulation, Json body) {
  const SimulationFn* pay = Registry::Instance().FindSimulation(simulation);
  Problems problems;
  if (!pay)
    return MakeProblem("invalidReceiver", simulation + " is not a payer action.",
                       simulation + " não é uma ação de pagador.");
  if (auto org = ctx.Checked(ctx.engine().ScopeOf("workspace", ctx.workspace_id())))  // the paying workspace's name
    if (auto ws = ctx.Checked(ctx.engine().store().Get("workspace", *org, ctx.workspace_id())))
      body["name"] = ws->doc.value("name", "Sandbox Payer");
  auto done = InOwnerWorkspace(ctx, resource, id, [&](Context& owner) { return (*pay)(owner, body, problems); });
  if (!done) return NotFound(resource, id);
  if (!problems.empty()) return problems.front();
  return std::nullopt;
}

void AddFlow(Registry& registry, Family family, FlowSpec spec) {
  spec.resource = family.resource;
  family.statuses = kFlowStatuses;
  family.log_types = kFlowLogTypes;
  const bool canceling = spec.canceling_log;
  if (!family.remove)
    family.remove = [canceling](Context& ctx, Entity& e, Problems& problems) {
      if (canceling && e.status() == "created") {
        Json before = e.doc;
        before["status"] = "processing";  // the canceling log carries status processing (API docs, part 2)
        Entity shown = e;
        shown.doc = std::move(before);
        ctx.AddLog(shown, "canceling");
      }
      CancelFlow(ctx, e, problems);
    };
  family.file = [spec](Context&, const Entity& e, std::string_view, const Query&, Problems& problems) {
    return Receipt(spec, e, problems);
  };
  registry.Add(std::move(family));
  registry.AddJob(spec.resource + ".process", [spec](Context& ctx, const Json& p) { Process(ctx, spec, p); });
  registry.AddJob(spec.resource + ".settle", MoveStatusJob(spec.resource, "processing", "success"));
}

BALCAO_SANDBOX_FAMILY(payment_flow) { registry.AddSimulation("payment/fail", ForceFail); }

}  // namespace balcao::sandbox::internal
