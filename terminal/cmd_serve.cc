// `balcao serve`: the process on the box: the cashier's touchscreen web app and its JSON API,
// the bank's webhook endpoint, the checkout driver, the offline queue and the printer spooler
// (terminal/service/service.h, docs/terminal.md). Runs until SIGINT or SIGTERM.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/log.h"
#include "terminal/command.h"
#include "terminal/internal/crash_report.h"
#include "terminal/internal/stop_signals.h"
#include "terminal/service/service.h"

namespace balcao::terminal {
namespace {

constexpr const char* kUsage =
    "usage: balcao serve [--port N] [--address IP] [--data-dir DIR] [--printer URI] [--config FILE]\n"
    "                    [--insecure-lan] [--nexo-port N] [--sandbox-autopay SECONDS]\n"
    "                    [--tef-dial-dir DIR] [--tef-dial-method pix|card|ask]\n"
    "The touchscreen service: open http://127.0.0.1:8080/ on the box's screen.\n"
    "  --port N        HTTP port (default: the config's listen.port, else 8080; 0 picks a free one)\n"
    "  --address IP    where to listen (default: the config's, else 127.0.0.1: the touchscreen is on the box);\n"
    "                  beyond loopback with TLS: the config's listen.tls_cert/tls_key, else a self-signed\n"
    "                  certificate made once in the data dir (its SHA-256 fingerprint is printed)\n"
    "  --data-dir DIR  the box's database, sale index and, without a bank, the sandbox's state\n"
    "                  (default: the config's data_dir, else ./balcao-data; created 0700)\n"
    "  --printer URI   tcp://host:9100, file:/dev/usb/lp0, file:/path/out.bin, cups:QUEUE\n"
    "                  (default file:DIR/printer.bin)\n"
    "  --config FILE   store settings as JSON with comments (docs/terminal.md; default $BALCAO_CONFIG)\n"
    "  --insecure-lan  plain HTTP beyond loopback: PINs and card numbers cross the network in clear\n"
    "  --nexo-port N   cash registers' nexo port, HTTPS with the box's certificate DIR/tls/cert.pem\n"
    "                  (default: the config's nexo.port, else 8443 once `balcao pos add` registered one;\n"
    "                  0 picks a free one; docs/integration.md)\n"
    "  --sandbox-autopay SECONDS  the embedded sandbox's payer pays each Pix QR that long after it shows\n"
    "  --tef-dial-dir DIR  answer TEF Dial cash registers in DIR/req and DIR/resp (default: the config's\n"
    "                  tef_dial.dir; docs/integration.md, \"TEF Dial\")\n"
    "  --tef-dial-method pix|card|ask  how a TEF Dial sale is paid (default: tef_dial.method, else ask:\n"
    "                  the box's screen asks)\n"
    "Without BALCAO_CREDENTIALS (or BALCAO_BANK_URL...) nor the config's bank.credentials, the\n"
    "embedded bank sandbox is started.\n";

// What a started serve tells the one who started it: where it listens, its certificate, its
// other ports, its bank, and while no operator exists what to type to add the first one.
void PrintStarted(const service::Service& service) {
  std::printf("balcao serve: listening on %s (data dir %s)\n", service.url().c_str(), service.data_dir().c_str());
  if (!service.tls_fingerprint().empty())
    std::printf("balcao serve: TLS certificate SHA-256 fingerprint %s\n", service.tls_fingerprint().c_str());
  if (service.nexo_port() != 0)
    std::printf("nexo listening on https://%s:%u/nexo/\n", service.address().c_str(),
                static_cast<unsigned>(service.nexo_port()));
  if (!service.tef_dial_dir().empty())
    std::printf("balcao serve: TEF Dial in %s/req, answered in %s/resp\n", service.tef_dial_dir().c_str(),
                service.tef_dial_dir().c_str());
  if (!service.sandbox_url().empty())
    std::printf("balcao serve: no bank configured: embedded sandbox at %s\n", service.sandbox_url().c_str());
  if (const std::string add = service.first_run_command(); !add.empty()) {
    const std::string where = service.first_run_directory();
    std::printf(
        "balcao serve: no operator yet; to add the first one (a supervisor; the PIN is asked twice), type%s:\n"
        "  %s\n",
        where.empty() ? "" : (" in " + where).c_str(), add.c_str());
  }
}

int RunServe(const std::vector<std::string>& args) {
  service::ServeOptions options;
  if (const char* env = std::getenv("BALCAO_CONFIG"); env != nullptr) options.config_path = env;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& k = args[i];
    if (k == "--help" || k == "-h") return std::fputs(kUsage, stdout), 0;
    if (k == "--insecure-lan") {
      options.insecure_lan = true;
      continue;
    }
    if (i + 1 >= args.size()) return std::fprintf(stderr, "balcao serve: %s needs a value\n%s", k.c_str(), kUsage), 1;
    const std::string& v = args[++i];
    if (k == "--port") {
      if (v.empty() || v.size() > 5 || v.find_first_not_of("0123456789") != std::string::npos || std::stoi(v) > 65535)
        return std::fprintf(stderr, "balcao serve: --port must be a whole number from 0 to 65535\n"), 1;
      options.port = static_cast<unsigned short>(std::stoi(v));
    } else if (k == "--nexo-port") {
      if (v.empty() || v.size() > 5 || v.find_first_not_of("0123456789") != std::string::npos || std::stoi(v) > 65535)
        return std::fprintf(stderr, "balcao serve: --nexo-port must be a whole number from 0 to 65535\n"), 1;
      options.nexo_port = static_cast<unsigned short>(std::stoi(v));
    } else if (k == "--sandbox-autopay") {
      if (v.empty() || v.size() > 4 || v.find_first_not_of("0123456789") != std::string::npos || std::stoi(v) > 3600)
        return std::fprintf(stderr, "balcao serve: --sandbox-autopay must be whole seconds from 0 to 3600\n"), 1;
      options.sandbox_autopay_s = std::stoi(v);
    } else if (k == "--tef-dial-dir") {
      options.tef_dial_dir = v;
    } else if (k == "--tef-dial-method") {
      if (v != "pix" && v != "card" && v != "ask")
        return std::fprintf(stderr, "balcao serve: --tef-dial-method must be pix, card or ask\n"), 1;
      options.tef_dial_method = v;
    } else if (k == "--address") {
      options.address = v;
    } else if (k == "--data-dir") {
      options.data_dir = v;
    } else if (k == "--printer") {
      options.printer = v;
    } else if (k == "--config") {
      options.config_path = v;
    } else {
      return std::fprintf(stderr, "balcao serve: unknown option '%s'\n%s", k.c_str(), kUsage), 1;
    }
  }
  // Card numbers pass through this process's memory: never into a core dump.
  ::prctl(PR_SET_DUMPABLE, 0);
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  const StopSignals stop;  // taken below, on this thread; every thread started later inherits the mask
  ::signal(SIGPIPE, SIG_IGN);
  InstallCrashReport("serve");  // no core dump: the signal and the stack on stderr instead

  auto service = service::Service::Start(options);
  if (!service.ok()) {
    std::fprintf(stderr, "balcao serve: %s\n", service.status().ToString().c_str());
    return service.status().code() == StatusCode::kInvalidArgument ? 1 : 2;
  }
  PrintStarted(**service);
  std::fflush(stdout);
  const int signal_number = stop.Wait();
  logging::Info("serve", "stopping", {{"signal", signal_number}});
  (*service)->Stop();
  return 0;
}

}  // namespace

BALCAO_COMMAND("serve", "the touchscreen service: web app, JSON API, webhooks, offline queue, printer", RunServe);

}  // namespace balcao::terminal
