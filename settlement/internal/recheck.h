// The journal chain's verdict in the report's terms, and the re-check of a day settled
// before (docs/settlement.md, "Settling a day again"): the chain verified now, what changed
// since the record said in the answer's text and JSON ("recheck"); the record itself is kept.
// Thread-safety: one run at a time.
#pragma once

#include "common/status.h"
#include "common/time.h"
#include "offline/journal_chain.h"
#include "offline/store.h"
#include "settlement/settle.h"

namespace balcao::settlement::internal {

JournalCheck CheckOf(const offline::ChainVerdict& verdict);

// `result` read back from the record: verifies the chain now into its recheck_text and
// recheck_json; a broken chain makes it need the operator and replaces the record's "holds"
// line in its text.
Status Recheck(offline::Store& store, const Clock& clock, Lang lang, Settlement& result);

}  // namespace balcao::settlement::internal
