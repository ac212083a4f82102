// The generic resource operations, written once for every resource: each builds the
// method, path, query and envelope from the ResourceSpec (api/resources.h), sends it
// through Client::Call and unwraps the answer through a ModelCodec. The typed
// ResourceClient<T> (api/resource.h) is a thin layer of templates over these.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/client.h"
#include "api/internal/model_codec.h"
#include "api/list.h"
#include "api/resources.h"

namespace balcao::api::internal {

// Where an operation points: the resource, and whether it is the resource's /log routes.
struct Target {
  const Client* client;
  const ResourceSpec* spec;
  bool log = false;
};

// POST (or PUT) {"<plural>":[items...]} in chunks of at most 100; appends every created
// item to out_vector. On a failed chunk, the items of earlier chunks are in out_vector
// and the Status says which items were not created.
Status SendBatch(const Target& t, std::string_view method, const ModelCodec& codec, const void* items,
                 std::size_t count, void* out_vector);
// POST {entity} unwrapped -> {"<single>":{...}}.
Status CreateSingle(const Target& t, const ModelCodec& codec, const void* item, void* out);
// GET /x/{id}?fields=...
Status GetOne(const Target& t, const ModelCodec& codec, std::string_view id, const std::vector<std::string>& fields,
              void* out);
// GET /x?limit&cursor&fields&filters -> one page.
Status ListOnePage(const Target& t, const ModelCodec& codec, const ListParams& params, void* out_vector,
                   std::string* next_cursor);
// Parses a list answer {"cursor":..,"<plural>":[...]} (what ListOnePage does after the
// request); `what` names the request in errors.
Status ParsePage(const Target& t, const ModelCodec& codec, std::string_view body, std::string_view what,
                 void* out_vector, std::string* next_cursor);
// PATCH /x/{id} {changes} -> {"<single>":{...}}.
Status PatchOne(const Target& t, const ModelCodec& codec, std::string_view id, const void* changes, void* out);
// DELETE /x/{id} -> {"<single>":{...}}.
Status DeleteOne(const Target& t, const ModelCodec& codec, std::string_view id, void* out);
// GET /x/{id}/<sub> -> {"<sub>":{...}} (invoice payment).
Status GetSub(const Target& t, const ModelCodec& codec, std::string_view id, std::string_view sub, void* out);
// POST /x/{id}/<sub> {entity} -> {"<sub>":{...}} (merchant-session purchase).
Status PostSub(const Target& t, const ModelCodec& codec, std::string_view id, std::string_view sub, const void* item,
               void* out);
// GET /x[/log]/{id}/<kind> -> raw bytes (pdf, qrcode).
StatusOr<std::string> GetBytes(const Target& t, std::string_view id, std::string_view kind, const Query& query);

// kInvalidArgument unless every filter is one the (log) list of t.spec accepts.
Status CheckFilters(const Target& t, const ListParams& params);
// A resource's own op check: kFailedPrecondition "<resource> has no <what> route".
Status Require(const Target& t, Op op, std::string_view what);

}  // namespace balcao::api::internal
