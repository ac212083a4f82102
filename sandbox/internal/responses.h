// The API's answers as the dispatcher, the listing and the simulation routes write them
// (docs/wire.md, "Envelopes and naming" and "Errors"): JSON bodies, the error envelope in the
// caller's language, the refusals the HTTP server makes by itself, and request bodies parsed.
// Pure; thread-safe.
#pragma once

#include <optional>
#include <string_view>

#include "http/server.h"
#include "sandbox/internal/engine.h"

namespace balcao::sandbox::internal {

using http::Disposition;
using http::HttpRequest;
using http::HttpResponse;

// pt-BR when Accept-Language starts with it, else en-US.
Lang LangOf(const HttpRequest& request);
HttpResponse JsonResponse(int status, const Json& body);
// {"errors": [{"code", "message"}...]}, each message in `lang`.
HttpResponse ErrorResponse(int status, const Problems& problems, Lang lang);
// 500 internalServerError; the cause goes to stderr, never to the caller.
HttpResponse InternalErrorResponse(const Status& status);
// What the server answers by itself (malformed HTTP, a body or headers over the limit, a
// handler that threw), in the API's error envelope, naming the limit in force.
HttpResponse RefusalResponse(const http::Refusal& refusal);
// Parses a request body as JSON (depth-limited); nullopt + a problem when it is not.
std::optional<Json> ParseBody(std::string_view body, Problems& problems);

}  // namespace balcao::sandbox::internal
