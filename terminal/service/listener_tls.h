// Whether `balcao serve` listens with TLS, and with which certificate (docs/terminal.md, "TLS
// on the LAN"): plain HTTP on loopback, TLS beyond it, with the configured PEM files or a
// self-signed certificate made once in the data dir. Plain HTTP beyond loopback only with
// --insecure-lan: PINs, session cookies and card numbers would cross the store's network in
// clear. Thread-safety: pure functions (PrepareListenerTls writes the data dir's files).
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "http/tls_cert.h"
#include "terminal/service/config.h"

namespace balcao::terminal::service {

// 127.0.0.0/8, ::1 and ::ffff:127.x.x.x. Not the wildcards 0.0.0.0 and ::, nor a name.
bool IsLoopback(const std::string& address);

struct ListenerPlan {
  bool tls = false;
  bool self_signed = false;   // TLS without configured files
  bool insecure_lan = false;  // plain HTTP beyond loopback, as --insecure-lan allowed
};
// kInvalidArgument: plain HTTP beyond loopback without `insecure_lan` (the message names
// --insecure-lan), or `insecure_lan` while the config asks for TLS.
StatusOr<ListenerPlan> PlanListener(const std::string& address, const ServeConfig& config, bool insecure_lan);

// The self-signed certificate's names: the configured host names (a port dropped), the
// listen address unless a wildcard, and 127.0.0.1 and localhost for the box's own screen.
http::SelfSignedOptions CertificateNames(const std::string& address, const std::vector<std::string>& host_names);

// The box's own certificate, in the data dir (its folder made 0700): the one listeners use
// (the touchscreen's beyond loopback, the nexo port) and a cash register pins.
inline constexpr const char* kSelfSignedCertFile = "tls/cert.pem";
inline constexpr const char* kSelfSignedKeyFile = "tls/key.pem";

struct ListenerTls {
  http::TlsCertificate files;
  std::string fingerprint;  // SHA-256 of the certificate, "AB:CD:..."
  std::string cert_path;    // where the certificate is (to give clients)
  bool created = false;     // a self-signed certificate was made at this start
};
// The configured files, or <data_dir>/tls/cert.pem and tls/key.pem (made, or made again when
// they no longer name the host names and address or expire within 30 days). kNotFound,
// kInvalidArgument (configured files: naming the key of the config), kUnavailable (writing).
StatusOr<ListenerTls> PrepareListenerTls(const ListenerPlan& plan, const ServeConfig& config,
                                         const std::string& address, const std::string& data_dir);

}  // namespace balcao::terminal::service
