#include "terminal/internal/sale_events.h"

#include "checkout/journal_codec.h"

namespace balcao::terminal {

StatusOr<std::vector<checkout::Event>> ReadSaleEvents(offline::Journal& journal, const std::string& sale_id) {
  BALCAO_ASSIGN_OR_RETURN(const std::vector<offline::JournalEntry> entries, journal.Read(sale_id));
  if (entries.empty()) return NotFoundError("no journal of sale " + sale_id);
  std::vector<checkout::Event> events;
  events.reserve(entries.size());
  for (const offline::JournalEntry& entry : entries) {
    BALCAO_ASSIGN_OR_RETURN(checkout::Event event, checkout::EventFromJson(entry.payload));
    events.push_back(std::move(event));
  }
  return events;
}

CardTerms ReadCardTerms(offline::Journal& journal, const std::string& sale_id) {
  auto events = ReadSaleEvents(journal, sale_id);
  return events.ok() ? CardTermsOf(*events) : CardTerms{};
}

}  // namespace balcao::terminal
