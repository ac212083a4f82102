#include "tests/sandbox/sandbox_client.h"

#include <curl/curl.h>

#include <chrono>
#include <fstream>
#include <sstream>

namespace balcao::sandbox::testing {
namespace {

std::size_t Collect(char* data, std::size_t size, std::size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

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
  CURL* c = static_cast<CURL*>(curl_);
  curl_easy_reset(c);
  Reply r;
  std::string url = base + path;
  curl_slist* list = nullptr;
  bool has_type = false;
  for (const auto& [k, v] : headers) {
    if (k == "Content-Type") has_type = true;
    list = curl_slist_append(list, (v.empty() ? k + ":" : k + ": " + v).c_str());
  }
  if (!has_type) list = curl_slist_append(list, "Content-Type: application/json");
  list = curl_slist_append(list, "Expect:");
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method.c_str());
  if (!body.empty() || method == "POST" || method == "PATCH" || method == "PUT") {
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  }
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &Collect);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &r.body);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  if (fresh_connection) curl_easy_setopt(c, CURLOPT_FRESH_CONNECT, 1L);
  curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L);
  curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L);
  r.curl_code = curl_easy_perform(c);
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r.status);
  char* type = nullptr;
  curl_easy_getinfo(c, CURLINFO_CONTENT_TYPE, &type);
  if (type) r.content_type = type;
  curl_slist_free_all(list);
  r.json = Json::parse(r.body, nullptr, false);
  return r;
}

Reply Client::Call(const std::string& method, const std::string& path, const std::string& body,
                   const std::map<std::string, std::string>& headers) {
  const auto now =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::map<std::string, std::string> h = {{"Access-Id", access_id}, {"Access-Time", std::to_string(now)}};
  for (const auto& [k, v] : headers) h[k] = v;
  const auto id = h.find("Access-Id"), time = h.find("Access-Time");
  const std::string message =
      (id == h.end() ? "" : id->second) + ":" + (time == h.end() ? "" : time->second) + ":" + body;
  if (!h.count("Access-Signature")) h["Access-Signature"] = key.Sign(message);
  return Raw(method, path, body, h);
}

void SandboxTest::SetUpTestSuite() {
  if (sandbox_) return;
  SandboxOptions options;
  options.db = ":memory:";
  options.tick_millis = 50;
  auto started = Sandbox::Start(options);
  ASSERT_TRUE(started.ok()) << started.status().ToString();
  sandbox_ = std::move(*started);
}

void SandboxTest::TearDownTestSuite() {}

void SandboxTest::SetUp() {
  ASSERT_TRUE(sandbox_);
  const auto& c = sandbox_->credentials();
  auto key = api::PrivateKey::FromPem(ReadFile(c.private_key_path));
  ASSERT_TRUE(key.ok()) << key.status().ToString();
  client_ =
      std::make_unique<Client>("http://127.0.0.1:" + std::to_string(sandbox_->port()), "project/" + c.project_id, *key);
}

std::string SandboxTest::Code(const Reply& r) {
  if (!r.json.is_object() || !r.json.contains("errors") || r.json["errors"].empty()) return "";
  return r.json["errors"][0].value("code", "");
}

}  // namespace balcao::sandbox::testing
