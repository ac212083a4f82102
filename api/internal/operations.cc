#include "api/internal/operations.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "api/internal/json_codec.h"

namespace balcao::api::internal {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxBatch = 100;  // API documentation, part 1, "Limits": batches of up to 100

std::string BasePath(const Target& t) {
  std::string p = "/v2/" + std::string(t.spec->name);
  if (t.log) p += "/log";
  return p;
}

std::string_view SingleKey(const Target& t) { return t.log ? "log" : t.spec->single_key; }
std::string_view PluralKey(const Target& t) { return t.log ? "logs" : t.spec->plural_key; }

// Ids go into the path as they are: the bank's ids are digits, uuids hex.
Status CheckId(std::string_view id, std::string_view what) {
  if (id.empty()) return InvalidArgumentError(std::string(what) + ": empty id");
  for (char c : id)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_' ||
          c == '.' || c == '~'))
      return InvalidArgumentError(std::string(what) + ": invalid id '" + std::string(id.substr(0, 64)) +
                                  "' (letters, digits, '-', '_', '.', '~' only)");
  return OkStatus();
}

// A 200 answer the client could not read. The bank did answer (for a create: it was
// created), so the detail says kAnswered with http 200.
Status Malformed(std::string_view what, const std::string& why) {
  BankErrorDetail detail;
  detail.http_status = 200;
  detail.delivery = Delivery::kAnswered;
  return Status(StatusCode::kInternal, "malformed bank response (" + std::string(what) + "): " + why,
                std::move(detail));
}

// Runs a decoding step; model and JSON errors become Malformed.
template <class F>
Status Decode(std::string_view what, F&& step) {
  try {
    step();
    return OkStatus();
  } catch (const ModelError& e) {
    return Malformed(what, e.what());
  } catch (const json::exception& e) {
    return Malformed(what, e.what());
  }
}

// Encodes a request entity; an unencodable value (RawJson that is not JSON) is the
// caller's fault: kInvalidArgument naming the field.
Status Encode(std::string_view what, const std::function<void()>& step) {
  try {
    step();
    return OkStatus();
  } catch (const ModelError& e) {
    return InvalidArgumentError("invalid " + std::string(what) + e.what());
  }
}

// Sends; the answer's body goes to `body`.
Status CallText(const Target& t, std::string_view method, const std::string& path, const Query& query,
                const std::string& request_body, std::string& body, std::string& what) {
  what = std::string(method) + " " + path;
  auto response = t.client->Call(method, path, query, request_body);
  if (!response.ok()) return response.status();
  body = std::move(response->body);
  return OkStatus();
}

// Streams through the top-level object of an answer; `on_member(key)` reads the members
// it wants and returns false for the others, which are skipped.
template <class F>
Status ReadEnvelope(std::string_view body, std::string_view what, F&& on_member) {
  return Decode(what, [&] {
    JsonReader r(body);
    if (r.Peek() != '{') r.Fail("expected a JSON object");
    r.BeginObject();
    std::string key;
    while (r.NextKey(key))
      if (!on_member(r, key)) r.SkipValue();
    r.ExpectEnd();
  });
}

// {"<key>": {...}} -> out.
Status ReadSingle(const Target& t, const ModelCodec& codec, std::string_view body, std::string_view key,
                  std::string_view what, void* out) {
  bool found = false;
  BALCAO_RETURN_IF_ERROR(ReadEnvelope(body, what, [&](JsonReader& r, const std::string& k) {
    if (k != key || r.TryNull()) return false;
    found = true;
    try {
      codec.read(r, out, *t.spec);
    } catch (const ModelError& e) {
      const char c = e.what()[0];
      throw ModelError(std::string(key) + (c == '.' || c == '[' ? "" : ": ") + e.what());
    }
    return true;
  }));
  if (!found) return Malformed(what, "missing '" + std::string(key) + "'");
  return OkStatus();
}

