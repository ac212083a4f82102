// HTTPS on balcao_http: a self-signed certificate made by the openssl command for this test,
// a client (libcurl) that verifies it, keep-alive over TLS, and the body limit over TLS.
#include <curl/curl.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "http/server.h"

namespace balcao::http {
namespace {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct CurlAnswer {
  long status = 0;
  std::string body;
  long new_connections = 0;
  std::string error;
};

size_t Append(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

CurlAnswer Fetch(CURL* curl, const std::string& url, const std::string& ca_file, const std::string* post = nullptr) {
  CurlAnswer answer;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  if (!ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, ca_file.c_str());
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 10000L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, Append);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &answer.body);
  if (post != nullptr) {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, post->data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(post->size()));
  }
  const CURLcode code = curl_easy_perform(curl);
  if (code != CURLE_OK) answer.error = curl_easy_strerror(code);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &answer.status);
  curl_easy_getinfo(curl, CURLINFO_NUM_CONNECTS, &answer.new_connections);
  return answer;
}

TEST(Tls, RoundTripWithASelfSignedCertificate) {
  char dir_template[] = "/tmp/balcao-http-tls-XXXXXX";
  ASSERT_NE(::mkdtemp(dir_template), nullptr);
  const std::filesystem::path dir(dir_template);
  const std::string command =
      "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1"
      " -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout " +
      (dir / "key.pem").string() + " -out " + (dir / "cert.pem").string() + " 2>/dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  ServerOptions options;
  options.tls_cert_pem = ReadFile(dir / "cert.pem");
  options.tls_key_pem = ReadFile(dir / "key.pem");
  options.body_limit = 4 << 10;
  Server server(options, Synchronous([](HttpRequest& request) {
                  return HttpResponse{
                      200, "text/plain",
                      request.path + " tls=" + (request.tls ? "1" : "0") + " " + request.remote_address};
                }));
  auto plain_port = server.Listen("127.0.0.1", 0);
  auto tls_port = server.ListenTls("127.0.0.1", 0);
  ASSERT_TRUE(plain_port.ok() && tls_port.ok());
  server.Start();
  const std::string base = "https://127.0.0.1:" + std::to_string(*tls_port);

  CURL* curl = curl_easy_init();
  CurlAnswer first = Fetch(curl, base + "/hello", (dir / "cert.pem").string());
  EXPECT_EQ(first.error, "");
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(first.body, "/hello tls=1 127.0.0.1");
  EXPECT_EQ(first.new_connections, 1);
  CurlAnswer second = Fetch(curl, base + "/again", (dir / "cert.pem").string());
  EXPECT_EQ(second.body, "/again tls=1 127.0.0.1");
  EXPECT_EQ(second.new_connections, 0) << "keep-alive over TLS";
  const std::string big(1 << 20, 'x');
  CurlAnswer refused = Fetch(curl, base + "/big", (dir / "cert.pem").string(), &big);
  EXPECT_EQ(refused.error, "");
  EXPECT_EQ(refused.status, 413);
  EXPECT_EQ(refused.body, R"({"error":{"field":"body","rule":"at most 4 KiB"}})");
  curl_easy_cleanup(curl);

  // The plain listener of the same server says the request did not come over TLS.
  CURL* plain = curl_easy_init();
  CurlAnswer cleartext = Fetch(plain, "http://127.0.0.1:" + std::to_string(*plain_port) + "/plain", "");
  EXPECT_EQ(cleartext.body, "/plain tls=0 127.0.0.1");
  curl_easy_cleanup(plain);

  server.Stop();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace balcao::http
