// Splits of a paid receivable (API documentation, part 1, "Split"; docs/wire.md, "Sandbox
// behaviour"): each entry of an invoice's or boleto's `splits` becomes a split tagged
// "<resource>/<id>", status created, then success after the workspace's split-profile
// delay, when the amount leaves the ledger.
// Implemented in family_split.cc. Thread-safety: as Context.
#pragma once

#include "sandbox/internal/engine.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {

// How a resource words a bad `splits` list: where an entry's problem is named, and the total
// over the amount.
struct SplitWording {
  Reader::EntryProblems where;  // a boleto names the list, an invoice the entry's field
  std::string_view over_en;
  std::string_view over_pt;
};
inline constexpr SplitWording kBoletoSplits{Reader::EntryProblems::kOnTheList, "add up to more than the amount.",
                                            "somam mais que o valor."};
inline constexpr SplitWording kInvoiceSplits{
    Reader::EntryProblems::kOnTheEntry, "add up to more than the invoice amount.", "somam mais que o valor da fatura."};

// Validates a `splits` list of a create (receiverId of an existing split receiver, amount >
// 0, total at most `amount`); returns the normalised list (empty when absent).
Json ReadSplits(Context& ctx, Reader& in, std::optional<std::int64_t> amount, const SplitWording& wording);
// One entry of a `splits` list: {"receiverId": a split receiver of this workspace, "amount":
// 1 to R$ 1 billion}, as {"receiverId", "amount"}; null with the problems in `local` (named
// "splits[]...") when it is not.
Json ReadSplitEntry(Context& ctx, const Json& entry, Problems& local);
// Creates the splits of `receivable` (an invoice or boleto just paid). No-op without splits.
void CreateSplits(Context& ctx, const Entity& receivable);

}  // namespace balcao::sandbox::internal
