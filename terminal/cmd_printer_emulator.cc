// `balcao printer-emulator`: the virtual ESC/POS printer on TCP. Each job (split at cuts or
// at connection close) becomes DIR/job-NNNNNN.{txt,png,json}. Runs until SIGINT/SIGTERM.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "printer/emulator.h"
#include "printer/profile.h"
#include "terminal/command.h"
#include "terminal/internal/stop_signals.h"

namespace balcao::terminal {
namespace {

constexpr const char* kUsage =
    "usage: balcao printer-emulator --out DIR [--port 9100] [--address 127.0.0.1] [--profile 80mm]\n"
    "                               [--status ok|paper-out|cover-open|offline] [--no-png]\n"
    "Port 0 picks a free port; the bound address is printed on stdout.\n";

int RunEmulator(const std::vector<std::string>& args) {
  printer::EmulatorOptions o;
  std::string profile = "80mm", status = "ok";
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (a == "--no-png") {
      o.write_png = false;
      continue;
    }
    if (i + 1 >= args.size()) {
      std::fprintf(stderr, "balcao printer-emulator: %s needs a value\n%s", a.c_str(), kUsage);
      return 2;
    }
    const std::string& v = args[++i];
    if (a == "--out") {
      o.out_dir = v;
    } else if (a == "--port") {
      if (v.empty() || v.size() > 5 || v.find_first_not_of("0123456789") != std::string::npos || std::stoi(v) > 65535) {
        std::fprintf(stderr, "balcao printer-emulator: --port must be 0-65535\n");
        return 1;
      }
      o.port = static_cast<unsigned short>(std::stoi(v));
    } else if (a == "--address") {
      o.address = v;
    } else if (a == "--profile") {
      profile = v;
    } else if (a == "--status") {
      status = v;
    } else {
      std::fprintf(stderr, "balcao printer-emulator: unknown option %s\n%s", a.c_str(), kUsage);
      return 2;
    }
  }
  if (o.out_dir.empty()) {
    std::fprintf(stderr, "balcao printer-emulator: --out DIR is required\n%s", kUsage);
    return 1;
  }
  const printer::PrinterProfile* p = printer::FindProfile(profile);
  if (!p) {
    std::fprintf(stderr, "balcao printer-emulator: unknown profile '%s'\n", profile.c_str());
    return 1;
  }
  o.interpreter = printer::InterpreterOptions::ForProfile(*p);
  printer::PrinterState state;
  if (status == "paper-out") {
    state.paper_out = true;
  } else if (status == "cover-open") {
    state.cover_open = true;
  } else if (status == "offline") {
    state.offline = true;
  } else if (status != "ok") {
    std::fprintf(stderr, "balcao printer-emulator: --status must be ok, paper-out, cover-open or offline\n");
    return 1;
  }
  const StopSignals stop;  // before the server thread starts
  printer::VirtualPrinterServer server(o);
  server.set_state(state);
  StatusOr<unsigned short> port = server.Start();
  if (!port.ok()) {
    std::fprintf(stderr, "balcao printer-emulator: %s\n", port.status().message().c_str());
    return 2;
  }
  std::printf("virtual printer (%s) listening on %s:%u, jobs in %s\n", p->name.c_str(), o.address.c_str(), *port,
              o.out_dir.c_str());
  std::fflush(stdout);
  stop.Wait();
  server.Stop();
  std::printf("stopped after %d job(s)\n", server.jobs_written());
  return 0;
}

}  // namespace

BALCAO_COMMAND("printer-emulator", "virtual ESC/POS printer on TCP: writes each job as .txt/.png/.json", RunEmulator);

}  // namespace balcao::terminal
