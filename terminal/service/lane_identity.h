// Which lane of which store this box is (docs/stores.md): `store_id` and `terminal_id` of the
// config, or, for a terminal id not configured, one derived once from the host name and kept
// in the data dir (file `terminal-id`), so that a box keeps its id across restarts and
// upgrades. Boxes that share a bank account must have distinct terminal ids within a store;
// the derived one carries a random part, so two boxes installed alike still differ.
// Thread-safety: plain functions (the file is written once, before the service starts).
#pragma once

#include <string>

#include "common/status.h"

namespace balcao::terminal::service {

inline constexpr const char* kDefaultStoreId = "main";
inline constexpr const char* kTerminalIdFileName = "terminal-id";

struct LaneIdentity {
  std::string store_id;
  std::string terminal_id;
  bool terminal_id_derived = false;  // read from (or just written to) the data dir
  std::string root() const;          // checkout::LaneRoot
};

// `store_id` ("" = kDefaultStoreId) and `terminal_id` ("" = the data dir's, made on first use)
// as configured; kInvalidArgument naming the key and the rule (checkout::LaneIdRule).
StatusOr<LaneIdentity> ResolveLaneIdentity(const std::string& store_id, const std::string& terminal_id,
                                           const std::string& data_dir);

// The lane a local tool (`balcao settle`) works for, read without writing anything: the
// config's ids, else its store id (or the default) and the data dir's `terminal-id` file
// (the folder of the store file `store_path`). "" when no terminal id is known yet.
std::string KnownLaneRoot(const std::string& config_path, const std::string& store_path);
// The store id a local tool works for: the config's, else kDefaultStoreId.
std::string KnownStoreId(const std::string& config_path);

// A terminal id made from a host name: its first 16 allowed characters (lowercased; others
// become '-') and 4 random hex digits, e.g. "caixa-03-7f2a".
std::string DeriveTerminalId(const std::string& host_name);

}  // namespace balcao::terminal::service
