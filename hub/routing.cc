#include "hub/routing.h"

#include <nlohmann/json.hpp>

#include "checkout/types.h"

namespace balcao::hub {
namespace {
constexpr std::string_view kBrcodeTag = "dynamic-brcode/";
}

std::string LaneSubject(std::string_view store, std::string_view terminal) {
  return std::string(kEventsPrefix) + std::string(store) + "." + std::string(terminal);
}
std::string ConsumerName(std::string_view store, std::string_view terminal) {
  return "lane_" + std::string(store) + "_" + std::string(terminal);
}
std::string LaneUser(std::string_view store, std::string_view terminal) {
  return "lane." + std::string(store) + "." + std::string(terminal);
}
std::string LaneInbox(std::string_view store, std::string_view terminal) {
  return "_INBOX_" + std::string(store) + "_" + std::string(terminal);
}
std::string BoxSubject(std::string_view store, std::string_view terminal, std::string_view kind) {
  return "balcao.box." + std::string(store) + "." + std::string(terminal) + "." + std::string(kind);
}

bool ParseBoxSubject(std::string_view subject, BoxSubjectParts& parts) {
  constexpr std::string_view kPrefix = "balcao.box.";
  if (!subject.starts_with(kPrefix)) return false;
  std::vector<std::string> tokens;
  for (std::size_t start = kPrefix.size(), dot; start <= subject.size(); start = dot + 1) {
    dot = subject.find('.', start);
    if (dot == std::string_view::npos) dot = subject.size();
    tokens.emplace_back(subject.substr(start, dot - start));
  }
  if (tokens.size() != 3 || tokens[0].empty() || tokens[1].empty() || tokens[2].empty()) return false;
  parts = {tokens[0], tokens[1], tokens[2]};
  return true;
}

Route RouteOfTags(const std::vector<std::string>& tags) {
  const checkout::TaggedSale sale = checkout::SaleOfTags(tags);
  Route route;
  if (sale.store.empty() || !checkout::LaneIdRule(sale.store).empty() || !checkout::LaneIdRule(sale.terminal).empty()) {
    route.subject = std::string(kUnclaimedSubject);
    return route;
  }
  route.store = sale.store;
  route.terminal = sale.terminal;
  route.subject = LaneSubject(sale.store, sale.terminal);
  return route;
}

Route RouteOfEvent(const api::Event& event) {
  const auto entity = nlohmann::json::parse(event.log.entity_json, nullptr, false);
  std::vector<std::string> tags;
  if (entity.is_object() && entity.contains("tags") && entity["tags"].is_array())
    for (const auto& tag : entity["tags"])
      if (tag.is_string()) tags.push_back(tag.get<std::string>());
  if (event.subscription == "deposit") {
    for (const std::string& tag : tags) {
      if (tag.rfind(kBrcodeTag, 0) == 0 && tag.size() > kBrcodeTag.size()) {
        Route route;
        route.brcode_uuid = tag.substr(kBrcodeTag.size());
        return route;
      }
    }
  }
  return RouteOfTags(tags);
}

}  // namespace balcao::hub
