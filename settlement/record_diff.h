// What changed at the bank since a day's record (docs/settlement.md, "Settling a day again"):
// the record's report against the same day reconciled again now, both as ReportJson gives
// them. Pure: text and JSON only.
#pragma once

#include <string>

#include "settlement/words.h"

namespace balcao::settlement {

struct RecordDiff {
  int changes = 0;   // each one an item to look at
  std::string text;  // lines for the answer, in the report's language
  std::string json;  // {"bank_now","bank_recorded","journal_now","journal_recorded","changes":[...]}
};

// `recorded` and `now`: ReportJson documents of the same day. A sale's class, what the bank
// holds for it or what its journal collected; an orphan that appeared, went, or holds another
// amount; a sale the bank's day brings that the record did not have. kInvalidArgument when
// either is not a report.
StatusOr<RecordDiff> DiffRecord(const std::string& recorded, const std::string& now, Lang lang);

}  // namespace balcao::settlement
