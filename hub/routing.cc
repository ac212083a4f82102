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
