#include "tests/terminal/hostile_corpus.h"

#include <cstdio>
#include <random>
#include <utility>

namespace balcao::terminal::testing {
namespace {

using namespace std::string_literals;
using Headers = std::vector<std::pair<std::string, std::string>>;

struct Route {
  std::string method;
  std::string path;
  bool bank = false;
};

// One HTTP/1.1 request, well framed unless the fields say otherwise.
struct Request {
  std::string method = "GET";
  std::string target = "/";
  std::string version = "HTTP/1.1";
  std::string host;  // "" = none
  std::string content_type = "application/json";
  std::string cookie;  // "" = none
  Headers extra;       // after the others
  std::string body;
  bool content_length = true;  // set from the body
  std::string Bytes() const {
    std::string out = method + " " + target + " " + version + "\r\n";
    if (!host.empty()) out += "Host: " + host + "\r\n";
    if (!content_type.empty()) out += "Content-Type: " + content_type + "\r\n";
    if (!cookie.empty()) out += "Cookie: " + cookie + "\r\n";
    for (const auto& [name, value] : extra) out += name + ": " + value + "\r\n";
    if (content_length && (!body.empty() || method != "GET"))
      out += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    return out + "\r\n" + body;
  }
};

class Generator {
 public:
  Generator(const CorpusTarget& target, std::uint32_t seed) : target_(target), random_(seed) {
    host_ = "127.0.0.1:" + std::to_string(target.port);
    sale_ = target.sale_ids.empty() ? std::string("v20240101t000000-1") : target.sale_ids.front();
    for (const char* path : {"/", "/app.js", "/style.css", "/healthz", "/readyz", "/metrics", "/api/session",
                             "/api/status", "/api/sales", "/api/sales?day=2024-02-29"})
      routes_.push_back({"GET", path});
    for (const std::string& id : target.sale_ids) {
      routes_.push_back({"GET", "/api/sales/" + id});
      routes_.push_back({"GET", "/api/sales/" + id + "/qr.svg"});
      for (const char* action :
           {"method", "card", "cancel", "refund", "retry", "keep-open", "print", "fallback", "simulate"})
        routes_.push_back({"POST", "/api/sales/" + id + "/" + action});
    }
    for (const char* path : {"/api/login", "/api/logout", "/api/sales", "/api/sales/v20240101t000000-1/card"})
      routes_.push_back({"POST", path});
    routes_.push_back({"POST", "/bank/webhook", true});
  }

  HostileCase Next() {
    const Route& route = routes_[Pick(routes_.size())];
    Request request;
    request.method = route.method;
    request.target = route.path;
    request.host = host_;
    request.body = route.method == "POST" ? "{}" : "";
    // Half with the cashier's session; never on the logout, which would end it for the rest.
    if (Chance(50))
      request.cookie = route.path == "/api/logout" ? "balcao_session=" + std::string(64, 'f') : target_.cookie;
    HostileCase out;
    out.bank = route.bank;
    switch (Pick(10)) {
      case 0:
      case 1:
      case 2:
        request.body = HostileBody();
        out.what = "json";
        break;
      case 3:
        request.method = HostileMethod();
        out.what = "method";
        break;
      case 4:
        request.target = HostileTarget();
        out.what = "target";
        break;
      case 5:
        HostileHeaders(request);
        out.what = "headers";
        break;
      case 6:
        return Framing(request, route);
      case 7:
        return Raw(request);
      default:
        // Well-formed, with a detail off: a foreign Origin, a query, another content type.
        if (Chance(30)) request.extra.push_back({"Origin", Chance(50) ? "http://evil.example" : "null"});
        if (Chance(30))
          request.content_type = Pick({"text/plain", "application/json; charset=utf-8", "APPLICATION/JSON",
                                       "application/jsonx", "multipart/form-data; boundary=x", ""});
        if (Chance(20)) request.target += Pick({"?", "?day=", "?day=2024-13-45", "?day=../../etc", "?%00", "?a=b&a=c"});
        out.what = "mild";
    }
    out.bytes = request.Bytes();
    out.may_succeed = request.method == "GET";
    return out;
  }

 private:
  std::size_t Pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random_); }
  bool Chance(int percent) { return static_cast<int>(Pick(100)) < percent; }
  std::string Pick(const std::vector<std::string>& items) { return items[Pick(items.size())]; }

  std::string RandomBytes(std::size_t n) {
    std::string out(n, '\0');
    for (char& c : out) c = static_cast<char>(Pick(256));
    return out;
  }

