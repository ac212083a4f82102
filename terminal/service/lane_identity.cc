#include "terminal/service/lane_identity.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "checkout/types.h"
#include "terminal/service/config.h"

namespace balcao::terminal::service {

std::string LaneIdentity::root() const { return checkout::LaneRoot(store_id, terminal_id); }

std::string DeriveTerminalId(const std::string& host_name) {
  std::string base;
  for (char c : host_name) {
    if (base.size() == 16) break;
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    const bool allowed = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (allowed || !base.empty()) base += allowed ? c : '-';
  }
  while (!base.empty() && base.back() == '-') base.pop_back();
  if (base.empty()) base = "lane";
  std::random_device random;
  char suffix[8];
  std::snprintf(suffix, sizeof suffix, "-%04x", static_cast<unsigned>(random() & 0xffff));
  return base + suffix;
}

StatusOr<LaneIdentity> ResolveLaneIdentity(const std::string& store_id, const std::string& terminal_id,
                                           const std::string& data_dir) {
  LaneIdentity lane;
  lane.store_id = store_id.empty() ? kDefaultStoreId : store_id;
  if (std::string rule = checkout::LaneIdRule(lane.store_id); !rule.empty())
    return InvalidArgumentError("store_id: " + rule);
  if (!terminal_id.empty()) {
    if (std::string rule = checkout::LaneIdRule(terminal_id); !rule.empty())
      return InvalidArgumentError("terminal_id: " + rule);
    lane.terminal_id = terminal_id;
    return lane;
  }
  lane.terminal_id_derived = true;
  const std::filesystem::path file = std::filesystem::path(data_dir) / kTerminalIdFileName;
  if (std::ifstream in(file); in) {
    std::getline(in, lane.terminal_id);
    if (std::string rule = checkout::LaneIdRule(lane.terminal_id); !rule.empty())
      return FailedPreconditionError(file.string() + ": the stored terminal id must be " + rule);
    return lane;
  }
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  lane.terminal_id = DeriveTerminalId(host);
  const std::filesystem::path partial = file.string() + ".new";
  {
    std::ofstream out(partial, std::ios::trunc);
    out << lane.terminal_id << "\n";
    out.flush();
    if (!out) return FailedPreconditionError("cannot write " + partial.string());
  }
  std::error_code ec;
  std::filesystem::rename(partial, file, ec);  // whole or absent, never half a name
  if (ec) return FailedPreconditionError("cannot write " + file.string() + ": " + ec.message());
  return lane;
}

std::string KnownStoreId(const std::string& config_path) {
  if (config_path.empty()) return kDefaultStoreId;
  auto config = LoadServeConfig(config_path);
  return config.ok() && !config->store_id.empty() ? config->store_id : kDefaultStoreId;
}

std::string KnownLaneRoot(const std::string& config_path, const std::string& store_path) {
  std::string terminal;
  if (!config_path.empty()) {
    if (auto config = LoadServeConfig(config_path); config.ok()) terminal = config->terminal_id;
  }
  if (terminal.empty()) {
    std::ifstream in(std::filesystem::path(store_path).parent_path() / kTerminalIdFileName);
    if (in) std::getline(in, terminal);
  }
  if (terminal.empty() || !checkout::LaneIdRule(terminal).empty()) return "";
  return checkout::LaneRoot(KnownStoreId(config_path), terminal);
}

}  // namespace balcao::terminal::service
