#include "api/internal/json_codec.h"

#include <nlohmann/json.hpp>

namespace balcao::api::internal {
namespace {

Status Parse(std::string_view text, std::string_view what, nlohmann::json& out, StatusCode code, const char* prefix) {
  // allow_exceptions=false: a syntax error yields a "discarded" value instead of a throw.
  out = nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (!out.is_discarded()) return OkStatus();
  std::string snippet(text.substr(0, 80));
  for (char& c : snippet)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  return Status(code, std::string(prefix) + " (" + std::string(what) + "): not valid JSON (" +
                          std::to_string(text.size()) + " bytes, starting '" + snippet + "')");
}

}  // namespace

Status ParseJson(std::string_view text, std::string_view what, nlohmann::json& out) {
  return Parse(text, what, out, StatusCode::kInternal, "malformed bank response");
}

Status ParseUserJson(std::string_view text, std::string_view what, nlohmann::json& out) {
  return Parse(text, what, out, StatusCode::kInvalidArgument, "invalid input");
}

std::string DumpJson(const nlohmann::json& value) {
  // error_handler::replace: invalid UTF-8 in a string becomes U+FFFD instead of throwing.
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace balcao::api::internal