  // A JSON value no field of the API accepts: numbers out of range or not whole, strings too
  // short or too long for any field (never 3 to 200 characters: a cancel reason), or the wrong type.
  std::string BadValue(int depth = 0) {
    switch (Pick(depth > 1 ? 4 : 5)) {
      case 0:
        return Pick({"0",
                     "-1",
                     "100000001",
                     "1e2",
                     "1.5",
                     "-0",
                     "1e309",
                     "-1e309",
                     "1e-400",
                     "9223372036854775807",
                     "9223372036854775808",
                     "18446744073709551615",
                     "18446744073709551616",
                     "0x10",
                     "00100",
                     "NaN",
                     "Infinity",
                     "-",
                     "1e",
                     ".5",
                     "1.",
                     "+1"});
      case 1:
        return Pick({"\"\"", "\"x\"", "\"ab\"", "\"\\u0000\"", "\"\\ud800\"", "\"\\udc00\\ud800\"", "\"\xff\xfe\"",
                     "\"\xc0\xaf\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"", "\"\\x41\"", "\"\t\"", "'ab'"});
      case 2:
        return "\"" + std::string(201 + Pick(3000), 'a' + static_cast<char>(Pick(26))) + "\"";
      case 3:
        return Pick({"null", "true", "false", "[]", "{}", "[1,2]", "[\"pix\"]", "{\"$ne\":1}"});
      default:
        return "{\"" + Key() + "\":" + BadValue(depth + 1) + "}";
    }
  }
  std::string Key() {
    return Pick({"amount",       "method",  "reason",   "number",    "expiry",   "security_code", "holder_name",
                 "installments", "funding", "customer", "approval",  "operator", "pin",           "outcome",
                 "supervisor",   "name",    "tax_id",   "__proto__", "",         "a\\u0000b",     "\xff"});
  }

  std::string HostileBody() {
    switch (Pick(12)) {
      case 0: {  // an object of bad values
        std::string out = "{";
        for (std::size_t i = 0, n = 1 + Pick(5); i < n; ++i)
          out += (i ? "," : "") + ("\"" + Key() + "\":" + BadValue());
        return out + "}";
      }
      case 1: {  // the same key twice, each value bad (a duplicate is refused before either is read)
        const std::string key = Key();
        return "{\"" + key + "\":" + BadValue() + ",\"" + key + "\":" + BadValue() + "}";
      }
      case 2: {  // nested far deeper than any body of the API
        static constexpr std::size_t kDepths[] = {9, 100, 5000, 30000};
        const std::size_t depth = kDepths[Pick(4)];
        if (Chance(50)) return "{\"a\":" + std::string(depth, '[') + std::string(depth, ']') + "}";
        std::string out;
        for (std::size_t i = 0; i < depth; ++i) out += "{\"a\":";
        return out + "1" + std::string(depth, '}');
      }
      case 3:  // not JSON
        return Pick({"{",
                     "}",
                     "{\"a\":}",
                     "{'a':1}",
                     "{\"a\":1,}",
                     "{\"a\" 1}",
                     "{}x",
                     "\xef\xbb\xbf{}",
                     "/*c*/{}",
                     "{\"a\":1}//",
                     "[",
                     "\"",
                     "{\"a\":\"\\",
                     "{\"a\":tru}",
                     "{\"a\":nul}",
                     "{\"a\":[1,]}",
                     " ",
                     "\n",
                     "{\"a\":\"\x01\"}",
                     "{\"a\":1}{\"b\":2}"});
      case 4:  // JSON, not an object
        return Pick({"null", "[]", "[{}]", "1", "\"{}\"", "true", "1e309", "-0"});
      case 5:
        return std::string("{\"a\":1}") + '\0' + "x";
      case 6:
        return RandomBytes(1 + Pick(2000));
      case 7: {  // many keys (a long object of bad values)
        std::string out = "{";
        for (std::size_t i = 0, n = 500 + Pick(4000); i < n; ++i)
          out += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
        return out + "}";
      }
      case 8:  // a string right under the 64 KiB limit
        return "{\"reason\":\"" + std::string(60000, 'r') + "\"}";
      case 9:  // invalid UTF-8 in a key or a value
        return Pick({"{\"\xff\":1}", "{\"reason\":\"\xc3\x28xx\"}", "{\"a\":\"\xe2\x82\"}",
                     "{\"a\":\"\xf8\x88\x80\x80\x80\"}"});
      default:
        return "{\"" + Key() + "\":" + BadValue() + "}";
    }
  }

  std::string HostileMethod() {
    switch (Pick(4)) {
      case 0:
        return Pick({"PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "PROPFIND", "BREW", "get", "post", "GeT",
                     "M-SEARCH", "PRI", "SEARCH"});
      case 1:
        return std::string(1 + Pick(6000), 'A' + static_cast<char>(Pick(26)));  // overlong
      case 2:
        return Pick({"G\x00T"s, "GET\t", "GE T", "\x80GET", "POST\r", "", "GET\x7f"});
      default:
        return std::string(3 + Pick(30), 'Z');
    }
  }

