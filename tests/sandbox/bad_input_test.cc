// Bad input (label sanitize: also runs under ASan+UBSan): hundreds of malformed requests
// each get a 400 with an error code (413 for oversized bodies, 404 for unknown routes),
// the sandbox keeps serving, and its state is unchanged.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <ctime>
#include <map>

#include "tests/sandbox/sandbox_client.h"

namespace balcao::sandbox::testing {
namespace {

class BadInputTest : public SandboxTest {
 protected:
  struct Snapshot {
    std::vector<std::int64_t> counts;
    Json balance;
    bool operator==(const Snapshot&) const = default;
  };
  Snapshot Take() {
    Snapshot s;
    for (const char* r : {"invoice", "invoice/log", "transaction", "deposit", "dynamic-brcode", "webhook", "event"})
      s.counts.push_back(sandbox().CountForTest(r));
    s.balance = api().Get("/v2/balance").json["balances"][0]["amount"];
    return s;
  }
  // Every reply must be an error answer with a JSON error code.
  void ExpectRejected(const Reply& r, const std::string& what, long want = 400) {
    ++checked_;
    EXPECT_EQ(r.status, want) << what << " -> " << r.body.substr(0, 300);
    ASSERT_TRUE(r.json.is_object() && r.json.contains("errors")) << what << " -> " << r.body.substr(0, 300);
    EXPECT_FALSE(Code(r).empty()) << what;
  }
  int checked_ = 0;
};

TEST_F(BadInputTest, MalformedRequestsAreRejectedAndChangeNothing) {
  const Json valid = {{"invoices", {{{"amount", 100}, {"name", "Ana Lima"}, {"taxId", "33745107608"}}}}};
  auto seed = api().Post("/v2/invoice", valid);
  ASSERT_EQ(seed.status, 200);
  const std::string invoice_path = "/v2/invoice/" + seed.json["invoices"][0]["id"].get<std::string>();
  const Snapshot before = Take();

  // 1. Broken JSON: every truncation of a valid body, plus garbage.
  const std::string text = valid.dump();
  for (std::size_t n = 0; n < text.size(); n += 2)
    ExpectRejected(api().Call("POST", "/v2/invoice", text.substr(0, n)), "truncated at " + std::to_string(n));
  for (const char* junk : {"{", "}", "[]", "null", "\"x\"", "123", "{\"invoices\":}", "{'invoices':[]}", "\xff\xfe",
                           "{\"invoices\":[{\"amount\":1,}]}", "{\"invoices\":[1,2,3]}", "{\"invoices\":\"\"}",
                           "{\"invoices\":[]}", "{\"invoices\":[{}]}", "{\"a\":1}", "{\"invoices\":[null]}"})
    ExpectRejected(api().Call("POST", "/v2/invoice", junk), std::string("junk ") + junk);

  // 2. Wrong types and values in every field.
  const std::map<std::string, Json> bad_values = {
      {"amount", {nullptr, "text", 1.5, Json::array(), Json::object(), true, -1, 1e30}},
      {"name", {nullptr, 1.5, Json::array(), Json::object(), true, "", "ab"}},
      {"taxId", {nullptr, "text", 1.5, Json::array(), Json::object(), true, "", "000.000.000-00", "123"}},
      {"due", {"text", 1.5, Json::array(), Json::object(), true, "", "2000-01-01"}},
      {"expiration", {"text", 1.5, Json::array(), Json::object(), true, -1}},
      {"fine", {"text", Json::array(), Json::object(), true, -1, 50}},
      {"interest", {"text", Json::array(), Json::object(), true, -1, 50}},
      {"tags", {"text", 1.5, Json::object(), true, Json::array({1}), Json::array({""})}},
      {"discounts", {"text", 1.5, Json::object(), true, Json::array({1}), Json::array({Json::object()})}},
      {"descriptions", {"text", 1.5, Json::object(), true, Json::array({1}), Json::array({{{"key", 1}}})}},
      {"rules", {"text", 1.5, Json::object(), true, Json::array({1})}},
      {"splits",
       {"text", 1.5, Json::object(), true, Json::array({1}), Json::array({{{"receiverId", "nope"}, {"amount", 1}}})}},
  };
  for (const auto& [field, values] : bad_values) {
    for (const auto& value : values) {
      Json body = valid;
      body["invoices"][0][field] = value;
      ExpectRejected(api().Post("/v2/invoice", body), field + "=" + value.dump());
    }
  }
  for (const Json& patch : {Json{{"amount", "1"}}, Json{{"status", "paid"}}, Json{{"due", 5}}, Json{{"nope", 1}},
                            Json::object(), Json{{"expiration", -5}}, Json{{"amount", -1}}})
    ExpectRejected(api().Patch(invoice_path, patch), "patch " + patch.dump());

  // 3. Oversized and deeply nested bodies.
  ExpectRejected(api().Call("POST", "/v2/invoice", std::string(10 << 20, ' ')), "10 MB body", 413);
  ExpectRejected(api().Call("POST", "/v2/invoice", "{\"invoices\":\"" + std::string(2 << 20, 'a') + "\"}"), "2 MB body",
                 413);
  ExpectRejected(api().Call("POST", "/v2/invoice", std::string(1000, '[') + std::string(1000, ']')), "1000 deep");
  ExpectRejected(api().Call("POST", "/v2/invoice", std::string(100000, '{')), "100k open braces");

  // 4. Bad signatures, ids and times.
  const std::string good_sig = api().key.Sign("something else");
  for (const std::string& sig : {std::string("garbage"), std::string("MEUCIQ=="), good_sig, good_sig.substr(0, 20),
                                 std::string(200, 'A'), std::string("!!!"), std::string("    ")}) {
    ExpectRejected(api().Call("GET", "/v2/balance", "", {{"Access-Signature", sig}}), "sig " + sig);
    ExpectRejected(api().Call("POST", "/v2/invoice", text, {{"Access-Signature", sig}}), "post sig " + sig);
  }
  for (const std::string& id : {std::string("project/"), std::string("project"), std::string("organization/"),
                                std::string("organization/1/workspace/"), std::string("project/1/2"),
                                std::string("x/y"), std::string(500, 'p')})
    ExpectRejected(api().Call("GET", "/v2/balance", "", {{"Access-Id", id}}), "id " + id);
  for (const std::string& t : {std::string("0"), std::string("1"), std::string("-5"), std::string("abc"),
                               std::string("1e10"), std::string("99999999999"), std::string("12.3.4"),
                               std::to_string(std::time(nullptr) - 3600), std::to_string(std::time(nullptr) + 3600)})
    ExpectRejected(api().Call("GET", "/v2/balance", "", {{"Access-Time", t}}), "time " + t);
  for (const char* h : {"Access-Id", "Access-Time", "Access-Signature"})
    ExpectRejected(api().Call("GET", "/v2/invoice", "", {{h, ""}}), std::string("missing ") + h);

  // 5. Unknown routes and methods.
  for (const char* path :
       {"/v2/nope", "/v3/invoice", "/v2/invoice/1/2/3", "/v2", "/", "/v2/invoice/x/unknown", "/v2/transaction/1/pdf",
        "/v2/balance/1", "/v2/event/attempt/1/2", "/sandbox/nope", "/v2/invoice/log/1/2/3", "/v2/deposit/1/qrcode"})
    ExpectRejected(api().Get(path), std::string("route ") + path, 404);
  for (const char* method : {"DELETE", "PUT", "PATCH"})
    ExpectRejected(api().Call(method, "/v2/invoice", "{}"), std::string("method ") + method, 404);

  // 6. Bad query parameters and unknown ids.
  for (const char* q : {"limit=0", "limit=abc", "limit=1000", "cursor=zzz", "cursor=1.", "after=yesterday",
                        "before=2024-13-01", "status=unknown", "sort=sideways"})
    ExpectRejected(api().Get(std::string("/v2/invoice?") + q), q);
  for (const char* path : {"/v2/invoice/0", "/v2/deposit/0", "/v2/invoice/log/0", "/v2/dynamic-brcode/0",
                           "/v2/transaction/0", "/v2/event/0", "/v2/webhook/0", "/v2/invoice/0/pdf"})
    ExpectRejected(api().Get(path), path);

  // 7. Malformed HTTP on a raw socket.
  for (const char* raw : {"GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/9.9\r\n\r\n",
                          "POST /v2/invoice HTTP/1.1\r\nContent-Length: -4\r\n\r\n"}) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(sandbox().port());
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    (void)!::write(fd, raw, std::strlen(raw));
    char buf[512] = {};
    auto n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    ++checked_;
    EXPECT_TRUE(n > 0 && std::string(buf).rfind("HTTP/1.1 400", 0) == 0) << raw << " -> " << buf;
  }

  EXPECT_GE(checked_, 200);
  EXPECT_EQ(Take(), before);
  EXPECT_EQ(api().Get(invoice_path).status, 200);  // still serving
}

}  // namespace
}  // namespace balcao::sandbox::testing
