// The life cycle shared by transfers and the brcode / boleto / utility / tax / darf
// payments (API documentation, part 2, "States and transitions"): created (log created) ->
// processing at `scheduled` on the sandbox clock (ledger debit of amount + fee;
// insufficient balance fails it) -> success after the family's settle delay; failed refunds
// the debit; DELETE (or brcode PATCH) cancels only before processing (invalidAction
// otherwise); receipts exist for created, processing and success. Each family declares its
// FlowSpec once with AddFlow.
// Thread-safety: as Context; specs are registered at startup and then only read.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/internal/family.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {

struct FlowSpec {
  std::string resource;                             // the family's: AddFlow sets it
  std::string label;                                // "Transfer", "Boleto payment": statement and receipt title
  UnixMicros settle_delay = 10 * kMicrosPerSecond;  // processing -> success
  bool canceling_log = true;                        // DELETE writes "canceling" before "canceled"
  // Runs when processing starts, after the debit (e.g. pays the sandbox invoice a brcode
  // names). A returned problem fails the payment and refunds it.
  std::function<std::optional<Problem>(Context&, Entity&)> on_process;
  // Receipt lines after the common ones (amount, status, dates).
  std::function<std::vector<std::string>(const Entity&)> receipt_lines;
};

inline const std::vector<std::string> kFlowStatuses = {"created", "processing", "success", "failed", "canceled"};
inline const std::vector<std::string> kFlowLogTypes = {"created", "processing", "success",
                                                       "failed",  "canceling",  "canceled"};

// Registers the family (create/remove/file) and the jobs "<resource>.process" and
// "<resource>.settle". `family.create` must call StartFlow.
void AddFlow(Registry& registry, Family family, FlowSpec spec);
// Inserts `doc` (status created, fee, transactionIds added), logs "created" and schedules
// processing at max(scheduled, now). Returns the stored doc.
Json StartFlow(Context& ctx, std::string_view resource, Json doc, UnixMicros scheduled);
// Cancels `e` before processing (DELETE / PATCH status canceled); invalidAction otherwise.
void CancelFlow(Context& ctx, Entity& e, Problems& problems);
// `scheduled` of a create: date (that day, from 00:00 BRT) or timestamp; default now;
// a past day is refused (invalidDate / invalidDateTime). Returns UTC micros.
std::optional<UnixMicros> ReadScheduled(Context& ctx, Reader& in);
// Runs simulation `name` (a payer action such as "invoice/pay") with `body` in the
// workspace that owns resource/id, inside the current transaction: money paid from this
// workspace reaches a receivable of this sandbox. Returns the receiver's first problem.
std::optional<Problem> PayInSandbox(Context& ctx, std::string_view resource, const std::string& id,
                                    const std::string& simulation, Json body);
// Runs `fn` in a Context of the workspace that owns resource/id (nullopt: no such entity).
std::optional<Json> InOwnerWorkspace(Context& ctx, std::string_view resource, const std::string& id,
                                     const std::function<Json(Context&)>& fn);

}  // namespace balcao::sandbox::internal
