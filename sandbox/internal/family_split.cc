// Splits (API documentation, part 1, "Split"; docs/wire.md, "Sandbox behaviour"): created
// when an invoice or boleto that lists `splits` is paid, tagged "<resource>/<id>", status
// created -> success after the workspace's split-profile delay (default: immediately), when
// the amount leaves the ledger for the receiver. Read-only routes.
#include "sandbox/internal/engine_core.h"
#include "sandbox/internal/family.h"
#include "sandbox/internal/split.h"

namespace balcao::sandbox::internal {

Json ReadSplitEntry(Context& ctx, const Json& entry, Problems& local) {
  Reader sr(entry, local, "splits[]");
  auto receiver = sr.String("receiverId", Need::kRequired, "invalidSplit", 1, 64);
  auto value = sr.Int("amount", Need::kRequired, 1, 100'000'000'000, "invalidSplit");
  sr.RejectUnknown();
  if (receiver && !ctx.Find("split-receiver", *receiver))
    sr.Fail("receiverId", "invalidSplitReceiver", "names no split receiver of this workspace.",
            "não é um recebedor de split deste workspace.");
  if (!local.empty()) return nullptr;
  return {{"receiverId", *receiver}, {"amount", *value}};
}

Json ReadSplits(Context& ctx, Reader& in, std::optional<std::int64_t> amount, const SplitWording& wording) {
  Json splits = in.Entries("splits", 100, "invalidSplit", wording.where,
                           [&](const Json& entry, Problems& local) { return ReadSplitEntry(ctx, entry, local); });
  std::int64_t total = 0;
  for (const auto& split : splits) total += split["amount"].get<std::int64_t>();
  if (amount && total > *amount) in.Fail("splits", "invalidSplit", wording.over_en, wording.over_pt);
  return splits;
}

void CreateSplits(Context& ctx, const Entity& receivable) {
  auto list = receivable.doc.find("splits");
  if (list == receivable.doc.end() || !list->is_array() || list->empty()) return;
  UnixMicros delay = 0;
  ListQuery q;  // the workspace's split profile (one at most)
  q.resource = "split-profile";
  q.scope = ctx.workspace_id();
  q.limit = 1;
  for (const auto& profile : ctx.Checked(ctx.engine().store().List(q)))
    delay = profile.doc.value("delay", std::int64_t{0}) * 1000;  // milliseconds
  const std::string source = receivable.resource + "/" + receivable.id;
  for (const auto& s : *list) {
    Entity e = ctx.Insert("split", {{"amount", s["amount"]},
                                    {"externalId", source + "/" + s["receiverId"].get<std::string>()},
                                    {"receiverId", s["receiverId"]},
                                    {"scheduled", FormatTimestamp(ctx.Now() + delay)},
                                    {"source", source},
                                    {"status", "created"},
                                    {"tags", Json::array({source})}});
    ctx.AddLog(e, "created");
    ctx.Schedule(ctx.Now() + delay, "split.settle", {{"id", e.id}});
  }
}

namespace {

void SettleSplit(Context& ctx, const Json& payload) {
  auto e = ctx.Find("split", payload["id"].get<std::string>());
  if (!e || e->status() != "created") return;
  ctx.AddTransaction({-e->doc["amount"].get<std::int64_t>(), 0,
                      "Split to receiver " + e->doc["receiverId"].get<std::string>(), "split/" + e->id,
                      e->doc["tags"].get<std::vector<std::string>>(), ""});
  e->doc["status"] = "success";
  ctx.Save(*e);
  ctx.AddLog(*e, "success");
}

}  // namespace

BALCAO_SANDBOX_FAMILY(split) {
  registry.Add({.resource = "split",
                .statuses = {"created", "success", "failed"},
                .log_types = {"created", "success", "failed"}});
  registry.AddJob("split.settle", SettleSplit);
}

}  // namespace balcao::sandbox::internal
