// Type erasure between the typed resource templates (api/resource.h) and the generic
// operations (operations.cc): a model type T is reduced to four function pointers, so
// the JSON work is compiled once, in operations.cc and models_json.cc, whatever T is.
// Reading streams from the answer's text (JsonReader); writing builds a nlohmann value
// (only json_fwd is needed here).
#pragma once

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "api/internal/json_reader.h"
#include "api/models.h"
#include "api/resources.h"

namespace balcao::api::internal {

struct ModelCodec {
  void (*read)(JsonReader& r, void* out, const ResourceSpec& spec);
  void (*append)(JsonReader& r, void* vector_out, const ResourceSpec& spec);
  void (*write)(const void* in, nlohmann::json& j);
  void (*write_at)(const void* vector_in, std::size_t index, nlohmann::json& j);
};

template <class T>
struct ModelThunks {
  static void Read(JsonReader& r, void* out, const ResourceSpec&) { ReadModel(r, *static_cast<T*>(out)); }
  static void Write(const void* in, nlohmann::json& j) { ToJson(*static_cast<const T*>(in), j); }
};

// A log: its header fields, plus the entity under the resource's log entity key.
template <class T>
struct ModelThunks<Log<T>> {
  static void Read(JsonReader& r, void* out, const ResourceSpec& spec) {
    auto& log = *static_cast<Log<T>*>(out);
    if (r.Peek() != '{') throw ModelError("expected an object");
    r.BeginObject();
    std::string key;
    while (r.NextKey(key)) {
      if (key != spec.log_entity_key) {
        if (!ReadMember(r, key, static_cast<LogHeader&>(log))) r.SkipValue();
      } else if (!r.TryNull()) {
        try {
          ReadModel(r, log.entity.emplace());
        } catch (const ModelError& e) {
          const char c = e.what()[0];
          throw ModelError("." + key + (c == '.' || c == '[' ? "" : ": ") + e.what());
        }
      }
    }
  }
  static void Write(const void*, nlohmann::json&) {}  // logs are never sent
};

// Untyped passthrough: an entity kept as its JSON text (the `balcao api` command uses
// ResourceClient<RawJson>). Writing refuses text that is not a JSON object.
void WriteRawObject(const RawJson& in, nlohmann::json& j);
template <>
struct ModelThunks<RawJson> {
  static void Read(JsonReader& r, void* out, const ResourceSpec&) {
    static_cast<RawJson*>(out)->text = std::string(r.CaptureValue());
  }
  static void Write(const void* in, nlohmann::json& j) { WriteRawObject(*static_cast<const RawJson*>(in), j); }
};

template <class T>
const ModelCodec& CodecOf() {
  static const ModelCodec codec = {
      &ModelThunks<T>::Read,
      [](JsonReader& r, void* out, const ResourceSpec& spec) {
        auto& v = *static_cast<std::vector<T>*>(out);
        v.emplace_back();
        ModelThunks<T>::Read(r, &v.back(), spec);
      },
      &ModelThunks<T>::Write,
      [](const void* in, std::size_t i, nlohmann::json& j) {
        ModelThunks<T>::Write(&(*static_cast<const std::vector<T>*>(in))[i], j);
      },
  };
  return codec;
}

}  // namespace balcao::api::internal
