// Webhook bodies are written the way the bank writes them (docs/wire.md, "Webhooks"): Python's
// json.dumps(obj, sort_keys=True): ", " and ": " separators, non-ASCII as \uXXXX.
#include <cstdio>

#include "sandbox/internal/engine_core.h"

namespace balcao::sandbox::internal {
namespace {

void AppendEscaped(std::string& out, const std::string& s) {
  out += '"';
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    char buf[16];
    switch (c) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '\b':
        out += "\\b";
        continue;
      case '\f':
        out += "\\f";
        continue;
      default:
        break;
    }
    if (c < 0x20) {
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      continue;
    }
    if (c < 0x80) {
      out += static_cast<char>(c);
      continue;
    }
    // Decode one UTF-8 sequence (the JSON parser has validated it).
    int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
    std::uint32_t cp = c & (0x3F >> extra);
    for (int k = 0; k < extra && i + 1 < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[++i]) & 0x3F);
    if (cp >= 0x10000) {
      cp -= 0x10000;
      std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", 0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF));
    } else {
      std::snprintf(buf, sizeof buf, "\\u%04x", cp);
    }
    out += buf;
  }
  out += '"';
}

void Write(std::string& out, const Json& v) {
  switch (v.type()) {
    case Json::value_t::object: {
      out += '{';
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {  // std::map: keys already sorted
        if (!first) out += ", ";
        first = false;
        AppendEscaped(out, it.key());
        out += ": ";
        Write(out, it.value());
      }
      out += '}';
      break;
    }
    case Json::value_t::array: {
      out += '[';
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) out += ", ";
        Write(out, v[i]);
      }
      out += ']';
      break;
    }
    case Json::value_t::string:
      AppendEscaped(out, v.get_ref<const std::string&>());
      break;
    case Json::value_t::boolean:
      out += v.get<bool>() ? "true" : "false";
      break;
    case Json::value_t::null:
      out += "null";
      break;
    default:
      out += v.dump();
      break;  // numbers: same digits as Python's repr for our values
  }
}

}  // namespace

std::string PythonJsonDumps(const Json& value) {
  std::string out;
  Write(out, value);
  return out;
}

}  // namespace balcao::sandbox::internal
