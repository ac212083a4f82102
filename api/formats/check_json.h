// The fields of a Check() result as a nested JSON object ("boleto.amount" becomes
// {"boleto":{"amount":...}}, list items become arrays), for `balcao format` and the vector
// tests. A template over the JSON type so that balcao_formats itself stays free of JSON.
#pragma once

#include <sstream>
#include <string>

#include "api/formats/check.h"

namespace balcao::formats {

template <typename Json>
Json FieldsToJson(const CheckResult& result) {
  Json out = Json::object();
  for (const Field& f : result.fields) {
    Json* node = &out;
    std::stringstream path(f.key);
    for (std::string part; std::getline(path, part, '.');) node = &(*node)[part];
    switch (f.type) {
      case Field::Type::kText:
        *node = f.value;
        break;
      case Field::Type::kInteger:
        *node = std::stoll(f.value);
        break;
      case Field::Type::kBool:
        *node = f.value == "true";
        break;
      case Field::Type::kListItem:
        node->push_back(f.value);
        break;
    }
  }
  return out;
}

}  // namespace balcao::formats