// {"<plural>": [...], "cursor": ...} -> appended to out_vector (and the cursor).
Status ReadList(const Target& t, const ModelCodec& codec, std::string_view body, std::string_view what,
                void* out_vector, std::string* next_cursor) {
  const std::string_view key = PluralKey(t);
  bool found = false;
  if (next_cursor != nullptr) next_cursor->clear();
  BALCAO_RETURN_IF_ERROR(ReadEnvelope(body, what, [&](JsonReader& r, const std::string& k) {
    if (k == "cursor" && next_cursor != nullptr) {
      if (r.TryNull()) return true;
      if (r.Peek() != '"') throw ModelError("'cursor' is not a string");
      r.ReadString(*next_cursor);
      return true;
    }
    if (k != key) return false;
    found = true;
    if (r.Peek() != '[') throw ModelError("'" + std::string(key) + "' is not a list");
    r.BeginArray();
    for (std::size_t i = 0; r.NextElement(); ++i) {
      try {
        codec.append(r, out_vector, *t.spec);
      } catch (const ModelError& e) {
        const char c = e.what()[0];
        throw ModelError(std::string(key) + "[" + std::to_string(i) + "]" + (c == '.' || c == '[' ? "" : ": ") +
                         e.what());
      }
    }
    return true;
  }));
  if (!found) return Malformed(what, "missing '" + std::string(key) + "'");
  return OkStatus();
}

}  // namespace