  std::string HostileTarget() {
    switch (Pick(5)) {
      case 0:
        return Pick({"/../../etc/passwd",
                     "/%2e%2e/%2e%2e/etc/passwd",
                     "//api/status",
                     "/api//status",
                     "/api/./status",
                     "/API/STATUS",
                     "/api/status/",
                     "/api/sales/../status",
                     "/api/sales/%2e%2e/status",
                     "/api/sales/x/../../status",
                     "/\\api\\status",
                     "/api/sales/x/card/extra",
                     "/api/sales/",
                     "/api/sales//card",
                     "/api/sales/%00",
                     "/api/sales/a%2fb/card",
                     "/..%2f..%2fetc%2fpasswd",
                     "/%c0%ae%c0%ae/",
                     "/index.html%00.js",
                     "/api/status#frag",
                     "*",
                     "http://evil.example/api/status",
                     "127.0.0.1:1",
                     "/api/sales/" + sale_ + "/../../login",
                     "/api/sales/" + sale_ + "/qr.svg/..",
                     "/api/sales/" + sale_ + "%2fcancel",
                     "/api/sales/" + sale_ + "/CANCEL",
                     "/bank/webhook/"});
      case 1:  // long: a path as long as the header limit allows
        return Pick({"/api/sales/", "/", "/api/sales/x/", "/api/"}) + std::string(1000 + Pick(7000), 'a');
      case 2:
        return "/api/sales/" + RandomBytes(1 + Pick(40));
      case 3:
        return Pick({"/api/sales/x\x00y"s, "/\x01",
                     "/api/st\x7f"
                     "atus",
                     "/api/sales/\xc3\xa9", "/a b", "/?\xff"});
      default:
        return "/api/sales?day=" + RandomBytes(1 + Pick(20));
    }
  }

  void HostileHeaders(Request& request) {
    switch (Pick(9)) {
      case 0:
        request.host = Pick({"", "evil.example", "127.0.0.1", "127.0.0.1:1", "localhost:99999",
                             "127.0.0.1:" + std::to_string(target_.port) + " ", "[::1",
                             "127.0.0.1:" + std::to_string(target_.port) + "\x01"});
        break;
      case 1:  // two Host headers, the second foreign
        request.extra.push_back({"Host", "evil.example"});
        break;
      case 2:
        request.cookie = Pick({"balcao_session=", "balcao_session=" + std::string(64, '0'),
                               "balcao_session=" + std::string(7000, 'a'), "balcao_session=x; balcao_session=y",
                               "balcao_session=\x01\x02", "=; ; ;;", target_.cookie + "x", "x" + target_.cookie});
        break;
      case 3:  // many headers, under and over the 8 KiB limit
        for (std::size_t i = 0, n = 20 + Pick(400); i < n; ++i)
          request.extra.push_back({"X-Flood-" + std::to_string(i), std::string(Pick(40), 'v')});
        break;
      case 4:  // one header over the limit
        request.extra.push_back({"X-Big", std::string(8000 + Pick(4000), 'b')});
        break;
      case 5:
        request.extra.push_back({Pick({"Bad Name", "X-\x00"s, "\x7f", ":", "X-Folded"}), "v\r\n continued"});
        break;
      case 6:
        request.extra.push_back(
            {"Origin", Pick({"http://evil.example", "null", "http://127.0.0.1:1", "https://127.0.0.1",
                             "http://127.0.0.1:" + std::to_string(target_.port) + ".evil.example"})});
        break;
      case 7:
        request.content_type = Pick({"text/plain", "application/x-www-form-urlencoded", "application/json\x01", "",
                                     "application/json;;;", "APPLICATION/JSON; x", "application/json, text/plain"});
        break;
      default:
        request.extra.push_back({"Expect", Pick({"100-continue", "bogus"})});
        request.extra.push_back({"Connection", Pick({"close", "keep-alive, Upgrade", "upgrade"})});
        request.extra.push_back({"Upgrade", "websocket"});
    }
  }

