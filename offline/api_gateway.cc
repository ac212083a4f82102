// BankGateway over api::Client.
#include "offline/api_gateway.h"

namespace balcao::offline {

StatusOr<std::string> ApiGateway::Call(const std::string& method, const std::string& path, const Query& query,
                                       const std::string& body) {
  api::Query q;
  for (const auto& [key, value] : query) q.Add(key, value);
  auto response = client_.Call(method, path, q, body);
  if (!response.ok()) return response.status();
  return std::move(response->body);
}

StatusOr<api::Client> DrainerClient(const std::string& credentials_path, int attempts) {
  BALCAO_ASSIGN_OR_RETURN(api::Config config, api::LoadConfig(credentials_path));
  config.options.retry.max_attempts = std::max(1, attempts);
  config.options.retry.initial_backoff = std::chrono::milliseconds(50);
  config.options.retry.max_backoff = std::chrono::milliseconds(500);
  config.options.connect_timeout = std::chrono::seconds(3);
  config.options.total_timeout = std::chrono::seconds(15);
  return api::Client::Create(config.credentials, config.options);
}

}  // namespace balcao::offline
