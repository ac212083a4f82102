// Splits of a paid receivable (API documentation, part 1, "Split"; docs/wire.md, "Sandbox
// behaviour"): each entry of an invoice's or boleto's `splits` becomes a split tagged
// "<resource>/<id>", status created, then success after the workspace's split-profile
// delay, when the amount leaves the ledger.
// Implemented in family_split.cc. Thread-safety: as Context.
#pragma once

#include "sandbox/internal/engine.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {

// Validates a `splits` list of a create (receiverId of an existing split receiver, amount >
// 0, total at most `amount`); returns the normalised list (empty when absent).
Json ReadSplits(Context& ctx, Reader& in, std::optional<std::int64_t> amount);
// One entry of a `splits` list: {"receiverId": a split receiver of this workspace, "amount":
// 1 to R$ 1 billion}, as {"receiverId", "amount"}; null with the problems in `local` (named
// "splits[]...") when it is not.
Json ReadSplitEntry(Context& ctx, const Json& entry, Problems& local);
// Creates the splits of `receivable` (an invoice or boleto just paid). No-op without splits.
void CreateSplits(Context& ctx, const Entity& receivable);

}  // namespace balcao::sandbox::internal
