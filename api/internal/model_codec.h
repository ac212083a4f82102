// Type erasure between the typed resource templates (api/resource.h) and the generic
// operations (operations.cc): a model type T is reduced to four function pointers, so
// the JSON work is compiled once, in operations.cc and models_json.cc, whatever T is.
// Only <nlohmann/json_fwd.hpp> is needed here.
#pragma once

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "api/models.h"
#include "api/resources.h"

namespace balcao::api::internal {

// Thrown by the model conversions; what() is the field path and the rule, e.g.
// ".discounts[0].percentage: expected a number, got string". Never leaves balcao_api.
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The member `key` of object j, or null.
const nlohmann::json* FindMember(const nlohmann::json& j, std::string_view key);

struct ModelCodec {
  void (*read)(const nlohmann::json& j, void* out, const ResourceSpec& spec);
  void (*append)(const nlohmann::json& j, void* vector_out, const ResourceSpec& spec);
  void (*write)(const void* in, nlohmann::json& j);
  void (*write_at)(const void* vector_in, std::size_t index, nlohmann::json& j);
};

template <class T>
struct ModelThunks {
  static void Read(const nlohmann::json& j, void* out, const ResourceSpec&) { FromJson(j, *static_cast<T*>(out)); }
  static void Write(const void* in, nlohmann::json& j) { ToJson(*static_cast<const T*>(in), j); }
};

template <class T>
struct ModelThunks<Log<T>> {
  static void Read(const nlohmann::json& j, void* out, const ResourceSpec& spec) {
    auto& log = *static_cast<Log<T>*>(out);
    FromJson(j, static_cast<LogHeader&>(log));
    if (const nlohmann::json* entity = FindMember(j, spec.log_entity_key)) {
      try {
        FromJson(*entity, log.entity.emplace());
      } catch (const ModelError& e) {
        const char c = e.what()[0];
        throw ModelError("." + std::string(spec.log_entity_key) + (c == '.' || c == '[' ? "" : ": ") + e.what());
      }
    }
  }
  static void Write(const void*, nlohmann::json&) {}  // logs are never sent
};

template <class T>
const ModelCodec& CodecOf() {
  static const ModelCodec codec = {
      &ModelThunks<T>::Read,
      [](const nlohmann::json& j, void* out, const ResourceSpec& spec) {
        auto& v = *static_cast<std::vector<T>*>(out);
        v.emplace_back();
        ModelThunks<T>::Read(j, &v.back(), spec);
      },
      &ModelThunks<T>::Write,
      [](const void* in, std::size_t i, nlohmann::json& j) {
        ModelThunks<T>::Write(&(*static_cast<const std::vector<T>*>(in))[i], j);
      },
  };
  return codec;
}

}  // namespace balcao::api::internal