void WriteRawObject(const RawJson& in, json& j) {
  j = json::parse(in.text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw ModelError(": not valid JSON");
  if (!j.is_object()) throw ModelError(": expected a JSON object");
}

Status CheckFilters(const Target& t, const ListParams& params) {
  std::vector<std::string_view> accepted;
  if (t.log) {
    accepted.assign(std::begin(kLogListFilters), std::end(kLogListFilters));
    if (!t.spec->log_id_filter.empty()) accepted.push_back(t.spec->log_id_filter);
  } else {
    accepted = t.spec->filters;
  }
  for (const auto& [name, values] : params.filters) {
    if (name == "limit" || name == "cursor" || name == "fields")
      return InvalidArgumentError("set '" + name + "' through ListParams::" + name + ", not as a filter");
    if (std::find(accepted.begin(), accepted.end(), name) != accepted.end()) continue;
    std::string list;
    for (auto a : accepted)
      if (a != "cursor" && a != "limit" && a != "fields") list += (list.empty() ? "" : ", ") + std::string(a);
    return InvalidArgumentError(BasePath(t) + " has no filter '" + name +
                                "'; it accepts: " + (list.empty() ? std::string("none") : list));
  }
  return OkStatus();
}

Status Require(const Target& t, Op op, std::string_view what) {
  const bool has =
      t.log ? (op == kList || op == kGet) ? t.spec->Has(kLogs) : op == kPdf && t.spec->Has(kLogPdf) : t.spec->Has(op);
  if (has) return OkStatus();
  return FailedPreconditionError(BasePath(t) + " has no " + std::string(what) + " route");
}

Status SendBatch(const Target& t, std::string_view method, const ModelCodec& codec, const void* items,
                 std::size_t count, void* out_vector) {
  const std::string path = BasePath(t);
  for (std::size_t begin = 0; begin < count; begin += kMaxBatch) {
    const std::size_t end = std::min(count, begin + kMaxBatch);
    json body = json::object();
    json& list = body[std::string(t.spec->plural_key)] = json::array();
    BALCAO_RETURN_IF_ERROR(Encode(std::string(t.spec->single_key), [&] {
      for (std::size_t i = begin; i < end; ++i) {
        try {
          codec.write_at(items, i, list.emplace_back());
        } catch (const ModelError& e) {
          throw ModelError(" #" + std::to_string(i) + e.what());
        }
      }
    }));
    std::string answer, what;
    Status s = CallText(t, method, path, {}, DumpJson(body), answer, what);
    if (s.ok()) s = ReadList(t, codec, answer, what, out_vector, nullptr);
    if (!s.ok()) {
      if (count <= kMaxBatch) return s;
      return Status(s.code(),
                    "items " + std::to_string(begin) + ".." + std::to_string(count - 1) + " of " +
                        std::to_string(count) + " not created (items before " + std::to_string(begin) +
                        " were): " + s.message(),
                    s.detail());
    }
  }
  return OkStatus();
}

Status CreateSingle(const Target& t, const ModelCodec& codec, const void* item, void* out) {
  json body;
  BALCAO_RETURN_IF_ERROR(Encode(std::string(t.spec->single_key), [&] { codec.write(item, body); }));
  std::string answer, what;
  BALCAO_RETURN_IF_ERROR(CallText(t, "POST", BasePath(t), {}, DumpJson(body), answer, what));
  return ReadSingle(t, codec, answer, SingleKey(t), what, out);
}

Status GetOne(const Target& t, const ModelCodec& codec, std::string_view id, const std::vector<std::string>& fields,
              void* out) {
  BALCAO_RETURN_IF_ERROR(CheckId(id, BasePath(t)));
  Query query;
  if (!fields.empty()) query.Add("fields", fields);
  std::string answer, what;
  BALCAO_RETURN_IF_ERROR(CallText(t, "GET", BasePath(t) + "/" + std::string(id), query, {}, answer, what));
  return ReadSingle(t, codec, answer, SingleKey(t), what, out);
}

Status ListOnePage(const Target& t, const ModelCodec& codec, const ListParams& params, void* out_vector,
                   std::string* next_cursor) {
  auto query = BuildListQuery(*t.spec, t.log, params);
  if (!query.ok()) return query.status();
  const std::string path = BasePath(t);
  auto response = t.client->Call("GET", path, *query);
  if (!response.ok()) return response.status();
  return ParsePage(t, codec, response->body, "GET " + path, out_vector, next_cursor);
}

Status ParsePage(const Target& t, const ModelCodec& codec, std::string_view body, std::string_view what,
                 void* out_vector, std::string* next_cursor) {
  return ReadList(t, codec, body, what, out_vector, next_cursor);
}

Status PatchOne(const Target& t, const ModelCodec& codec, std::string_view id, const void* changes, void* out) {
  BALCAO_RETURN_IF_ERROR(CheckId(id, BasePath(t)));
  json body;
  BALCAO_RETURN_IF_ERROR(Encode(std::string(t.spec->single_key), [&] { codec.write(changes, body); }));
  if (body.empty()) return InvalidArgumentError("PATCH " + BasePath(t) + "/" + std::string(id) + ": nothing to change");
  std::string answer, what;
  BALCAO_RETURN_IF_ERROR(CallText(t, "PATCH", BasePath(t) + "/" + std::string(id), {}, DumpJson(body), answer, what));
  return ReadSingle(t, codec, answer, SingleKey(t), what, out);
}

Status DeleteOne(const Target& t, const ModelCodec& codec, std::string_view id, void* out) {
  BALCAO_RETURN_IF_ERROR(CheckId(id, BasePath(t)));
  std::string answer, what;
  BALCAO_RETURN_IF_ERROR(CallText(t, "DELETE", BasePath(t) + "/" + std::string(id), {}, {}, answer, what));
  return ReadSingle(t, codec, answer, SingleKey(t), what, out);
}

Status GetSub(const Target& t, const ModelCodec& codec, std::string_view id, std::string_view sub, void* out) {
  BALCAO_RETURN_IF_ERROR(CheckId(id, BasePath(t)));
  std::string answer, what;
  BALCAO_RETURN_IF_ERROR(
      CallText(t, "GET", BasePath(t) + "/" + std::string(id) + "/" + std::string(sub), {}, {}, answer, what));
  return ReadSingle(t, codec, answer, sub, what, out);
}

Status PostSub(const Target& t, const ModelCodec& codec, std::string_view id, std::string_view sub, const void* item,
               void* out) {
  BALCAO_RETURN_IF_ERROR(CheckId(id, BasePath(t)));
  json body;
  BALCAO_RETURN_IF_ERROR(Encode(std::string(sub), [&] { codec.write(item, body); }));
  std::string answer, what;
  BALCAO_RETURN_IF_ERROR(CallText(t, "POST", BasePath(t) + "/" + std::string(id) + "/" + std::string(sub), {},
                                  DumpJson(body), answer, what));
  return ReadSingle(t, codec, answer, sub, what, out);
}

StatusOr<std::string> GetBytes(const Target& t, std::string_view id, std::string_view kind, const Query& query) {
  BALCAO_RETURN_IF_ERROR(CheckId(id, BasePath(t)));
  auto response = t.client->Call("GET", BasePath(t) + "/" + std::string(id) + "/" + std::string(kind), query);
  if (!response.ok()) return response.status();
  return std::move(response->body);
}

}  // namespace balcao::api::internal

namespace balcao::api {

StatusOr<Query> BuildListQuery(const ResourceSpec& spec, bool logs, const ListParams& params) {
  if (params.limit && (*params.limit < 1 || *params.limit > 100))
    return InvalidArgumentError("limit must be 1 to 100 per page, got " + std::to_string(*params.limit));
  BALCAO_RETURN_IF_ERROR(internal::CheckFilters(internal::Target{nullptr, &spec, logs}, params));
  Query query;
  if (params.limit) query.Add("limit", static_cast<std::int64_t>(*params.limit));
  if (!params.cursor.empty()) query.Add("cursor", params.cursor);
  if (!params.fields.empty()) query.Add("fields", params.fields);
  for (const auto& [name, values] : params.filters) query.Add(name, values);
  return query;
}

}  // namespace balcao::api
