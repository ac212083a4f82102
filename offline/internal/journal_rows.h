// Journal writes inside a caller's transaction, so an event and the outbox row it
// causes can commit together (Outbox::EnqueueWithJournal).
#pragma once

#include <string>

#include "common/status.h"
#include "offline/internal/db.h"

namespace balcao::offline::internal {

// Validates and appends inside `txn` (see Journal::Append for the rules).
Status AppendJournal(Txn& txn, const std::string& sale_id, std::int64_t seq, const std::string& kind,
                     const std::string& json_payload);

}  // namespace balcao::offline::internal
