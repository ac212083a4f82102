#include "hub/hub_config.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

namespace balcao::hub {
namespace {

using json = nlohmann::json;
using Setter = std::function<Status(const json&, const std::string& name)>;

Status ReadObject(const json& object, const std::string& prefix, const std::map<std::string, Setter>& keys) {
  if (!object.is_object()) return InvalidArgumentError((prefix.empty() ? "the file" : prefix) + ": an object");
  for (const auto& [key, value] : object.items()) {
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    auto setter = keys.find(key);
    if (setter == keys.end()) return InvalidArgumentError(name + ": unknown key");
    BALCAO_RETURN_IF_ERROR(setter->second(value, name));
  }
  return OkStatus();
}

Setter Text(std::string& out) {
  return [&out](const json& v, const std::string& name) {
    if (!v.is_string()) return InvalidArgumentError(name + ": a string");
    out = v.get<std::string>();
    return OkStatus();
  };
}

Setter Path(std::string& out, const std::filesystem::path& base) {
  return [&out, base](const json& v, const std::string& name) {
    if (!v.is_string() || v.get<std::string>().empty()) return InvalidArgumentError(name + ": a file path");
    const std::filesystem::path p(v.get<std::string>());
    out = (p.is_absolute() ? p : base / p).lexically_normal().string();
    return OkStatus();
  };
}

Setter Whole(int& out, int low, int high) {
  return [&out, low, high](const json& v, const std::string& name) {
    if (!v.is_number_integer() || v.get<long long>() < low || v.get<long long>() > high)
      return InvalidArgumentError(name + ": a whole number from " + std::to_string(low) + " to " +
                                  std::to_string(high));
    out = v.get<int>();
    return OkStatus();
  };
}

}  // namespace

Status LoadHubConfig(const std::string& path, HubOptions& options) {
  std::ifstream in(path);
  if (!in) return NotFoundError("--config: cannot read " + path);
  const json root = json::parse(in, nullptr, false, /*ignore_comments=*/true);
  if (root.is_discarded()) return InvalidArgumentError("--config: " + path + " is not JSON");
  const std::filesystem::path base = std::filesystem::absolute(path).parent_path();
  int port = options.port;
  std::string password_file;
  NatsEndpoint& nats = options.nats;
  NatsAuthority& authority = options.authority;
  const std::map<std::string, Setter> nats_keys = {{"url", Text(nats.url)},
                                                   {"user", Text(nats.user)},
                                                   {"password_file", Path(password_file, base)},
                                                   {"ca_file", Path(nats.ca_file, base)},
                                                   {"public_url", Text(authority.public_url)},
                                                   {"auth_file", Path(authority.auth_file, base)},
                                                   {"pid_file", Path(authority.pid_file, base)}};
  const std::map<std::string, Setter> listen_keys = {{"address", Text(options.address)},
                                                     {"port", Whole(port, 0, 65535)}};
  const std::map<std::string, Setter> bank_keys = {{"credentials", Path(options.bank_credentials, base)}};
  auto nested = [](const std::map<std::string, Setter>& keys) -> Setter {
    return [&keys](const json& v, const std::string& name) { return ReadObject(v, name, keys); };
  };
  BALCAO_RETURN_IF_ERROR(ReadObject(root, "",
                                    {{"postgres", Text(options.postgres)},
                                     {"listen", nested(listen_keys)},
                                     {"webhook_url", Text(options.webhook_url)},
                                     {"bank", nested(bank_keys)},
                                     {"replay_window_days", Whole(options.replay_window_days, 1, 365)},
                                     {"nats", nested(nats_keys)}}));
  options.port = static_cast<unsigned short>(port);
  if (!password_file.empty()) {
    std::ifstream secret(password_file);
    if (!secret) return InvalidArgumentError("nats.password_file: cannot read " + password_file);
    std::getline(secret, nats.password);
  }
  if (!nats.user.empty() && nats.password.empty())
    return InvalidArgumentError("nats.password_file: required with nats.user");
  if (authority.auth_file.empty() != authority.pid_file.empty())
    return InvalidArgumentError(
        "nats.auth_file and nats.pid_file: both or neither (the hub rewrites one, signals the other)");
  if (!authority.auth_file.empty() && nats.user.empty())
    return InvalidArgumentError("nats.user: required with nats.auth_file (the hub's own user is kept in it)");
  return OkStatus();
}

}  // namespace balcao::hub
