// Generic lists over stored collections (docs/wire.md, "Query strings", "Paging" and "List
// filters"), as the generic operations and the families that list by hand use them.
// Thread-safety: as Context.
#pragma once

#include "api/resources.h"
#include "sandbox/internal/engine.h"

namespace balcao::sandbox::internal {

// Generic list of a stored collection: {"cursor": ..., "<plural>": [...]}.
Json ListEnvelope(Context& ctx, const api::ResourceSpec& spec, bool is_log, const Query& query, Problems& problems);
// Keeps only the keys named in the `fields` query parameter (no-op when absent).
void ApplyFields(Json& doc, const Query& query);

}  // namespace balcao::sandbox::internal
