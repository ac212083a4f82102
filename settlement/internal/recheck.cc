#include "settlement/internal/recheck.h"

#include <nlohmann/json.hpp>
#include <string>

#include "offline/journal.h"
#include "settlement/words.h"

namespace balcao::settlement::internal {

JournalCheck CheckOf(const offline::ChainVerdict& verdict) {
  JournalCheck check;
  check.checked = true;
  check.verified = verdict.ok();
  check.rows = verdict.rows;
  check.head = offline::HexOf(verdict.head);
  if (verdict.broken) {
    const offline::ChainBreak& b = *verdict.broken;
    check.broken_row = b.position;
    check.broken_sale_id = b.sale_id;
    check.broken_seq = b.seq;
    check.broken_kind = offline::ChainBreakName(b.kind);
    check.broken_detail = b.detail;
  }
  return check;
}

// A day settled before, settled again: the journal's chain is verified now (a row changed
// after the night shows here, not only the next night), and the answer says what changed
// since the record; the record itself is kept as it was.
Status Recheck(offline::Store& store, const Clock& clock, Lang l, Settlement& result) {
  offline::Journal journal(store);
  BALCAO_ASSIGN_OR_RETURN(offline::ChainVerdict verdict, journal.VerifyChain());
  const JournalCheck now = CheckOf(verdict);
  const nlohmann::json stored = nlohmann::json::parse(result.json, nullptr, false);
  const nlohmann::json recorded =
      stored.is_object() ? stored.value("journal", nlohmann::json::object()) : nlohmann::json::object();
  const std::int64_t recorded_rows = recorded.value("rows", std::int64_t{0});
  std::string lines = Say(l, "Conferido de novo em ", "Re-checked at ") + FormatTimestamp(clock.Now()) + ": ";
  if (now.verified) {
    lines += Say(l, "a cadeia do diário está íntegra, ", "the journal chain holds, ") + std::to_string(now.rows) +
             Say(l, " linha(s) (", " row(s) (") + std::to_string(now.rows - recorded_rows) +
             Say(l, " escritas desde o registro)\n", " written since the record)\n");
  } else {
    result.reconciled = false;
    ++result.attention;
    lines +=
        Say(l, "! A CADEIA DO DIÁRIO ESTÁ QUEBRADA AGORA: ", "! THE JOURNAL CHAIN IS BROKEN NOW: ") + now.broken_kind +
        (now.broken_sale_id.empty() ? ""
                                    : " at sale " + now.broken_sale_id + " seq " + std::to_string(now.broken_seq)) +
        (now.broken_row > 0 ? " (journal row " + std::to_string(now.broken_row) + ")" : "") + "\n    " +
        now.broken_detail +
        Say(l,
            "\n    o diário foi alterado depois do registro deste dia: o registro abaixo é o que a noite viu, "
            "não o que o diário tem agora\n",
            "\n    the journal was changed after this day's record: the record below is what the night saw, "
            "not what the journal holds now\n");
    for (const auto& [holds, held] :
         {std::pair<std::string, std::string>{"Journal chain holds:",
                                              "Journal chain held when recorded (broken now, see above):"},
          {"Cadeia do diário íntegra:", "Cadeia do diário íntegra quando registrada (quebrada agora, veja acima):"}}) {
      if (auto at = result.text.find(holds); at != std::string::npos) result.text.replace(at, holds.size(), held);
    }
  }
  result.recheck_text = lines;
  nlohmann::ordered_json recheck = {{"at", FormatTimestamp(clock.Now())},
                                    {"verified", now.verified},
                                    {"rows", now.rows},
                                    {"rows_since_record", now.rows - recorded_rows}};
  if (!now.verified)
    recheck["broken"] = {{"row", now.broken_row},
                         {"sale_id", now.broken_sale_id},
                         {"seq", now.broken_seq},
                         {"kind", now.broken_kind},
                         {"detail", now.broken_detail}};
  result.recheck_json = recheck.dump();
  return OkStatus();
}

}  // namespace balcao::settlement::internal