  // Broken framing: lengths that lie, chunked garbage, bodies over the limit.
  HostileCase Framing(Request request, const Route& route) {
    HostileCase out;
    out.what = "framing";
    out.bank = route.bank;
    out.fresh = true;
    request.content_length = false;
    switch (Pick(8)) {
      case 0:  // a giant length, a short body
        request.extra.push_back({"Content-Length", Pick({"99999999999999", "18446744073709551615", "1000000000"})});
        request.body = "{\"a\":1}";
        out.half_close = true;
        break;
      case 1:  // a length under the limit, a short body, then the client stops
        request.extra.push_back({"Content-Length", std::to_string(100 + Pick(60000))});
        request.body = "{\"amount\":";
        out.half_close = true;
        break;
      case 2:
        request.extra.push_back({"Content-Length", Pick({"-1", "abc", "1 2", "0x10", "+5", "", "5, 6"})});
        request.body = "{}";
        break;
      case 3:
        request.extra.push_back({"Content-Length", "2"});
        request.extra.push_back({"Content-Length", "3"});
        request.body = "{}x";
        break;
      case 4:  // chunked and a length at once
        request.extra.push_back({"Transfer-Encoding", "chunked"});
        request.extra.push_back({"Content-Length", "5"});
        request.body = "2\r\n{}\r\n0\r\n\r\n";
        break;
      case 5:
        request.extra.push_back(
            {"Transfer-Encoding", Pick({"chunked", "gzip, chunked", "identity", "chunked, gzip", "xchunked"})});
        request.body = Pick({"zz\r\n{}\r\n0\r\n\r\n", "ffffffffffffffff\r\n{}\r\n0\r\n\r\n", "2\r\n{}0\r\n\r\n",
                             "2;ext=\"x\r\n{}\r\n0\r\n\r\n", "-2\r\n{}\r\n0\r\n\r\n"});
        out.half_close = true;
        break;
      case 6: {  // over the 64 KiB body limit, with a length: read, discarded, 413
        request.body = "{\"reason\":\"" + std::string(65536 + Pick(150000), 'x') + "\"}";
        request.content_length = true;
        break;
      }
      default: {  // over the limit, chunked: 413 at once
        request.extra.push_back({"Transfer-Encoding", "chunked"});
        std::string chunk(16384, 'y');
        char size[16];
        std::snprintf(size, sizeof size, "%zx", chunk.size());
        for (int i = 0; i < 6; ++i) request.body += std::string(size) + "\r\n" + chunk + "\r\n";
        request.body += "0\r\n\r\n";
        out.half_close = true;
      }
    }
    out.bytes = request.Bytes();
    out.may_succeed = request.method == "GET";
    return out;
  }

  // Bytes that are hardly HTTP.
  HostileCase Raw(const Request& request) {
    HostileCase out;
    out.what = "raw";
    out.fresh = true;
    out.half_close = true;
    out.may_succeed = request.method == "GET";  // what still parses is that GET, or is refused
    switch (Pick(6)) {
      case 0:
        out.bytes = RandomBytes(1 + Pick(3000));
        break;
      case 1:
        out.bytes = Pick({"GET /\r\n\r\n", "GET / HTTP/9.9\r\nHost: " + host_ + "\r\n\r\n", "GET  /  HTTP/1.1\r\n\r\n",
                          "GET / HTTP/1.1\nHost: " + host_ + "\n\n", "GET / HTTP/1.1 extra\r\n\r\n", "\r\n\r\n\r\n",
                          "HTTP/1.1 200 OK\r\n\r\n", "GET / HTTP/1.1\r\nHost: " + host_ + "\r\n\r",
                          "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"s});
        break;
      case 2: {  // a request with one byte flipped
        out.bytes = request.Bytes();
        out.bytes[Pick(out.bytes.size())] = static_cast<char>(Pick(256));
        break;
      }
      case 3: {  // a request cut anywhere
        const std::string whole = request.Bytes();
        out.bytes = whole.substr(0, Pick(whole.size()));
        break;
      }
      case 4: {  // NUL bytes sprinkled through a request
        out.bytes = request.Bytes();
        for (int i = 0; i < 3; ++i) out.bytes[Pick(out.bytes.size())] = '\0';
        break;
      }
      default:  // several requests at once, the last one broken
        out.bytes =
            request.Bytes() + request.Bytes() + "GET /healthz HTTP/1.1\r\nHost: " + host_ + "\r\nX: \x00\r\n\r\n"s;
    }
    return out;
  }

  const CorpusTarget& target_;
  std::mt19937 random_;
  std::string host_, sale_;
  std::vector<Route> routes_;
};

}  // namespace

std::vector<HostileCase> HostileCorpus(const CorpusTarget& target, std::uint32_t seed, std::size_t count) {
  Generator generator(target, seed);
  std::vector<HostileCase> cases;
  cases.reserve(count);
  for (std::size_t i = 0; i < count; ++i) cases.push_back(generator.Next());
  return cases;
}

std::string Printable(const std::string& bytes, std::size_t limit) {
  std::string out;
  for (const char c : bytes) {
    if (out.size() >= limit) return out + "...(" + std::to_string(bytes.size()) + " bytes)";
    const auto u = static_cast<unsigned char>(c);
    if (c == '\r') {
      out += "\\r";
    } else if (c == '\n') {
      out += "\\n";
    } else if (u < 0x20 || u >= 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", u);
      out += hex;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace balcao::terminal::testing
