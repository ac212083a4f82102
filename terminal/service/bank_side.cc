#include "terminal/service/bank_side.h"

#include <cstdlib>

namespace balcao::terminal::service {
namespace {

bool BankConfiguredInEnvironment() {
  for (const char* name : {"BALCAO_CREDENTIALS", "BALCAO_BANK_URL", "BALCAO_ACCESS_ID", "BALCAO_PROJECT_ID",
                           "BALCAO_ORGANIZATION_ID", "BALCAO_PRIVATE_KEY"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') return true;
  }
  return false;
}

}  // namespace

StatusOr<std::unique_ptr<BankSide>> BankSide::Connect(const std::filesystem::path& dir, const ServeConfig& config,
                                                      const api::CallObserver& observe, int autopay_s) {
  std::unique_ptr<BankSide> side(new BankSide());
  if (!BankConfiguredInEnvironment() && config.bank_credentials.empty()) {
    sandbox::SandboxOptions sandbox_options;
    sandbox_options.data_dir = (dir / "sandbox").string();
    sandbox_options.https = false;
    sandbox_options.tick_millis = 100;
    BALCAO_ASSIGN_OR_RETURN(side->sandbox_, sandbox::Sandbox::Start(sandbox_options));
    side->credentials_path_ = side->sandbox_->credentials().credentials_path;
    side->payer_ = std::make_unique<SandboxPayer>(side->sandbox_->port(), *side->clock_, autopay_s);
  } else if (std::getenv("BALCAO_CREDENTIALS") == nullptr) {
    side->credentials_path_ = config.bank_credentials;
  }
  BALCAO_ASSIGN_OR_RETURN(api::Client client, api::Client::FromEnvironment(side->credentials_path_));
  side->base_url_ = side->sandbox_ ? side->sandbox_->credentials().base_url : client.base_url();
  side->bank_ = std::make_unique<api::Bank>(client.WithObserver(observe).WithBankClock(side->clock_));
  side->verifier_ = std::make_unique<api::EventVerifier>([bank = *side->bank_] { return bank.FetchPublicKeyPem(); });
  return side;
}

BankSide::~BankSide() { StopSandbox(); }

void BankSide::StopSandbox() {
  if (sandbox_) sandbox_->Stop();
}

}  // namespace balcao::terminal::service
