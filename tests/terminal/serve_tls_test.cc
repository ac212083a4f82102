// `balcao serve` with TLS (docs/terminal.md, "TLS on the LAN"): forced on loopback by the
// config, on by default beyond it (the machine's own LAN address when it has one), with the
// self-signed certificate made once in the data dir or with configured PEM files. Clients
// check what the service printed the way a person would: the fingerprint against `openssl
// x509 -fingerprint`, libcurl verifying the certificate as its CA and pinning its public key.
// Plain HTTP beyond loopback refuses to start unless --insecure-lan, which warns every start.
#include <arpa/inet.h>
#include <curl/curl.h>
#include <gtest/gtest.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include "tests/terminal/serve_fixture.h"

namespace balcao::terminal::testing {
namespace {

struct ShellRun {
  int exit_code = -1;
  std::string output;
};

// `command` through the shell, stdout and stderr together.
ShellRun Shell(const std::string& command) {
  ShellRun run;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) run.output.append(buffer, n);
  const int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteFile(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

// What the service printed: "balcao serve: TLS certificate SHA-256 fingerprint AB:CD:...".
std::string PrintedFingerprint(const ServeProcess& serve) {
  std::smatch m;
  const std::string output = serve.output();
  static const std::regex kLine(R"(TLS certificate SHA-256 fingerprint ([0-9A-F:]{95})\n)");
  return std::regex_search(output, m, kLine) ? m[1].str() : "";
}

// The fingerprint as the openssl command shows it.
std::string OpensslFingerprint(const std::filesystem::path& cert) {
  const ShellRun run = Shell("openssl x509 -noout -fingerprint -sha256 -in '" + cert.string() + "'");
  const auto equals = run.output.find('=');
  if (run.exit_code != 0 || equals == std::string::npos) return "openssl failed: " + run.output;
  std::string text = run.output.substr(equals + 1);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

// "sha256//<base64>": the SHA-256 of the certificate's public key, as CURLOPT_PINNEDPUBLICKEY takes it.
std::string PublicKeyPin(const std::filesystem::path& cert) {
  const ShellRun run = Shell("openssl x509 -noout -pubkey -in '" + cert.string() +
                             "' | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64 -w0");
  return run.exit_code == 0 ? "sha256//" + run.output : "";
}

// One GET over TLS that trusts nothing but `pin` (no CA, no host name check).
CURLcode GetPinned(const std::string& url, const std::string& pin, long* status) {
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
  std::string body;
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_SSL_VERIFYPEER, 0L);
  curl_easy_setopt(curl.get(), CURLOPT_SSL_VERIFYHOST, 0L);
  curl_easy_setopt(curl.get(), CURLOPT_PINNEDPUBLICKEY, pin.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT, 20L);
  curl_easy_setopt(
      curl.get(), CURLOPT_WRITEFUNCTION, +[](char*, size_t size, size_t count, void*) { return size * count; });
  const CURLcode code = curl_easy_perform(curl.get());
  curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, status);
  return code;
}

// The first IPv4 address of an interface that is up and not loopback, "" when none.
std::string LanAddress() {
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return "";
  std::string found;
  for (ifaddrs* a = list; a != nullptr && found.empty(); a = a->ifa_next) {
    if (a->ifa_addr == nullptr || a->ifa_addr->sa_family != AF_INET || !(a->ifa_flags & IFF_UP) ||
        (a->ifa_flags & IFF_LOOPBACK))
      continue;
    char text[INET_ADDRSTRLEN];
    const auto* in = reinterpret_cast<const sockaddr_in*>(a->ifa_addr);
    if (::inet_ntop(AF_INET, &in->sin_addr, text, sizeof text) != nullptr) found = text;
  }
  ::freeifaddrs(list);
  return found;
}

class ServeTls : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir("tls-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
  }
  std::filesystem::path Config(const std::string& json) {
    const auto path = dir_ / "balcao.conf";
    WriteFile(path, json);
    return path;
  }
  std::vector<std::string> Args(const std::filesystem::path& config, std::vector<std::string> more = {}) {
    std::vector<std::string> args = {"--printer", "file:" + (dir_ / "printer.bin").string(), "--config",
                                     config.string()};
    args.insert(args.end(), more.begin(), more.end());
    return args;
  }
  std::filesystem::path dir_;
  ServeProcess serve_;
};

TEST_F(ServeTls, ACertificateInTheOldPlaceIsMovedIntoTlsWithItsFingerprint) {
  const auto data = dir_ / "data";
  const auto config = Config(R"({"listen": {"tls": true}})");
  serve_.Trust(data / "tls" / "cert.pem");
  serve_.Start(data, Args(config));
  const std::string fingerprint = PrintedFingerprint(serve_);
  serve_.Stop();
  // As an older box left it: DATA/tls-cert.pem and DATA/tls-key.pem.
  std::filesystem::rename(data / "tls" / "cert.pem", data / "tls-cert.pem");
  std::filesystem::rename(data / "tls" / "key.pem", data / "tls-key.pem");
  std::filesystem::remove_all(data / "tls");
  serve_.Start(data, Args(config));
  EXPECT_EQ(PrintedFingerprint(serve_), fingerprint);
  EXPECT_TRUE(std::filesystem::exists(data / "tls" / "cert.pem"));
  EXPECT_FALSE(std::filesystem::exists(data / "tls-cert.pem"));
  EXPECT_FALSE(std::filesystem::exists(data / "tls-key.pem"));
}

TEST_F(ServeTls, ForcedOnLoopbackWithASelfSignedCertificateMadeOnce) {
  const auto data = dir_ / "data";
  const auto cert = data / "tls" / "cert.pem";
  const auto config = Config(R"({"listen": {"tls": true}, "security": {"host_names": ["caixa1.loja.lan"]}})");
  serve_.Trust(cert);
  serve_.Start(data, Args(config));
  ASSERT_EQ(serve_.url().rfind("https://127.0.0.1:", 0), 0u) << serve_.output();

  // The printed fingerprint is the certificate's, as openssl and GET /api/status show it.
  const std::string fingerprint = PrintedFingerprint(serve_);
  ASSERT_FALSE(fingerprint.empty()) << serve_.output();
  EXPECT_EQ(fingerprint, OpensslFingerprint(cert));
  const Reply status = serve_.Get("/api/status");  // libcurl verifies against the certificate
  ASSERT_EQ(status.status, 200) << status.body;
  EXPECT_EQ(status.json["tls_fingerprint"], fingerprint);
  EXPECT_EQ(status.json["tls"], true);

  // The certificate: P-256, 825 days, the host names and addresses, the key readable by its owner only.
  const ShellRun text = Shell("openssl x509 -noout -text -in '" + cert.string() + "'");
  EXPECT_NE(text.output.find("DNS:caixa1.loja.lan"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("IP Address:127.0.0.1"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("prime256v1"), std::string::npos) << text.output;
  EXPECT_EQ(
      Shell("openssl x509 -noout -checkend " + std::to_string(824 * 86400) + " -in '" + cert.string() + "'").exit_code,
      0);
  EXPECT_NE(
      Shell("openssl x509 -noout -checkend " + std::to_string(826 * 86400) + " -in '" + cert.string() + "'").exit_code,
      0);
  struct stat key_stat {};
  ASSERT_EQ(::stat((data / "tls" / "key.pem").c_str(), &key_stat), 0);
  EXPECT_EQ(key_stat.st_mode & 0777, 0600u);

  // A client that pins the public key reaches it; one pinning another key does not.
  long code = 0;
  EXPECT_EQ(GetPinned(serve_.url() + "/healthz", PublicKeyPin(cert), &code), CURLE_OK);
  EXPECT_EQ(code, 200);
  EXPECT_EQ(GetPinned(serve_.url() + "/healthz", "sha256//" + std::string(43, 'A') + "=", &code),
            CURLE_SSL_PINNEDPUBKEYNOTMATCH);
  // Under a configured name, the host name is checked too.
  const std::string port = serve_.url().substr(serve_.url().rfind(':') + 1);
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
  const std::string resolve_entry = "caixa1.loja.lan:" + port + ":127.0.0.1";
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> resolve(curl_slist_append(nullptr, resolve_entry.c_str()),
                                                                      &curl_slist_free_all);
  const std::string named = "https://caixa1.loja.lan:" + port + "/healthz";
  curl_easy_setopt(curl.get(), CURLOPT_URL, named.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_RESOLVE, resolve.get());
  curl_easy_setopt(curl.get(), CURLOPT_CAINFO, cert.c_str());
  curl_easy_setopt(
      curl.get(), CURLOPT_WRITEFUNCTION, +[](char*, size_t size, size_t count, void*) { return size * count; });
  EXPECT_EQ(curl_easy_perform(curl.get()), CURLE_OK);
  curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &code);
  EXPECT_EQ(code, 200);

  // The session cookie is Secure under TLS; plain HTTP on the TLS port gets no answer.
  const Reply login = serve_.LogIn(kCashier, kCashierPin);
  ASSERT_EQ(login.status, 200) << login.body;
  EXPECT_NE(login.set_cookie.find("; Secure"), std::string::npos) << login.set_cookie;
  EXPECT_NE(login.set_cookie.find("HttpOnly"), std::string::npos) << login.set_cookie;
  EXPECT_EQ(Http("GET", "http://127.0.0.1:" + port + "/healthz").status, 0);

  // A Pix sale paid: the embedded sandbox delivers its webhook over TLS too.
  const std::string id = serve_.NewSale(1250)["id"].get<std::string>();
  const Reply pix = serve_.Post("/api/sales/" + id + "/method", {{"method", "pix"}});
  ASSERT_EQ(serve_.Simulate("dynamic-brcode/pay", {{"uuid", BankId(pix.json, "brcode")}}).status, 200);
  serve_.WaitFor(id, "paid");
  long applied = 0;
  for (int i = 0; i < 100 && applied == 0; ++i) {
    applied = serve_.Get("/api/status").json["webhooks"].value("applied", 0L);
    if (applied == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_GE(applied, 1) << "no webhook reached serve over TLS";

  // Made once: a restart serves the same certificate.
  serve_.Stop();
  serve_.Start(data, Args(config));
  EXPECT_EQ(PrintedFingerprint(serve_), fingerprint);
  EXPECT_EQ(serve_.Get("/healthz").status, 200);
}

TEST_F(ServeTls, ConfiguredCertificateFilesRelativeToTheConfig) {
  const ShellRun made = Shell(
      "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1"
      " -addext subjectAltName=IP:127.0.0.1 -keyout '" +
      (dir_ / "store-key.pem").string() + "' -out '" + (dir_ / "store-cert.pem").string() + "'");
  ASSERT_EQ(made.exit_code, 0) << made.output;
  const auto config = Config(R"({"listen": {"tls_cert": "store-cert.pem", "tls_key": "store-key.pem"}})");
  serve_.Trust(dir_ / "store-cert.pem");
  serve_.Start(dir_ / "data", Args(config));
  ASSERT_EQ(serve_.url().rfind("https://", 0), 0u) << serve_.output();
  EXPECT_EQ(PrintedFingerprint(serve_), OpensslFingerprint(dir_ / "store-cert.pem"));
  EXPECT_EQ(serve_.Get("/api/status").json["tls_fingerprint"], PrintedFingerprint(serve_));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "data" / "tls" / "cert.pem"));
  serve_.Stop();

  // A key that is not the certificate's is refused at start, naming the config keys.
  Shell("openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out '" + (dir_ / "store-key.pem").string() +
        "'");
  const ShellRun refused = Shell(std::string(BALCAO_CLI) + " serve --port 0 --data-dir '" + (dir_ / "data").string() +
                                 "' --config '" + config.string() + "'");
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_NE(refused.output.find("listen.tls_cert/tls_key"), std::string::npos) << refused.output;
}

TEST_F(ServeTls, PlainHttpBeyondLoopbackNeedsInsecureLan) {
  const auto config = Config(R"({"listen": {"tls": false}})");
  const std::string command = std::string(BALCAO_CLI) + " serve --port 0 --address 0.0.0.0 --data-dir '" +
                              (dir_ / "data").string() + "' --config '" + config.string() + "'";
  const ShellRun refused = Shell(command);
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_NE(refused.output.find("--insecure-lan"), std::string::npos) << refused.output;
  EXPECT_EQ(refused.output.find("listening"), std::string::npos) << refused.output;
  // Asking for TLS and for plain HTTP at once is refused too.
  const ShellRun both =
      Shell(std::string(BALCAO_CLI) + " serve --port 0 --address 0.0.0.0 --insecure-lan --data-dir '" +
            (dir_ / "data").string() + "' --config '" + Config(R"({"listen": {"tls": true}})").string() + "'");
  EXPECT_EQ(both.exit_code, 1) << both.output;
  EXPECT_NE(both.output.find("--insecure-lan asks for plain HTTP"), std::string::npos) << both.output;

  // With --insecure-lan it starts, plain, and warns at every start.
  const auto data = dir_ / "data";
  for (int start = 1; start <= 2; ++start) {
    serve_.Start(data, Args(Config(R"({"listen": {"tls": false}})"), {"--address", "0.0.0.0", "--insecure-lan"}));
    ASSERT_EQ(serve_.url().rfind("http://127.0.0.1:", 0), 0u) << serve_.output();
    EXPECT_EQ(serve_.Get("/healthz").status, 200);
    EXPECT_EQ(serve_.LogIn(kCashier, kCashierPin).set_cookie.find("Secure"), std::string::npos);
    EXPECT_EQ(PrintedFingerprint(serve_), "");
    serve_.Stop();
    const std::string log = ReadFile(data / "balcao.log");
    std::size_t warnings = 0;
    for (auto at = log.find("WARN serve: --insecure-lan: plain HTTP beyond loopback"); at != std::string::npos;
         at = log.find("WARN serve: --insecure-lan: plain HTTP beyond loopback", at + 1))
      ++warnings;
    EXPECT_EQ(warnings, static_cast<std::size_t>(start)) << log;
  }
}

TEST_F(ServeTls, OnTheMachinesLanAddressByDefault) {
  const std::string address = LanAddress();
  if (address.empty()) GTEST_SKIP() << "no non-loopback IPv4 address on this machine";
  const auto data = dir_ / "data";
  serve_.Trust(data / "tls" / "cert.pem");
  serve_.Start(data, Args(Config("{}"), {"--address", address}));
  ASSERT_EQ(serve_.url(), "https://" + address + ":" + serve_.url().substr(serve_.url().rfind(':') + 1))
      << serve_.output();
  // Verified against the certificate, under the address in its subjectAltName.
  const Reply status = serve_.Get("/api/status");
  ASSERT_EQ(status.status, 200) << status.body;
  EXPECT_EQ(status.json["tls_fingerprint"], PrintedFingerprint(serve_));
  EXPECT_EQ(OpensslFingerprint(data / "tls" / "cert.pem"), PrintedFingerprint(serve_));
  const Reply login = serve_.LogIn(kCashier, kCashierPin);
  EXPECT_NE(login.set_cookie.find("; Secure"), std::string::npos) << login.set_cookie;
}

}  // namespace
}  // namespace balcao::terminal::testing
