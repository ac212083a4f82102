// BankGateway over the api client (api/client.h): the signed, curl-based client the
// rest of the service uses. The client never re-sends a write that may have reached
// the bank, which is what the drainer's lookup-before-resend rule relies on.
// Thread-safety: as api::Client (any number of threads).
#pragma once

#include "api/client.h"
#include "offline/bank_gateway.h"

namespace balcao::offline {

class ApiGateway final : public BankGateway {
 public:
  explicit ApiGateway(api::Client client) : client_(std::move(client)) {}
  StatusOr<std::string> Call(const std::string& method, const std::string& path, const Query& query,
                             const std::string& body) override;

 private:
  api::Client client_;
};

// A client for draining: configuration from the environment / credentials file
// (api::LoadConfig), with at most `attempts` tries per call (the drainer does its own
// backoff) and short timeouts, so one slow answer does not hold a lane for long.
StatusOr<api::Client> DrainerClient(const std::string& credentials_path, int attempts = 2);

}  // namespace balcao::offline
