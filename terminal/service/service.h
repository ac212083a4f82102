// `balcao serve`: the process on the box. One Service wires the box's store (sale journal,
// outbox, print jobs) in the data dir, the checkout driver on its own thread, the offline
// drainer and connectivity monitor, the bank's event intake (webhook endpoint + periodic
// catch-up), the printer spooler, and the touchscreen web app with its JSON API, all served
// by one HTTP server whose io_context also runs the drainer's and the monitor's timers.
// Without a configured bank it starts the embedded sandbox in-process. docs/terminal.md.
// Ownership: owns everything it starts; Stop() (or the destructor) stops it in order.
// Thread-safety: Start/Stop from one thread; the accessors from any.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "common/status.h"

namespace balcao::terminal::service {

// What the command line chose; an unset item comes from the config file, else the default.
struct ServeOptions {
  std::string address;                      // "" = config's listen.address, else 127.0.0.1
  std::optional<unsigned short> port;       // 0: any free port (tests); unset = config's, else 8080
  std::string data_dir;                     // "" = config's data_dir, else ./balcao-data
  std::string printer;                      // transport target; empty: the config's, else file:<data_dir>/printer.bin
  std::string config_path;                  // JSON (docs/terminal.md, "Configuration"); empty: defaults
  int owner_wait_s = 120;                   // how long to wait for a tool that holds the store
  bool insecure_lan = false;                // plain HTTP beyond loopback allowed (listener_tls.h)
  std::optional<unsigned short> nexo_port;  // cash registers' HTTPS port; 0: any free one; unset = config's
  std::optional<int> sandbox_autopay_s;     // the embedded sandbox pays each Pix QR this long after; unset = config's
  std::string tef_dial_dir;                 // TEF Dial folders; "" = config's tef_dial.dir (off when unset)
  std::string tef_dial_method;              // pix, card or ask; "" = config's tef_dial.method
};

struct ServeConfig;
// Fills what `given` leaves unset from `config`, then the defaults; makes the data dir
// absolute. kInvalidArgument when the data dir cannot be made absolute.
StatusOr<ServeOptions> ResolveServeOptions(const ServeOptions& given, const ServeConfig& config);

class Service {
 public:
  // Loads the config, resolves the options against it (data dir made absolute), opens the
  // data dir (created 0700 if missing), starts the bank (or the
  // embedded sandbox), resumes open sales from the journal, then listens, with TLS beyond
  // loopback (listener_tls.h). Errors: kInvalidArgument (config, plain HTTP beyond loopback
  // without insecure_lan), kFailedPrecondition (data dir, store), kUnavailable (port).
  static StatusOr<std::unique_ptr<Service>> Start(const ServeOptions& options);
  ~Service();
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  unsigned short port() const;
  // The nexo listener's port (docs/integration.md), 0 when it does not listen.
  unsigned short nexo_port() const;
  const std::string& data_dir() const;  // absolute
  const std::string& address() const;   // the listen address
  // The TEF Dial folder (absolute) when TEF Dial is on, else "".
  const std::string& tef_dial_dir() const;
  std::string url() const;  // http://address:port/, https:// under TLS
  // SHA-256 of the listener's TLS certificate ("AB:CD:..."), "" for plain HTTP.
  const std::string& tls_fingerprint() const;
  // The embedded sandbox's base URL (http://127.0.0.1:<port>), "" against a real bank.
  std::string sandbox_url() const;
  // While no operator exists: the command that adds the first one, and where to type it
  // ("" = anywhere; first_run.h). "" once there is an operator.
  std::string first_run_command() const;
  std::string first_run_directory() const;
  void Stop();

  struct Impl;

 private:
  explicit Service(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace balcao::terminal::service
