// The migrations' C++ parts (internal/migrations.h), by migration name without its number.
#include <utility>

#include "offline/internal/journal_rows.h"
#include "offline/internal/migrations.h"

namespace balcao::offline::internal {

MigrationStep MigrationStepOf(std::string_view name) {
  static constexpr std::pair<std::string_view, MigrationStep> kSteps[] = {
      {"journal_chain", &ChainUnchainedRows},  // SHA-256 chain values of the rows before it
  };
  const std::size_t underscore = name.find('_');
  const std::string_view words = underscore == std::string_view::npos ? name : name.substr(underscore + 1);
  for (const auto& [step_name, step] : kSteps) {
    if (step_name == words) return step;
  }
  return nullptr;
}

}  // namespace balcao::offline::internal
