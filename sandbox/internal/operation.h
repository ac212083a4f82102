// The generic operations on a matched route (docs/wire.md, "Envelopes and naming"): list,
// get, create (batch or single), patch, delete, files and sub-resources, each answered in
// the API's envelope from what the resource's family does (family.h).
// Thread-safety: as Engine (one engine transaction per call).
#pragma once

#include "http/server.h"
#include "sandbox/internal/engine_core.h"
#include "sandbox/internal/route.h"

namespace balcao::sandbox::internal {

// Runs `route` for `caller` inside one engine transaction and answers it: 400 with every
// problem (nothing written), 500 when the store failed, else the envelope or the file.
http::HttpResponse Serve(Engine& engine, const Route& route, const Caller& caller, const Query& query,
                         const http::HttpRequest& request, Lang lang);

}  // namespace balcao::sandbox::internal
