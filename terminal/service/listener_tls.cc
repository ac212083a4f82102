#include "terminal/service/listener_tls.h"

#include <arpa/inet.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

namespace balcao::terminal::service {
namespace {

bool IsIpAddress(const std::string& text) {
  unsigned char bytes[16];
  return ::inet_pton(AF_INET, text.c_str(), bytes) == 1 || ::inet_pton(AF_INET6, text.c_str(), bytes) == 1;
}

bool IsWildcard(const std::string& address) { return address == "0.0.0.0" || address == "::"; }

// "caixa.lan:8443" -> "caixa.lan", "[fe80::1]:8443" -> "fe80::1", "fe80::1" as it is.
std::string WithoutPort(const std::string& name) {
  if (!name.empty() && name.front() == '[') return name.substr(1, name.find(']') - 1);
  if (std::count(name.begin(), name.end(), ':') == 1) return name.substr(0, name.find(':'));
  return name;
}

void AddOnce(std::vector<std::string>& list, const std::string& item) {
  if (!item.empty() && std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

}  // namespace

bool IsLoopback(const std::string& address) {
  unsigned char bytes[16];
  if (::inet_pton(AF_INET, address.c_str(), bytes) == 1) return bytes[0] == 127;
  if (::inet_pton(AF_INET6, address.c_str(), bytes) != 1) return false;
  static const unsigned char kLoopback6[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  static const unsigned char kMappedPrefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  return std::memcmp(bytes, kLoopback6, 16) == 0 || (std::memcmp(bytes, kMappedPrefix, 12) == 0 && bytes[12] == 127);
}

StatusOr<ListenerPlan> PlanListener(const std::string& address, const ServeConfig& config, bool insecure_lan) {
  const bool asks_tls = config.tls.value_or(false) || !config.tls_cert.empty();
  if (insecure_lan && asks_tls)
    return InvalidArgumentError(
        "--insecure-lan asks for plain HTTP, but the config asks for TLS (listen.tls, "
        "listen.tls_cert): drop one");
  ListenerPlan plan;
  const bool loopback = IsLoopback(address);
  plan.tls = asks_tls || (!loopback && !config.tls.has_value() && !insecure_lan);
  plan.self_signed = plan.tls && config.tls_cert.empty();
  if (!plan.tls && !loopback) {
    if (!insecure_lan)
      return InvalidArgumentError(
          "--address " + address +
          ": plain HTTP beyond loopback would send PINs, session cookies and card numbers in clear over the "
          "network; leave listen.tls unset (a self-signed certificate) or configure listen.tls_cert and "
          "listen.tls_key, or start with --insecure-lan to accept that");
    plan.insecure_lan = true;
  }
  return plan;
}

http::SelfSignedOptions CertificateNames(const std::string& address, const std::vector<std::string>& host_names) {
  http::SelfSignedOptions options;
  options.common_name = "balcao serve";
  std::vector<std::string> names = host_names;
  if (!IsWildcard(address)) names.push_back(address);
  names.push_back("127.0.0.1");
  names.push_back("localhost");
  for (const std::string& name : names) {
    const std::string host = WithoutPort(name);
    AddOnce(IsIpAddress(host) ? options.ip_addresses : options.dns_names, host);
  }
  return options;
}

StatusOr<ListenerTls> PrepareListenerTls(const ListenerPlan& plan, const ServeConfig& config,
                                         const std::string& address, const std::string& data_dir) {
  ListenerTls tls;
  if (plan.self_signed) {
    const std::filesystem::path dir(data_dir);
    std::error_code ec;
    std::filesystem::create_directories((dir / kSelfSignedCertFile).parent_path(), ec);
    if (ec)
      return UnavailableError("cannot create " + (dir / kSelfSignedCertFile).parent_path().string() + ": " +
                              ec.message());
    ::chmod((dir / kSelfSignedCertFile).parent_path().c_str(), 0700);
    // Boxes made it as <data_dir>/tls-cert.pem and tls-key.pem before: moved, so that its
    // fingerprint (which other screens and cash registers trust) stays the same.
    const auto old_cert = dir / "tls-cert.pem", old_key = dir / "tls-key.pem";
    if (!std::filesystem::exists(dir / kSelfSignedCertFile, ec) && std::filesystem::exists(old_cert, ec) &&
        std::filesystem::exists(old_key, ec)) {
      std::filesystem::rename(old_key, dir / kSelfSignedKeyFile, ec);
      if (!ec) std::filesystem::rename(old_cert, dir / kSelfSignedCertFile, ec);
      if (ec) return UnavailableError("cannot move " + old_cert.string() + " into tls/: " + ec.message());
    }
    tls.cert_path = (dir / kSelfSignedCertFile).string();
    http::SelfSignedOptions names = CertificateNames(address, config.host_names);
    if (!config.nexo.certificate_common_name.empty()) names.common_name = config.nexo.certificate_common_name;
    BALCAO_ASSIGN_OR_RETURN(tls.files, http::LoadOrCreateSelfSigned(tls.cert_path, (dir / kSelfSignedKeyFile).string(),
                                                                    names, &tls.created));
  } else {
    tls.cert_path = config.tls_cert;
    auto files = http::ReadTlsFiles(config.tls_cert, config.tls_key);
    if (!files.ok()) return Status(files.status().code(), "listen.tls_cert/tls_key: " + files.status().message());
    tls.files = *std::move(files);
  }
  BALCAO_ASSIGN_OR_RETURN(tls.fingerprint, http::Sha256Fingerprint(tls.files.cert_pem));
  return tls;
}

}  // namespace balcao::terminal::service
