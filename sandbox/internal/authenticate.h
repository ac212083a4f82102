// Who signed a request: Access-Id, Access-Time and Access-Signature checked against the
// principals registered in the engine (docs/wire.md, "Signing").
// Thread-safety: as Engine (its locked methods only).
#pragma once

#include <optional>

#include "http/server.h"
#include "sandbox/internal/engine_core.h"

namespace balcao::sandbox::internal {

// The caller the request's signing headers name, or nullopt with one problem per thing wrong
// (a missing header, a malformed Access-Id, an unknown principal, an Access-Time outside the
// window, a signature that does not check out, a workspace of another organization).
std::optional<Caller> Authenticate(Engine& engine, const http::HttpRequest& request, Problems& problems);

}  // namespace balcao::sandbox::internal
