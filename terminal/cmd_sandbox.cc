// `balcao sandbox`: runs the local bank sandbox until interrupted (docs/sandbox.md).

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sandbox/sandbox.h"
#include "terminal/command.h"
#include "terminal/internal/stop_signals.h"

namespace balcao::terminal {
namespace {

constexpr const char* kUsage =
    "usage: balcao sandbox [--port N] [--https-port N] [--no-https] [--data-dir DIR]\n"
    "                      [--db FILE|:memory:] [--access-time-window SECONDS]\n"
    "                      [--seed N | --no-seed] [--latency 50ms|60±20ms]\n"
    "Serves the bank API v2 on 127.0.0.1 (HTTP and HTTPS) with a simulation API under\n"
    "/sandbox/. First start writes keys and credentials.json into the data dir\n"
    "(default ./sandbox-data) and, on a new database, 60 days of history of the demo\n"
    "account made from seed N (default 1; --no-seed: an empty account). --latency holds\n"
    "every bank API answer that long (a fixed delay, or uniformly random within ±), like\n"
    "a bank across the internet.\n";

bool ParsePort(const std::string& text, unsigned short& out) {
  char* end = nullptr;
  long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 0 || v > 65535) return false;
  out = static_cast<unsigned short>(v);
  return true;
}

int RunSandbox(const std::vector<std::string>& args) {
  sandbox::SandboxOptions options;
  options.data_dir = "sandbox-data";
  options.seed = 1;  // the CLI's account has a history; the library's stays empty unless asked
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string* { return i + 1 < args.size() ? &args[++i] : nullptr; };
    const std::string* v = nullptr;
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--no-https") {
      options.https = false;
    } else if ((a == "--port" || a == "--https-port") && (v = value())) {
      if (!ParsePort(*v, a == "--port" ? options.port : options.https_port)) {
        std::fprintf(stderr, "balcao sandbox: %s needs a port number 0-65535, got '%s'\n", a.c_str(), v->c_str());
        return 2;
      }
    } else if (a == "--data-dir" && (v = value())) {
      options.data_dir = *v;
    } else if (a == "--db" && (v = value())) {
      options.db = *v;
    } else if (a == "--no-seed") {
      options.seed.reset();
    } else if (a == "--seed" && (v = value())) {
      char* end = nullptr;
      const unsigned long long n = std::strtoull(v->c_str(), &end, 10);
      if (v->empty() || *end != '\0' || (*v)[0] == '-') {
        std::fprintf(stderr, "balcao sandbox: --seed needs a non-negative integer, got '%s'\n", v->c_str());
        return 2;
      }
      options.seed = n;
    } else if (a == "--latency" && (v = value())) {
      auto latency = sandbox::ParseLatency(*v);
      if (!latency.ok()) {
        std::fprintf(stderr, "balcao sandbox: --latency: %s\n", latency.status().message().c_str());
        return 2;
      }
      options.latency = *latency;
    } else if (a == "--access-time-window" && (v = value())) {
      options.access_time_window_seconds = std::atoi(v->c_str());
    } else {
      std::fprintf(stderr, "balcao sandbox: unknown or incomplete option '%s'\n%s", a.c_str(), kUsage);
      return 2;
    }
  }
  const StopSignals stop;  // before the sandbox's threads start
  auto started = sandbox::Sandbox::Start(options);
  if (!started.ok()) {
    std::fprintf(stderr, "balcao sandbox: %s\n", started.status().ToString().c_str());
    return 2;
  }
  auto& sb = **started;
  const auto& c = sb.credentials();
  std::printf(
      "balcao sandbox listening\n  http:  %s\n  https: %s\n  simulation: http://127.0.0.1:%u/sandbox\n"
      "  credentials: %s\n  project: %s  organization: %s  workspace: %s\n",
      c.base_url.c_str(), c.https_url.empty() ? "(off)" : c.https_url.c_str(), sb.port(), c.credentials_path.c_str(),
      c.project_id.c_str(), c.organization_id.c_str(), c.workspace_id.c_str());
  if (!sb.seed_report().empty()) std::printf("  %s\n", sb.seed_report().c_str());
  if (options.latency.enabled()) std::printf("  latency: %s per bank API answer\n", options.latency.ToString().c_str());
  std::fflush(stdout);
  stop.Wait();
  sb.Stop();
  return 0;
}

}  // namespace

BALCAO_COMMAND("sandbox", "run the local bank sandbox (API v2 + simulation API)", RunSandbox);

}  // namespace balcao::terminal
