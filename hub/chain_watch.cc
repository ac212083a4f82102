#include "hub/chain_watch.h"

#include <nlohmann/json.hpp>

namespace balcao::hub {

StatusOr<ChainClaim> ParseChainClaim(const std::string& text) {
  const auto json = nlohmann::json::parse(text, nullptr, false);
  if (!json.is_object()) return InvalidArgumentError("chain: an object");
  ChainClaim claim;
  for (const char* key : {"rows", "prev_rows"})
    if (!json.contains(key) || !json[key].is_number_integer() || json[key].get<std::int64_t>() < 0)
      return InvalidArgumentError(std::string("chain.") + key + ": a row count");
  for (const char* key : {"head", "prev_at"})
    if (!json.contains(key) || !json[key].is_string())
      return InvalidArgumentError(std::string("chain.") + key + ": hex");
  claim.rows = json["rows"].get<std::int64_t>();
  claim.head = json["head"].get<std::string>();
  claim.prev_rows = json["prev_rows"].get<std::int64_t>();
  claim.prev_at = json["prev_at"].get<std::string>();
  return claim;
}

std::string ChainBreakOf(const ChainClaim& claim, const std::optional<std::string>& seen_at_prev,
                         const std::optional<std::string>& seen_at_rows, std::int64_t most_rows_seen) {
  if (claim.rows < most_rows_seen)
    return "the journal has " + std::to_string(claim.rows) + " rows, the hub saw " + std::to_string(most_rows_seen) +
           ": rows were removed";
  if (seen_at_rows && *seen_at_rows != claim.head)
    return "row " + std::to_string(claim.rows) + " hashes to " + claim.head + ", the hub saw " + *seen_at_rows +
           ": the journal was rewritten";
  if (claim.prev_rows > 0 && seen_at_prev && *seen_at_prev != claim.prev_at)
    return "row " + std::to_string(claim.prev_rows) + " now hashes to " +
           (claim.prev_at.empty() ? std::string("nothing") : claim.prev_at) + ", the hub saw " + *seen_at_prev +
           ": the journal was rewritten and its chain recomputed";
  return "";
}

}  // namespace balcao::hub
