#include "tests/sandbox/sandbox_client.h"

#include <curl/curl.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "tests/testing/status_matchers.h"

namespace balcao::sandbox::testing {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

std::unique_ptr<Sandbox> SandboxTest::sandbox_;

Client::Client(std::string base_url, std::string id, api::PrivateKey k)
    : access_id(std::move(id)), key(std::move(k)), base(std::move(base_url)), curl_(curl_easy_init()) {}

Client::~Client() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

Reply Client::Raw(const std::string& method, const std::string& path, const std::string& body,
                  const std::map<std::string, std::string>& headers) {
  return Send(Build(method, path, body, headers));
}

Reply Client::Call(const std::string& method, const std::string& path, const std::string& body,
                   const std::map<std::string, std::string>& headers) {
  const auto now =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::map<std::string, std::string> signed_headers = {{"Access-Id", access_id}, {"Access-Time", std::to_string(now)}};
  for (const auto& [k, v] : headers) signed_headers[k] = v;
  test_util::TestRequest request = Build(method, path, body, signed_headers);
  request.Sign(key);
  return Send(request);
}

test_util::TestRequest Client::Build(const std::string& method, const std::string& path, const std::string& body,
                                     const std::map<std::string, std::string>& headers) const {
  test_util::TestRequest request(method, base + path);
  request.Header("Expect", "").TimeoutMs(timeout_ms);
  for (const auto& [k, v] : headers) request.Header(k, v);
  if (!body.empty() || method == "POST" || method == "PATCH" || method == "PUT") request.Body(body);
  if (fresh_connection) request.FreshConnection();
  return request;
}

Reply Client::Send(const test_util::TestRequest& request) {
  test_util::HttpReply sent = request.Send(curl_);
  Reply r;
  r.status = sent.status;
  r.curl_code = sent.curl_code;
  r.body = std::move(sent.body);
  r.content_type = std::move(sent.content_type);
  r.json = Json::parse(r.body, nullptr, false);
  return r;
}

void SandboxTest::SetUpTestSuite() {
  if (sandbox_) return;
  SandboxOptions options;
  options.db = ":memory:";
  options.tick_millis = 50;
  // The checkout's event-driven card paths (a bank that sent card events) are tested here.
  options.undocumented_subscriptions = true;
  auto started = Sandbox::Start(options);
  ASSERT_OK(started);
  sandbox_ = std::move(*started);
}

void SandboxTest::TearDownTestSuite() {}

void SandboxTest::SetUp() {
  ASSERT_TRUE(sandbox_);
  const auto& c = sandbox_->credentials();
  auto key = api::PrivateKey::FromPem(ReadFile(c.private_key_path));
  ASSERT_OK(key);
  client_ =
      std::make_unique<Client>("http://127.0.0.1:" + std::to_string(sandbox_->port()), "project/" + c.project_id, *key);
}

std::string SandboxTest::Code(const Reply& r) {
  if (!r.json.is_object() || !r.json.contains("errors") || r.json["errors"].empty()) return "";
  return r.json["errors"][0].value("code", "");
}

}  // namespace balcao::sandbox::testing
