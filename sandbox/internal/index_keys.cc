// The filter keys of stored documents (engine_core.h): what a list's filters and a family's
// FindBy look entities up by.
#include <algorithm>

#include "sandbox/internal/engine_core.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {
namespace {

void AddValues(std::vector<IndexKey>& keys, const std::string& name, const Json& v) {
  if (v.is_array()) {
    for (const auto& item : v) AddValues(keys, name, item);
  } else if (v.is_string()) {
    keys.emplace_back(name, name == "taxId" ? TaxIdDigits(v.get<std::string>()) : v.get<std::string>());
  } else if (v.is_boolean()) {
    keys.emplace_back(name, v.get<bool>() ? "true" : "false");
  } else if (v.is_number_integer()) {
    keys.emplace_back(name, std::to_string(v.get<std::int64_t>()));
  }
}

}  // namespace

// "invoice/log" -> ("invoice", true)
std::pair<std::string_view, bool> SplitLogResource(std::string_view resource) {
  constexpr std::string_view kLog = "/log";
  if (resource.size() > kLog.size() && resource.substr(resource.size() - kLog.size()) == kLog)
    return {resource.substr(0, resource.size() - kLog.size()), true};
  return {resource, false};
}

std::vector<std::string_view> ExtraLogFilters(std::string_view resource) {
  // API documentation, part 2: "GET /v2/invoice-pull-subscription/log: log list parameters
  // plus subscriptionIds, tags".
  if (resource == "invoice-pull-subscription") return {"tags"};
  return {};
}

std::vector<IndexKey> IndexKeys(std::string_view resource, const Json& doc) {
  std::vector<IndexKey> keys;
  if (!doc.is_object()) return keys;
  auto [base, is_log] = SplitLogResource(resource);
  const api::ResourceSpec* spec = api::FindResource(base);
  if (is_log) {
    if (auto t = doc.find("type"); t != doc.end()) AddValues(keys, "types", *t);
    if (spec && !spec->log_id_filter.empty()) {
      auto ent = doc.find(std::string(spec->log_entity_key));
      if (ent != doc.end() && ent->is_object() && ent->contains("id"))
        AddValues(keys, std::string(spec->log_id_filter), (*ent)["id"]);
      for (std::string_view filter : ExtraLogFilters(base))
        if (ent != doc.end() && ent->is_object() && ent->contains(std::string(filter)))
          AddValues(keys, std::string(filter), (*ent)[std::string(filter)]);
    }
    return keys;
  }
  for (const char* always : {"uuid", "externalId"})
    if (auto it = doc.find(always); it != doc.end()) AddValues(keys, always, *it);
  if (auto it = doc.find("tags"); it != doc.end()) AddValues(keys, "tags", *it);
  if (!spec) return keys;
  static const std::vector<std::string_view> kGeneric = {"after", "before", "fields", "ids",   "status",
                                                         "sort",  "expand", "tags",   "limit", "cursor"};
  for (std::string_view filter : spec->filters) {
    if (std::find(kGeneric.begin(), kGeneric.end(), filter) != kGeneric.end()) continue;
    std::string name(filter);
    auto it = doc.find(name);
    if (it == doc.end() && name.size() > 1 && name.back() == 's') it = doc.find(name.substr(0, name.size() - 1));
    // A resource's own ids under its own name (split-receiver's receiverIds) match its id.
    if (it == doc.end() && name == std::string(spec->single_key) + "Ids") it = doc.find("id");
    if (it != doc.end()) AddValues(keys, name, *it);
  }
  // Event attempts and events are looked up by their ids in the other direction too.
  for (const char* ref : {"eventId", "webhookId"})
    if (auto it = doc.find(ref); it != doc.end()) AddValues(keys, std::string(ref) + "s", *it);
  return keys;
}

}  // namespace balcao::sandbox::internal
