// Test helpers for the sandbox: an in-process sandbox fixture and a minimal signed HTTP
// client (tests/testing/test_request.h: libcurl with keep-alive, real ECDSA signatures with
// api::PrivateKey), so the tests exercise the real wire: loopback HTTP, headers, raw body bytes.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "api/crypto.h"
#include "sandbox/sandbox.h"
#include "tests/testing/test_request.h"

namespace balcao::sandbox::testing {

using Json = nlohmann::json;

struct Reply {
  long status = 0;    // 0: no HTTP answer (reset, dropped)
  int curl_code = 0;  // CURLcode
  std::string body;
  std::string content_type;
  Json json;  // parsed body (discarded when not JSON)
};

class Client {
 public:
  // base: "http://127.0.0.1:<port>"; access_id "project/<id>"; key signs requests.
  Client(std::string base, std::string access_id, api::PrivateKey key);
  ~Client();
  // Signed request; `headers` override/add (an empty value removes the header).
  Reply Call(const std::string& method, const std::string& path, const std::string& body = "",
             const std::map<std::string, std::string>& headers = {});
  Reply Get(const std::string& path) { return Call("GET", path); }
  Reply Post(const std::string& path, const Json& body) { return Call("POST", path, body.dump()); }
  Reply Patch(const std::string& path, const Json& body) { return Call("PATCH", path, body.dump()); }
  Reply Delete(const std::string& path) { return Call("DELETE", path); }
  // Unsigned request (simulation API, public routes).
  Reply Raw(const std::string& method, const std::string& path, const std::string& body = "",
            const std::map<std::string, std::string>& headers = {});
  Reply Sim(const std::string& path, const Json& body = Json::object()) { return Raw("POST", path, body.dump()); }

  std::string access_id;
  api::PrivateKey key;
  std::string base;
  long timeout_ms = 10000;
  // libcurl silently re-sends a request whose reused connection died before answering;
  // fault tests need one request = one attempt.
  bool fresh_connection = false;

 private:
  test_util::TestRequest Build(const std::string& method, const std::string& path, const std::string& body,
                               const std::map<std::string, std::string>& headers) const;
  Reply Send(const test_util::TestRequest& request);

  void* curl_;
};

// Starts one sandbox per test suite on free ports with a temp data dir and :memory: db.
class SandboxTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  void SetUp() override;
  static Sandbox& sandbox() { return *sandbox_; }
  Client& api() { return *client_; }
  // Error code of the first error entry ("" when none).
  static std::string Code(const Reply& r);

  static std::unique_ptr<Sandbox> sandbox_;
  std::unique_ptr<Client> client_;
};

}  // namespace balcao::sandbox::testing
