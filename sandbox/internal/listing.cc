// Generic lists over stored collections (docs/wire.md, "Query strings", "Paging" and "List
// filters"): limit, cursor, after, before, ids, status, tags, types, sort, fields and the
// per-resource filters of the table.
#include "sandbox/internal/listing.h"

#include <algorithm>

#include "sandbox/internal/engine_core.h"
#include "sandbox/internal/family.h"
#include "sandbox/internal/url.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {
namespace {

bool IsGeneric(std::string_view name) {
  static const std::vector<std::string_view> kGeneric = {"after",  "before", "cursor", "fields", "ids",   "limit",
                                                         "status", "tags",   "types",  "sort",   "expand"};
  return std::find(kGeneric.begin(), kGeneric.end(), name) != kGeneric.end();
}

void BadParam(Problems& problems, const std::string& code, const std::string& param, const std::string& en_rule,
              const std::string& pt_rule) {
  problems.push_back(
      MakeProblem(code, "Query parameter '" + param + "' " + en_rule, "Parâmetro '" + param + "' " + pt_rule));
}

// Every value must be in `allowed` (when it is not empty).
bool CheckValues(const std::vector<std::string>& values, const std::vector<std::string>& allowed) {
  if (allowed.empty()) return true;
  return std::all_of(values.begin(), values.end(), [&](const std::string& v) {
    return std::find(allowed.begin(), allowed.end(), v) != allowed.end();
  });
}

// limit (1 to 100) and cursor ("<created>.<seq>", as this sandbox issues it) of a list.
void ReadPaging(const Query& query, ListQuery& q, Problems& problems) {
  if (auto it = query.find("limit"); it != query.end()) {
    const std::string& v = it->second;
    const bool digits = !v.empty() && v.size() <= 3 && std::all_of(v.begin(), v.end(), ::isdigit);
    const int n = digits ? std::stoi(v) : 0;
    if (n < 1 || n > 100)
      BadParam(problems, "invalidLimit", "limit", "must be an integer from 1 to 100.",
               "deve ser um inteiro de 1 a 100.");
    else
      q.limit = n;
  }
  if (auto it = query.find("cursor"); it != query.end()) {
    const std::string& c = it->second;
    const std::size_t dot = c.find('.');
    bool ok = dot != std::string::npos && dot > 0 && dot + 1 < c.size() &&
              std::all_of(c.begin(), c.end(), [](char ch) { return ::isdigit(ch) || ch == '.' || ch == '-'; });
    if (ok) {
      try {
        q.cursor = std::make_pair(std::stoll(c.substr(0, dot)), std::stoll(c.substr(dot + 1)));
      } catch (...) {
        ok = false;
      }
    }
    if (!ok)
      BadParam(problems, "invalidCursor", "cursor", "is not a cursor this sandbox issued.",
               "não é um cursor emitido por este sandbox.");
  }
}

// after and before: a date (a "before" date includes that day) or an ISO 8601 timestamp.
void ReadTimeWindow(const Query& query, ListQuery& q, Problems& problems) {
  for (const char* name : {"after", "before"}) {
    auto it = query.find(name);
    if (it == query.end()) continue;
    auto t = ParseTimestamp(it->second);
    if (!t.ok()) {
      BadParam(problems, "invalidDate", name, "must be a date (YYYY-MM-DD) or an ISO 8601 timestamp.",
               "deve ser uma data (AAAA-MM-DD) ou um horário ISO 8601.");
      continue;
    }
    const bool date_only = it->second.size() == 10;
    if (std::string_view(name) == "after")
      q.after = *t;
    else
      q.before = *t + (date_only ? 86'400 * kMicrosPerSecond : 1);  // "before" includes that day
  }
}

void ReadSort(const Query& query, ListQuery& q, Problems& problems) {
  if (auto it = query.find("sort"); it != query.end()) {
    const std::string& v = it->second;
    if (v == "created" || v == "updated")
      q.ascending = true;
    else if (v != "-created" && v != "-updated")
      BadParam(problems, "invalidSort", "sort", "must be created, -created, updated or -updated.",
               "deve ser created, -created, updated ou -updated.");
  }
}

// An entity list's filters: status, tags and the resource's own filters.
void ReadEntityFilters(const Query& query, const api::ResourceSpec& spec, const Family* family, ListQuery& q,
                       Problems& problems) {
  if (auto it = query.find("status"); it != query.end()) {
    q.statuses = SplitList(it->second);
    if (!CheckValues(q.statuses, family ? family->statuses : std::vector<std::string>{}))
      BadParam(problems, "invalidStatus", "status", "holds a status this resource does not have.",
               "contém um status que este recurso não tem.");
  }
  if (auto it = query.find("tags"); it != query.end()) {
    auto tags = SplitList(it->second);
    for (auto& t : tags) std::transform(t.begin(), t.end(), t.begin(), ::tolower);
    q.keys.emplace_back("tags", std::move(tags));
  }
  for (std::string_view filter : spec.filters) {
    if (IsGeneric(filter)) continue;
    auto it = query.find(filter);
    if (it == query.end()) continue;
    auto values = SplitList(it->second);
    if (filter == "taxId")
      for (auto& v : values) v = TaxIdDigits(v);
    if (filter == "isDelivered") {
      auto b = ParseBool(it->second);
      if (!b) {
        BadParam(problems, "invalidIsDelivered", "isDelivered", "must be true or false.", "deve ser true ou false.");
        continue;
      }
      values = {*b ? "true" : "false"};
    }
    q.keys.emplace_back(std::string(filter), std::move(values));
  }
}

// A log list's filters: types and the id of the entity the logs are of.
void ReadLogFilters(const Query& query, const api::ResourceSpec& spec, const Family* family, ListQuery& q,
                    Problems& problems) {
  if (auto it = query.find("types"); it != query.end()) {
    auto types = SplitList(it->second);
    if (!CheckValues(types, family ? family->log_types : std::vector<std::string>{})) {
      Problem p = NotFound(q.resource, it->second);
      BadParam(problems, p.code, "types", "holds a log type this resource does not have.",
               "contém um tipo de log que este recurso não tem.");
    }
    q.keys.emplace_back("types", std::move(types));
  }
  if (!spec.log_id_filter.empty())
    if (auto it = query.find(spec.log_id_filter); it != query.end())
      q.keys.emplace_back(std::string(spec.log_id_filter), SplitList(it->second));
  for (std::string_view filter : ExtraLogFilters(spec.name))
    if (auto it = query.find(filter); it != query.end()) {
      auto values = SplitList(it->second);
      if (filter == "tags")
        for (auto& t : values) std::transform(t.begin(), t.end(), t.begin(), ::tolower);
      q.keys.emplace_back(std::string(filter), std::move(values));
    }
}

}  // namespace

void ApplyFields(Json& doc, const Query& query) {
  auto it = query.find("fields");
  if (it == query.end() || !doc.is_object()) return;
  const auto fields = SplitList(it->second);
  Json kept = Json::object();
  for (const auto& f : fields)
    if (auto v = doc.find(f); v != doc.end()) kept[f] = *v;
  doc = std::move(kept);
}

Json ListEnvelope(Context& ctx, const api::ResourceSpec& spec, bool is_log, const Query& query, Problems& problems) {
  const Family* family = Registry::Instance().Find(spec.name);
  ListQuery q;
  q.resource = std::string(spec.name) + (is_log ? "/log" : "");
  q.scope = spec.name == "workspace" ? ctx.caller().organization_id : ctx.workspace_id();
  ReadPaging(query, q, problems);
  ReadTimeWindow(query, q, problems);
  if (auto it = query.find("ids"); it != query.end()) q.ids = SplitList(it->second);
  ReadSort(query, q, problems);
  if (is_log)
    ReadLogFilters(query, spec, family, q, problems);
  else
    ReadEntityFilters(query, spec, family, q, problems);
  if (!problems.empty()) return nullptr;

  auto entities = ctx.Checked(ctx.engine().store().List(q));
  Json cursor = nullptr;
  if (static_cast<int>(entities.size()) > q.limit) {
    entities.resize(q.limit);
    cursor = std::to_string(entities.back().created) + "." + std::to_string(entities.back().seq);
  }
  Json items = Json::array();
  for (auto& e : entities) {
    ApplyFields(e.doc, query);
    items.push_back(std::move(e.doc));
  }
  return {{"cursor", cursor}, {is_log ? std::string("logs") : std::string(spec.plural_key), std::move(items)}};
}

}  // namespace balcao::sandbox::internal
