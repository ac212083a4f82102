// The hub's config file (JSON; /etc/balcao/hub.json when installed), read by every `balcao hub`
// subcommand, so serve, enroll, revoke and status agree on PostgreSQL and NATS. Every key is
// optional here; a key of the wrong type is refused naming it, an unknown key too. Relative
// paths are relative to the file's folder. docs/hub.md, "Configuration".
#pragma once

#include <string>

#include "common/status.h"
#include "hub/hub.h"

namespace balcao::hub {

inline constexpr const char* kInstalledHubConfig = "/etc/balcao/hub.json";

// {"postgres", "listen": {"address", "port"}, "webhook_url", "bank": {"credentials"},
//  "replay_window_days", "nats": {"url", "user", "password_file", "ca_file", "public_url",
//  "auth_file", "pid_file"}} into `options` (the password read from its file).
Status LoadHubConfig(const std::string& path, HubOptions& options);

}  // namespace balcao::hub
