#include "tests/sandbox/family_harness.h"

#include <curl/curl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "api/crypto.h"
#include "common/time.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/test_request.h"

namespace balcao::sandbox::family_testing {
namespace {

double SystemSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string Reply::code() const {
  Json j = json();
  if (!j.is_object() || !j.contains("errors") || j["errors"].empty()) return "";
  return j["errors"][0].value("code", "");
}

void FamilyHarness::SetUp() {
  char dir[] = "/tmp/family-harness-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  data_dir_ = dir;
  SandboxOptions options;
  options.data_dir = data_dir_ + "/data";
  options.https = false;
  options.db = ":memory:";
  options.tick_millis = 60'000;  // jobs run when a test moves the clock, never by surprise
  auto started = Sandbox::Start(options);
  ASSERT_OK(started);
  sandbox_ = std::move(*started);
  access_id_ = "project/" + sandbox_->credentials().project_id;
  key_pem_ = sandbox_->credentials().project_private_key_pem;
  curl_ = curl_easy_init();
  Now();  // learns the clock offset
}

void FamilyHarness::TearDown() {
  if (curl_) curl_easy_cleanup(static_cast<CURL*>(curl_));
  curl_ = nullptr;
  if (sandbox_) sandbox_->Stop();
  sandbox_.reset();
  if (!data_dir_.empty()) std::filesystem::remove_all(data_dir_);
}

Reply FamilyHarness::Send(const std::string& method, const std::string& url, const std::string& body, bool sign) {
  test_util::TestRequest request(method, url);
  if (method != "GET" && method != "DELETE") request.Body(body);
  if (sign) {
    char time[32];
    std::snprintf(time, sizeof time, "%lld", static_cast<long long>(SystemSeconds() + clock_offset_seconds_));
    auto key = api::PrivateKey::FromPem(key_pem_);
    request.Header("Access-Id", access_id_).Header("Access-Time", time).Sign(*key);
  }
  test_util::HttpReply sent = request.Send(curl_);
  EXPECT_EQ(sent.curl_code, CURLE_OK) << method << " " << url << ": "
                                      << curl_easy_strerror(static_cast<CURLcode>(sent.curl_code));
  Reply reply;
  reply.status = sent.status;
  reply.body = std::move(sent.body);
  reply.content_type = std::move(sent.content_type);
  return reply;
}

Reply FamilyHarness::Api(const std::string& method, const std::string& path, const Json& body) {
  return Send(method, sandbox_->credentials().base_url + path, body.is_null() ? "" : body.dump(), true);
}

Json FamilyHarness::Ok(const std::string& method, const std::string& path, const Json& body) {
  Reply r = Api(method, path, body);
  EXPECT_EQ(r.status, 200) << method << " " << path << " -> " << r.body;
  return r.json();
}

Reply FamilyHarness::Sim(const std::string& name, const Json& body) {
  const std::string base = "http://127.0.0.1:" + std::to_string(sandbox_->port());
  return Send("POST", base + "/sandbox/" + name, body.dump(), false);
}

Json FamilyHarness::SimOk(const std::string& name, const Json& body) {
  Reply r = Sim(name, body);
  EXPECT_EQ(r.status, 200) << "/sandbox/" << name << " -> " << r.body;
  return r.json();
}

void FamilyHarness::SignAs(const std::string& access_id, const std::string& key_pem) {
  access_id_ = access_id;
  key_pem_ = key_pem;
}

void FamilyHarness::SignAsDemoProject() {
  SignAs("project/" + sandbox_->credentials().project_id, sandbox_->credentials().project_private_key_pem);
}

Json FamilyHarness::SimGet(const std::string& name) {
  const std::string base = "http://127.0.0.1:" + std::to_string(sandbox_->port());
  Reply r = Send("GET", base + "/sandbox/" + name, "", false);
  EXPECT_EQ(r.status, 200) << "GET /sandbox/" << name << " -> " << r.body;
  return r.json();
}

void FamilyHarness::Advance(std::int64_t seconds) {
  Json answer = SimOk("clock", {{"advance", seconds}});
  (void)answer;
  Now();
}

void FamilyHarness::SetClock(const std::string& timestamp) {
  SimOk("clock", {{"set", timestamp}});
  Now();
}

std::string FamilyHarness::Now() {
  const std::string base = "http://127.0.0.1:" + std::to_string(sandbox_->port());
  Reply r = Send("GET", base + "/sandbox/clock", "", false);
  const std::string now = r.json().value("now", "");
  auto t = ParseTimestamp(now);
  if (t.ok()) clock_offset_seconds_ = static_cast<double>(*t) / 1e6 - SystemSeconds();
  return now;
}

std::int64_t FamilyHarness::Balance() {
  Json j = Ok("GET", "/balance");
  return j["balances"][0]["amount"].get<std::int64_t>();
}

void FamilyHarness::Fund(std::int64_t cents) { SimOk("deposit", {{"amount", cents}}); }

// What a shell command writes on its standard output.
static std::string Output(const std::string& cmd) {
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
  }
  return out;
}

std::string FamilyHarness::PdfText(const std::string& path, bool sign) {
  Reply r = sign ? Api("GET", path) : Send("GET", sandbox_->credentials().base_url + path, "", false);
  if (r.status != 200 || r.body.rfind("%PDF", 0) != 0) return "";
  char name[] = "/tmp/family-test-XXXXXX";
  const int fd = mkstemp(name);
  if (fd < 0) return "";
  ::close(fd);
  std::ofstream(name, std::ios::binary) << r.body;
  const std::string text = Output(std::string("pdftotext -layout ") + name + " - 2>/dev/null");
  ::unlink(name);
  return text;
}

void FamilyHarness::ExpectReceipt(const std::string& path, const std::vector<std::string>& fields, bool sign) {
  Reply r = sign ? Api("GET", path) : Send("GET", sandbox_->credentials().base_url + path, "", false);
  ASSERT_EQ(r.status, 200) << path << ": " << r.body.substr(0, 300);
  EXPECT_EQ(r.content_type, "application/pdf") << path;
  EXPECT_EQ(r.body.rfind("%PDF-", 0), 0u) << path;
  EXPECT_GE(r.body.size(), 4096u) << path << ": a bank receipt is several kilobytes";
  const std::string text = PdfText(path, sign);
  EXPECT_NE(text.find("Authentication code"), std::string::npos) << path << "\n" << text;
  for (const auto& field : fields)
    EXPECT_NE(text.find(field), std::string::npos) << path << ": " << field << "\n" << text;
  // The authentication QR code decodes (pdftoppm renders the last page, zbarimg reads it).
  if (std::system("command -v pdftoppm >/dev/null && command -v zbarimg >/dev/null") != 0) {
    std::printf("skipped the receipt QR check: pdftoppm or zbarimg missing\n");
    return;
  }
  char dir[] = "/tmp/family-receipt-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string pdf = std::string(dir) + "/r.pdf";
  std::ofstream(pdf, std::ios::binary) << r.body;
  const std::string cmd = "pdftoppm -r 150 -png " + pdf + " " + dir + "/p && zbarimg -q --raw " + dir +
                          "/p-1.png 2>/dev/null; rm -rf " + dir;
  const std::string decoded = Output(cmd);
  EXPECT_EQ(decoded.rfind("balcao-sandbox:receipt:", 0), 0u) << path << ": QR read " << decoded;
}

}  // namespace balcao::sandbox::family_testing
