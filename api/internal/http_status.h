// The one mapping from the bank's answer to a Status (docs/style.md S2):
//   200                                   OK
//   400 + {"errors":[{code,message}...]}  by the bank's code:
//        unknown id on a by-id route (invalid<Resource>, invalidWebhookId...) kNotFound
//        state codes (invalidOperation, invalidAction, ...)                kFailedPrecondition
//        auth codes (invalidCredentials, invalidProject, ...)              kFailedPrecondition
//        anything else (validation, unknown codes)                          kInvalidArgument
//   400 whose body is not an errors array   kInternal "malformed bank response"
//   500                                    kInternal
//   anything else (a proxy's 502, a 404)   kUnknown
// Every non-OK result carries http_status, Delivery::kAnswered and the {code,message} list.
#pragma once

#include <string_view>

#include "common/status.h"

namespace balcao::api::internal {

// `what` names the request ("GET /v2/invoice/1") for the message; `by_id_route` is true
// for routes addressing one entity (/x/{id}...), where an unknown-id code means kNotFound.
Status AsStatus(int http_status, std::string_view body, std::string_view what, bool by_id_route);

// The classification of one bank error code on a by-id route or elsewhere.
StatusCode CodeOfBankError(std::string_view code, bool by_id_route);

}  // namespace balcao::api::internal
