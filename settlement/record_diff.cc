#include "settlement/record_diff.h"

#include <map>
#include <nlohmann/json.hpp>

#include "common/money.h"

namespace balcao::settlement {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

std::map<std::string, json> ById(const json& list) {
  std::map<std::string, json> by_id;
  if (list.is_array())
    for (const json& item : list) by_id[item.value("id", "")] = item;
  return by_id;
}

std::int64_t Int(const json& doc, const char* key) { return doc.value(key, std::int64_t{0}); }

struct Diff {
  Lang lang;
  std::string lines;
  ordered_json changes = ordered_json::array();
  void Add(ordered_json change, const std::string& line) {
    changes.push_back(std::move(change));
    lines += "  ! " + line + "\n";
  }
};

void DiffSales(const json& recorded, const json& now, Diff& d) {
  const Lang l = d.lang;
  const auto before = ById(recorded.value("sales", json::array()));
  for (const auto& [id, sale] : ById(now.value("sales", json::array()))) {
    const auto was = before.find(id);
    if (was == before.end()) {
      d.Add({{"sale_id", id}, {"what", "new"}, {"class", sale.value("class", "")}, {"bank_net", Int(sale, "bank_net")}},
            Say(l, "venda ", "sale ") + id + Say(l, " entrou no dia no banco: ", " came into the bank's day: ") +
                sale.value("class", "") + Say(l, ", o banco tem ", ", the bank holds ") +
                FormatBrl(Int(sale, "bank_net")));
      continue;
    }
    const json& w = was->second;
    if (w.value("class", "") == sale.value("class", "") && Int(w, "bank_net") == Int(sale, "bank_net") &&
        Int(w, "collected") == Int(sale, "collected"))
      continue;
    d.Add({{"sale_id", id},
           {"what", "changed"},
           {"class", {{"recorded", w.value("class", "")}, {"now", sale.value("class", "")}}},
           {"bank_net", {{"recorded", Int(w, "bank_net")}, {"now", Int(sale, "bank_net")}}},
           {"collected", {{"recorded", Int(w, "collected")}, {"now", Int(sale, "collected")}}}},
          Say(l, "venda ", "sale ") + id + ": " + w.value("class", "") + " -> " + sale.value("class", "") +
              Say(l, "; o banco tem ", "; the bank holds ") + FormatBrl(Int(sale, "bank_net")) +
              Say(l, " (no registro ", " (recorded ") + FormatBrl(Int(w, "bank_net")) +
              Say(l, "), o diário ", "), the journal ") + FormatBrl(Int(sale, "collected")) +
              Say(l, " (no registro ", " (recorded ") + FormatBrl(Int(w, "collected")) + ")");
  }
}

void DiffOrphans(const json& recorded, const json& now, Diff& d) {
  const Lang l = d.lang;
  const auto before = ById(recorded.value("orphans", json::array()));
  const auto after = ById(now.value("orphans", json::array()));
  for (const auto& [id, e] : after) {
    const auto was = before.find(id);
    if (was != before.end() && Int(was->second, "held") == Int(e, "held")) continue;
    const bool fresh = was == before.end();
    d.Add({{"entity_id", id},
           {"what", fresh ? "new-orphan" : "orphan-changed"},
           {"kind", e.value("kind", "")},
           {"held", Int(e, "held")}},
          (fresh ? Say(l, "novo sem venda no diário: ", "new orphan: ")
                 : Say(l, "sem venda no diário mudou: ", "orphan changed: ")) +
              e.value("kind", "") + " " + id + " " + FormatBrl(Int(e, "held")) +
              (fresh ? "" : Say(l, " (no registro ", " (recorded ") + FormatBrl(Int(was->second, "held")) + ")"));
  }
  for (const auto& [id, e] : before) {
    if (after.count(id)) continue;
    d.Add({{"entity_id", id}, {"what", "orphan-gone"}, {"kind", e.value("kind", "")}, {"held", 0}},
          Say(l, "sem venda no diário não está mais no dia: ", "orphan no longer in the day: ") + e.value("kind", "") +
              " " + id + Say(l, " (no registro ", " (recorded ") + FormatBrl(Int(e, "held")) + ")");
  }
}

}  // namespace

StatusOr<RecordDiff> DiffRecord(const std::string& recorded_text, const std::string& now_text, Lang lang) {
  const json recorded = json::parse(recorded_text, nullptr, false);
  const json now = json::parse(now_text, nullptr, false);
  if (!recorded.is_object() || !now.is_object()) return InvalidArgumentError("report: not a JSON object");
  Diff d{lang};
  DiffSales(recorded, now, d);
  DiffOrphans(recorded, now, d);
  const json no_difference = json::object();
  const json& was = recorded.contains("difference") ? recorded["difference"] : no_difference;
  const json& is = now.contains("difference") ? now["difference"] : no_difference;
  RecordDiff diff;
  diff.changes = static_cast<int>(d.changes.size());
  diff.text = Say(lang, "Banco lido de novo: banco ", "The bank read again: bank ") + FormatBrl(Int(is, "bank")) +
              Say(lang, " agora, ", " now, ") + FormatBrl(Int(was, "bank")) +
              Say(lang, " no registro; ", " in the record; ") +
              (d.changes.empty()
                   ? Say(lang, "nada mudou desde o registro\n", "nothing changed since the record\n")
                   : std::to_string(diff.changes) +
                         Say(lang, " mudança(s) desde o registro:\n", " change(s) since the record:\n") + d.lines);
  diff.json = ordered_json{
      {"bank_now", Int(is, "bank")},
      {"bank_recorded", Int(was, "bank")},
      {"journal_now", Int(is, "journal")},
      {"journal_recorded", Int(was, "journal")},
      {"changes",
       d.changes}}.dump();
  return diff;
}

}  // namespace balcao::settlement
