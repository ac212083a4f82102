// Who signs the requests: a project, an organization, or an organization acting in one of
// its workspaces (docs/wire.md, "Signing": Access-Id "project/<id>", "organization/<id>",
// "organization/<id>/workspace/<wid>"), with its secp256k1 private key.
// LoadConfig() reads them, with the bank URL, from the environment and/or the
// credentials.json the local sandbox writes. Thread-safety: immutable values.
#pragma once

#include <memory>
#include <string>

#include "api/crypto.h"
#include "api/options.h"
#include "common/status.h"

namespace balcao::api {

class Credentials {
 public:
  static Credentials Project(std::string project_id, PrivateKey key);
  static Credentials Organization(std::string organization_id, PrivateKey key, std::string workspace_id = {});
  // "project/1", "organization/2" or "organization/2/workspace/3"; anything else is
  // kInvalidArgument naming the expected shapes.
  static StatusOr<Credentials> FromAccessId(std::string_view access_id, PrivateKey key);

  // The same organization acting in `workspace_id` (kFailedPrecondition for a project).
  StatusOr<Credentials> InWorkspace(std::string workspace_id) const;

  const std::string& access_id() const { return access_id_; }
  const PrivateKey& key() const { return *key_; }

 private:
  Credentials(std::string access_id, PrivateKey key);
  std::string access_id_;
  std::string organization_id_;  // empty for a project
  std::shared_ptr<const PrivateKey> key_;
};

// Credentials plus options, as read by LoadConfig.
struct Config {
  Credentials credentials;
  ClientOptions options;
};

// Builds a Config, each item taken from the first place that has it:
//   1. environment: BALCAO_BANK_URL (base URL), BALCAO_ENVIRONMENT (sandbox|production),
//      BALCAO_ACCESS_ID or BALCAO_PROJECT_ID / BALCAO_ORGANIZATION_ID [+ BALCAO_WORKSPACE_ID],
//      BALCAO_PRIVATE_KEY (path of the PEM), BALCAO_LANGUAGE, BALCAO_CA_FILE;
//   2. the credentials file: `credentials_path`, else $BALCAO_CREDENTIALS. Keys (tolerant):
//      projectId, organizationId, workspaceId, accessId, privateKeyPath | privateKey |
//      projectPrivateKey | organizationPrivateKey (a path relative to the file, or PEM text),
//      baseUrl | httpUrl | httpsUrl | url, caFile | caPath | certificate.
//      A project id wins over an organization id when both are present.
// Errors name the missing item and where it was looked for.
StatusOr<Config> LoadConfig(const std::string& credentials_path = {});

}  // namespace balcao::api
