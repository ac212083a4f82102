// The Boost-free part of server.h: request lookups, the synchronous adapter, refusals.
#include <cstdio>

#include "http/server.h"

namespace balcao::http {
namespace {

// The few characters a JSON string cannot hold as they are.
std::string JsonEscaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char code[8];
      std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned>(c));
      out += code;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string_view HttpRequest::Header(std::string_view name) const {
  for (const auto& [key, value] : headers)
    if (key == name) return value;
  return {};
}

Handler Synchronous(SyncHandler handler) {
  return [handler = std::move(handler)](HttpRequest request, Respond respond) { respond(handler(request)); };
}

HttpResponse JsonRefusal(const Refusal& refusal) {
  HttpResponse response;
  response.status = refusal.status;
  response.body =
      R"({"error":{"field":")" + JsonEscaped(refusal.field) + R"(","rule":")" + JsonEscaped(refusal.rule) + R"("}})";
  return response;
}

std::string DescribeBytes(std::size_t bytes) {
  constexpr std::size_t kKiB = 1024, kMiB = kKiB * 1024;
  if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  if (bytes >= kKiB && bytes % kKiB == 0) return std::to_string(bytes / kKiB) + " KiB";
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

}  // namespace balcao::http
