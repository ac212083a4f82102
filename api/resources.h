// The bank API's resources, each declared once. The client (api/) and the emulator
// (sandbox/) both derive their routes, envelope keys and filters from this table,
// so the 140 method+path pairs of the API documentation come from ~35 declarations.
// Envelope rule (docs/wire.md, "Envelopes and naming"): single key = last kebab word,
// plural = single + "s" ("y" -> "ies", unchanged when it ends in "s"); exceptions are
// spelled out.
// Thread-safety: immutable static data.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace balcao::api {

// What a resource offers. Each flag expands to one or two method+path pairs.
enum Op : unsigned {
  kCreateBatch = 1u << 0,   // POST /x        {"<plural>":[...]}  -> {"<plural>":[...]}
  kCreateSingle = 1u << 1,  // POST /x        {entity}            -> {"<single>":{...}}
  kPutBatch = 1u << 2,      // PUT  /x        {"<plural>":[...]}  -> {"<plural>":[...]}
  kList = 1u << 3,          // GET  /x        -> {"cursor":..,"<plural>":[...]}
  kGet = 1u << 4,           // GET  /x/{id}   -> {"<single>":{...}}
  kPatch = 1u << 5,         // PATCH /x/{id}  {changes} -> {"<single>":{...}}
  kDelete = 1u << 6,        // DELETE /x/{id} -> {"<single>":{...}}
  kPdf = 1u << 7,           // GET  /x/{id}/pdf            -> bytes
  kQrcode = 1u << 8,        // GET  /x/{id}/qrcode?size=N  -> PNG bytes
  kPaymentSub = 1u << 9,    // GET  /x/{id}/payment        -> {"payment":{...}}
  kPurchaseSub = 1u << 10,  // POST /x/{uuid}/purchase     -> {"purchase":{...}}
  kLogs = 1u << 11,         // GET  /x/log, GET /x/log/{id}
  kLogPdf = 1u << 12,       // GET  /x/log/{id}/pdf
};

struct ResourceSpec {
  std::string_view name;                  // path segment(s) after /v2/: "invoice", "boleto-holmes", "event/attempt"
  std::string_view single_key;            // envelope key of one entity: "invoice", "holmes", "brcode"
  std::string_view plural_key;            // envelope key of a list: "invoices", "holmes", "brcodes"
  unsigned ops;                           // bitwise OR of Op
  std::vector<std::string_view> filters;  // list query parameters accepted (API docs), besides limit/cursor
  std::string_view log_entity_key = {};   // key of the entity inside its logs ("invoice", "payment")
  std::string_view log_id_filter = {};    // id filter of its log list ("invoiceIds")
  std::string_view subscription = {};     // webhook subscription that carries its logs, if any

  bool Has(Op op) const { return (ops & op) != 0; }
};

// One method+path pair of the API, e.g. {"GET", "/v2/invoice/{id}/qrcode"}.
struct Endpoint {
  std::string_view method;
  std::string path;  // with "{id}" (or "{uuid}") placeholders
  const ResourceSpec* resource;
  Op op;
  bool is_log;  // a /log route of the resource
};

const std::vector<ResourceSpec>& Resources();
const ResourceSpec* FindResource(std::string_view name);
// A resource's name or key in PascalCase ("boleto-holmes" -> "BoletoHolmes", "event/attempt"
// -> "EventAttempt"): the <Resource> of the bank's invalid<Resource> codes (docs/wire.md,
// "Error codes").
std::string PascalName(std::string_view name);
// Every endpoint of both parts of the API documentation, derived from Resources(): 140 pairs.
const std::vector<Endpoint>& Endpoints();
// The template of the endpoint a request addresses ("GET", "/v2/invoice/5730" ->
// "/v2/invoice/{id}"; the query is not part of `path`). Where two match, the one with more
// literal segments wins ("/v2/event/attempt" over "/v2/event/{id}"); "other" when no
// endpoint of that method matches. A bounded set of values (metrics labels), never an id.
std::string_view EndpointTemplateOf(std::string_view method, std::string_view path);

// Query parameters every log list accepts (API documentation, part 1, "Shared rules").
inline constexpr std::string_view kLogListFilters[] = {"after", "before", "cursor", "fields", "limit", "types"};
// Webhook subscriptions the API documentation names (part 2, "Webhook": "Subscription
// values"; copied with its source into tests/data/webhook-subscriptions.txt). A bank refuses a
// registration that names any other.
const std::vector<std::string_view>& Subscriptions();
// Resources with logs the documents give no subscription for (card acceptance, splits, invoice
// pulls): a bank that ever sent their events would use these names. The sandbox accepts them
// only when told to (SandboxOptions::undocumented_subscriptions).
const std::vector<std::string_view>& UndocumentedSubscriptions();

}  // namespace balcao::api
