// HTTPS on balcao_http: a self-signed certificate made by the openssl command for this test,
// a client (libcurl) that verifies it, keep-alive over TLS, and the body limit over TLS; the
// self-signed certificates of http/tls_cert.h (made once, key 0600, fingerprint as openssl
// shows it, trusted by libcurl as their own CA) and configured PEM files checked as a pair.
#include <curl/curl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "http/server.h"
#include "http/tls_cert.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

using ::balcao::test_util::StatusIs;

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
  const test_util::TempDir tmp("http-tls");
  const std::filesystem::path dir = tmp.path();
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
  ASSERT_OK(plain_port);
  ASSERT_OK(tls_port);
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

std::string Openssl(const std::string& args) {
  std::string out;
  FILE* pipe = ::popen(("openssl " + args + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  ::pclose(pipe);
  return out;
}

TEST(Tls, ASelfSignedCertificateMadeOnceAndTrustedAsItsOwnCa) {
  const test_util::TempDir tmp("http-selfsigned");
  const std::filesystem::path dir = tmp.path();
  const std::string cert_path = (dir / "cert.pem").string(), key_path = (dir / "key.pem").string();
  SelfSignedOptions names;
  names.dns_names = {"caixa1.loja.lan", "localhost"};
  names.ip_addresses = {"127.0.0.1"};
  const mode_t old_umask = ::umask(0);  // the key is 0600 whatever the umask
  bool created = false;
  auto first = LoadOrCreateSelfSigned(cert_path, key_path, names, &created);
  ::umask(old_umask);
  ASSERT_OK(first);
  EXPECT_TRUE(created);
  struct stat key_stat {};
  ASSERT_EQ(::stat(key_path.c_str(), &key_stat), 0);
  EXPECT_EQ(key_stat.st_mode & 0777, 0600u);
  auto again = LoadOrCreateSelfSigned(cert_path, key_path, names, &created);
  ASSERT_OK(again);
  EXPECT_FALSE(created);
  EXPECT_EQ(again->cert_pem, first->cert_pem);

  // The fingerprint is what openssl shows.
  auto fingerprint = Sha256Fingerprint(first->cert_pem);
  ASSERT_OK(fingerprint);
  EXPECT_NE(Openssl("x509 -noout -fingerprint -sha256 -in " + cert_path).find("=" + *fingerprint + "\n"),
            std::string::npos);
  EXPECT_EQ(fingerprint->size(), 32u * 3 - 1);
  EXPECT_THAT(Sha256Fingerprint("not a certificate"), StatusIs(StatusCode::kInvalidArgument));

  // libcurl trusts it as its own CA, under each of its names.
  ServerOptions options;
  options.tls_cert_pem = first->cert_pem;
  options.tls_key_pem = first->key_pem;
  Server server(options, Synchronous([](HttpRequest&) { return HttpResponse{200, "text/plain", "ok", {}}; }));
  auto port = server.ListenTls("127.0.0.1", 0);
  ASSERT_OK(port);
  server.Start();
  CURL* curl = curl_easy_init();
  EXPECT_EQ(Fetch(curl, "https://127.0.0.1:" + std::to_string(*port) + "/", cert_path).body, "ok");
  EXPECT_EQ(Fetch(curl, "https://localhost:" + std::to_string(*port) + "/", cert_path).body, "ok");
  curl_easy_cleanup(curl);
  server.Stop();

  // A new name, or a key that is not the certificate's, makes a new one.
  names.dns_names.push_back("caixa2.loja.lan");
  auto renamed = LoadOrCreateSelfSigned(cert_path, key_path, names, &created);
  ASSERT_OK(renamed);
  EXPECT_TRUE(created);
  EXPECT_NE(renamed->cert_pem, first->cert_pem);
  EXPECT_NE(Openssl("x509 -noout -checkhost caixa2.loja.lan -in " + cert_path).find("does match"), std::string::npos);
  auto other = CreateSelfSigned(names);
  ASSERT_OK(other);
  std::ofstream(key_path, std::ios::trunc) << other->key_pem;
  EXPECT_OK(LoadOrCreateSelfSigned(cert_path, key_path, names, &created));
  EXPECT_TRUE(created);
  EXPECT_OK(ReadTlsFiles(cert_path, key_path));

  // A name is one subjectAltName entry, never OpenSSL's "DNS:a,IP:b" text.
  SelfSignedOptions sneaky;
  sneaky.dns_names = {"a.lan,IP:10.9.9.9"};
  auto sneaky_cert = CreateSelfSigned(sneaky);
  ASSERT_OK(sneaky_cert);
  std::ofstream(dir / "sneaky.pem") << sneaky_cert->cert_pem;
  EXPECT_NE(Openssl("x509 -noout -checkip 10.9.9.9 -in " + (dir / "sneaky.pem").string()).find("does NOT match"),
            std::string::npos);
  sneaky.ip_addresses = {"not-an-ip"};
  EXPECT_THAT(CreateSelfSigned(sneaky), StatusIs(StatusCode::kInvalidArgument));
  std::filesystem::remove_all(dir);
}

TEST(Tls, ConfiguredFilesAreCheckedAsAPair) {
  const test_util::TempDir tmp("http-tlsfiles");
  const std::filesystem::path dir = tmp.path();
  auto one = CreateSelfSigned({});
  auto two = CreateSelfSigned({});
  ASSERT_OK(one);
  ASSERT_OK(two);
  std::ofstream(dir / "cert.pem") << one->cert_pem;
  std::ofstream(dir / "key.pem") << two->key_pem;
  std::ofstream(dir / "junk.pem") << "-----BEGIN NOTHING-----\n";
  const std::string cert = (dir / "cert.pem").string();
  EXPECT_THAT(ReadTlsFiles(cert, (dir / "missing.pem").string()), StatusIs(StatusCode::kNotFound));
  EXPECT_EQ(ReadTlsFiles((dir / "junk.pem").string(), (dir / "key.pem").string()).status().code(),
            StatusCode::kInvalidArgument);
  const auto mismatch = ReadTlsFiles(cert, (dir / "key.pem").string());
  EXPECT_THAT(mismatch, StatusIs(StatusCode::kInvalidArgument));
  EXPECT_NE(mismatch.status().message().find("not the key of the certificate"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace balcao::http
