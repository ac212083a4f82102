#include "tests/checkout/kill_child.h"

#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "offline/journal.h"
#include "offline/store.h"
#include "tests/checkout/driver_fixture.h"

namespace balcao::checkout::e2e {
namespace {

std::map<std::string, ChildFlow>& Registry() {
  static std::map<std::string, ChildFlow> flows;
  return flows;
}

// The crash hook of the child: each point reached is appended to the progress file (so a
// parent whose child hangs can name the last step), and the k-th kills the process.
Driver::CrashHook KillAtPoint(int kill_at, const std::string& progress_path) {
  const int fd = ::open(progress_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  return [kill_at, fd, calls = 0](const char* point) mutable {
    const std::string line = std::to_string(++calls) + " " + point + "\n";
    if (fd >= 0 && ::write(fd, line.data(), line.size()) < 0) ::_exit(12);
    if (calls == kill_at) ::raise(SIGKILL);
    return false;
  };
}

[[noreturn]] void RunChild(const std::string& spec_path) {
  std::ifstream in(spec_path);
  const nlohmann::json spec = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!spec.is_object()) {
    std::cerr << "kill child: unreadable spec " << spec_path << "\n";
    ::_exit(10);
  }
  const auto flow = Registry().find(spec.value("flow", ""));
  if (flow == Registry().end()) {
    std::cerr << "kill child: no flow named '" << spec.value("flow", "") << "'\n";
    ::_exit(11);
  }
  TestClock clock;
  clock.Restore(spec["clock"]);
  PinnableClock store_clock;
  store_clock.Pin(spec.value("store_clock_pinned", UnixMicros{0}));
  const std::string db = spec["db"].get<std::string>();
  auto store = offline::Store::Open(db, {.clock = &store_clock});
  auto client = api::Client::FromEnvironment(spec["credentials_path"].get<std::string>());
  auto key = api::PrivateKey::FromFile(spec["private_key_path"].get<std::string>());
  if (!store.ok() || !client.ok() || !key.ok()) {
    std::cerr << "kill child: set-up failed\n";
    ::_exit(13);
  }
  offline::Journal journal(**store);
  api::Bank bank(*client);
  Driver driver(api::Bank(*client), journal, clock);
  driver.SetCrashHookForTest(KillAtPoint(spec["kill_at"].get<int>(), spec["progress_path"].get<std::string>()));
  sandbox::testing::Client payer(spec["api_base"].get<std::string>(), spec["access_id"].get<std::string>(), *key);
  const ChildContext context{
      spec["sale_id"].get<std::string>(), spec["params"], SettingsFromJson(spec["settings"]), db, clock, payer, bank};
  flow->second(driver, context);
  std::cout.flush();
  ::_exit(0);
}

}  // namespace

bool RegisterChildFlow(const std::string& name, ChildFlow flow) {
  return Registry().emplace(name, std::move(flow)).second;
}

void RunKillChildIfAsked(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--balcao-kill-child") RunChild(argv[2]);
}

nlohmann::json SettingsToJson(const Settings& s) {
  return {{"max_installments", s.installments.max_count},
          {"min_installment", s.installments.min_installment},
          {"allow_credit", s.allow_credit},
          {"allow_debit", s.allow_debit},
          {"challenge_enabled", s.challenge_enabled},
          {"card_session_expiration_s", s.card_session_expiration_s},
          {"pix_expiration_s", s.pix_expiration_s},
          {"invoice_due_s", s.invoice_due_s},
          {"invoice_expiration_s", s.invoice_expiration_s},
          {"poll_interval_s", s.poll_interval_s},
          {"lookup_retry_s", s.lookup_retry_s},
          {"lane", s.lane}};
}

Settings SettingsFromJson(const nlohmann::json& j) {
  Settings s;
  s.installments = {j.at("max_installments").get<int>(), j.at("min_installment").get<Cents>()};
  s.allow_credit = j.at("allow_credit").get<bool>();
  s.allow_debit = j.at("allow_debit").get<bool>();
  s.challenge_enabled = j.at("challenge_enabled").get<bool>();
  s.card_session_expiration_s = j.at("card_session_expiration_s").get<std::int64_t>();
  s.pix_expiration_s = j.at("pix_expiration_s").get<std::int64_t>();
  s.invoice_due_s = j.at("invoice_due_s").get<std::int64_t>();
  s.invoice_expiration_s = j.at("invoice_expiration_s").get<std::int64_t>();
  s.poll_interval_s = j.at("poll_interval_s").get<std::int64_t>();
  s.lookup_retry_s = j.at("lookup_retry_s").get<std::int64_t>();
  s.lane = j.at("lane").get<std::string>();
  return s;
}

}  // namespace balcao::checkout::e2e
