#include "terminal/service/bank_reach.h"

namespace balcao::terminal::service {

StatusOr<std::unique_ptr<BankReach>> BankReach::Make(boost::asio::io_context& io, offline::Store& store,
                                                     offline::Outbox& outbox, const std::string& credentials_path,
                                                     const api::CallObserver& observe,
                                                     const std::shared_ptr<api::BankClock>& clock,
                                                     const offline::ConnectivityOptions& connectivity) {
  BALCAO_ASSIGN_OR_RETURN(api::Client drainer_client, offline::DrainerClient(credentials_path));
  std::unique_ptr<BankReach> reach(new BankReach());
  reach->gateway_ = std::make_unique<offline::ApiGateway>(drainer_client.WithObserver(observe).WithBankClock(clock));
  reach->drainer_ = std::make_unique<offline::Drainer>(io, store, outbox, *reach->gateway_);
  reach->monitor_ = std::make_unique<offline::ConnectivityMonitor>(io, *reach->gateway_, connectivity);
  return reach;
}

void BankReach::Start() {
  drainer_->Start();
  monitor_->Start();
}

void BankReach::Stop() {
  drainer_->Stop();
  monitor_->Stop();
}

}  // namespace balcao::terminal::service
