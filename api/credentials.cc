#include "api/credentials.h"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "api/internal/json_codec.h"

namespace balcao::api {

Credentials::Credentials(std::string access_id, PrivateKey key)
    : access_id_(std::move(access_id)), key_(std::make_shared<const PrivateKey>(std::move(key))) {}

Credentials Credentials::Project(std::string project_id, PrivateKey key) {
  return Credentials("project/" + project_id, std::move(key));
}

Credentials Credentials::Organization(std::string organization_id, PrivateKey key, std::string workspace_id) {
  std::string id = "organization/" + organization_id;
  if (!workspace_id.empty()) id += "/workspace/" + workspace_id;
  Credentials c(std::move(id), std::move(key));
  c.organization_id_ = std::move(organization_id);
  return c;
}

namespace {

bool IsIdText(std::string_view s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_'))
      return false;
  return true;
}

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : std::string();
}

// The first of `keys` present in the object as a non-empty string (or number).
std::string Pick(const nlohmann::json& j, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    auto it = j.find(k);
    if (it == j.end()) continue;
    if (it->is_string() && !it->get<std::string>().empty()) return it->get<std::string>();
    if (it->is_number_integer()) return std::to_string(it->get<std::int64_t>());
  }
  return {};
}

std::string DirOf(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

std::string Resolve(const std::string& dir, const std::string& path) {
  if (path.empty() || path.front() == '/') return path;
  return dir + "/" + path;
}

}  // namespace

StatusOr<Credentials> Credentials::FromAccessId(std::string_view access_id, PrivateKey key) {
  const auto bad = InvalidArgumentError("invalid access id '" + std::string(access_id) +
                                        "': expected project/<id>, organization/<id> or "
                                        "organization/<id>/workspace/<id>");
  std::vector<std::string_view> parts;
  std::string_view rest = access_id;
  while (true) {
    auto slash = rest.find('/');
    parts.push_back(rest.substr(0, slash));
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  if (parts.size() == 2 && parts[0] == "project" && IsIdText(parts[1]))
    return Project(std::string(parts[1]), std::move(key));
  if (parts.size() == 2 && parts[0] == "organization" && IsIdText(parts[1]))
    return Organization(std::string(parts[1]), std::move(key));
  if (parts.size() == 4 && parts[0] == "organization" && IsIdText(parts[1]) && parts[2] == "workspace" &&
      IsIdText(parts[3]))
    return Organization(std::string(parts[1]), std::move(key), std::string(parts[3]));
  return bad;
}

StatusOr<Credentials> Credentials::InWorkspace(std::string workspace_id) const {
  if (organization_id_.empty())
    return FailedPreconditionError("only organization credentials can act in a workspace (have " + access_id_ + ")");
  if (!IsIdText(workspace_id)) return InvalidArgumentError("invalid workspace id '" + workspace_id + "'");
  return Organization(organization_id_, *key_, std::move(workspace_id));
}

StatusOr<Config> LoadConfig(const std::string& credentials_path) {
  // What the credentials file says (all optional).
  std::string file_access_id, file_key, file_url, file_ca, file_env;
  const std::string path = !credentials_path.empty() ? credentials_path : Env("BALCAO_CREDENTIALS");
  if (!path.empty()) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return NotFoundError("cannot read credentials file '" + path + "'");
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json j;
    BALCAO_RETURN_IF_ERROR(internal::ParseUserJson(text.str(), path, j));
    if (!j.is_object()) return InvalidArgumentError("credentials file '" + path + "': expected a JSON object");
    const std::string dir = DirOf(path);
    const std::string project = Pick(j, {"projectId", "project_id", "project"});
    const std::string org = Pick(j, {"organizationId", "organization_id", "organization"});
    const std::string ws = Pick(j, {"workspaceId", "workspace_id"});
    file_access_id = Pick(j, {"accessId", "access_id"});
    if (file_access_id.empty() && !project.empty()) file_access_id = "project/" + project;
    if (file_access_id.empty() && !org.empty())
      file_access_id = "organization/" + org + (ws.empty() ? "" : "/workspace/" + ws);
    std::string key = project.empty() || file_access_id.rfind("organization/", 0) == 0
                          ? Pick(j, {"organizationPrivateKey", "privateKeyPath", "privateKey", "keyPath"})
                          : Pick(j, {"projectPrivateKey", "privateKeyPath", "privateKey", "keyPath"});
    file_key = key.rfind("-----BEGIN", 0) == 0 ? key : Resolve(dir, key);
    file_ca = Resolve(dir, Pick(j, {"caFile", "caPath", "certificate", "certificatePath", "certPath"}));
    // Prefer https when a trust anchor for it is known; http is loopback-only anyway.
    file_url = !file_ca.empty() ? Pick(j, {"httpsUrl", "baseUrl", "url", "httpUrl"})
                                : Pick(j, {"baseUrl", "url", "httpUrl", "httpsUrl"});
    file_env = Pick(j, {"environment"});
  }

  std::string access_id = Env("BALCAO_ACCESS_ID");
  if (access_id.empty() && !Env("BALCAO_PROJECT_ID").empty()) access_id = "project/" + Env("BALCAO_PROJECT_ID");
  if (access_id.empty() && !Env("BALCAO_ORGANIZATION_ID").empty()) {
    access_id = "organization/" + Env("BALCAO_ORGANIZATION_ID");
    if (!Env("BALCAO_WORKSPACE_ID").empty()) access_id += "/workspace/" + Env("BALCAO_WORKSPACE_ID");
  }
  if (access_id.empty()) access_id = file_access_id;
  if (access_id.empty())
    return FailedPreconditionError(
        "no bank credentials: set BALCAO_ACCESS_ID (or BALCAO_PROJECT_ID / BALCAO_ORGANIZATION_ID) and "
        "BALCAO_PRIVATE_KEY, or point BALCAO_CREDENTIALS at a credentials.json");
  std::string key_source = Env("BALCAO_PRIVATE_KEY");
  if (key_source.empty()) key_source = file_key;
  if (key_source.empty())
    return FailedPreconditionError("no private key: set BALCAO_PRIVATE_KEY to the path of the PEM file for " +
                                   access_id);
  auto key =
      key_source.rfind("-----BEGIN", 0) == 0 ? PrivateKey::FromPem(key_source) : PrivateKey::FromFile(key_source);
  if (!key.ok()) return key.status();
  auto credentials = Credentials::FromAccessId(access_id, *std::move(key));
  if (!credentials.ok()) return credentials.status();

  ClientOptions options;
  options.base_url = !Env("BALCAO_BANK_URL").empty() ? Env("BALCAO_BANK_URL") : file_url;
  options.ca_file = !Env("BALCAO_CA_FILE").empty() ? Env("BALCAO_CA_FILE") : file_ca;
  std::string env = !Env("BALCAO_ENVIRONMENT").empty() ? Env("BALCAO_ENVIRONMENT") : file_env;
  if (env == "production") {
    options.environment = Environment::kProduction;
  } else if (!env.empty() && env != "sandbox") {
    return InvalidArgumentError("BALCAO_ENVIRONMENT must be sandbox or production, got '" + env + "'");
  }
  if (!Env("BALCAO_LANGUAGE").empty()) options.language = Env("BALCAO_LANGUAGE");
  return Config{*std::move(credentials), std::move(options)};
}

}  // namespace balcao::api
