// The service's wiring of the offline queue (docs/offline.md, "Wiring in the service"), end to
// end on a real io_context: the connectivity monitor probes the bank and tells the drainer
// and the driver; the driver reports calls that could not be sent; the drainer's OnSettled
// hands the sale back to the driver (Reconcile, on the driver's thread). The bank's reach is
// switched like a cable: the same sandbox behind a gateway that is either unreachable (a
// closed loopback port) or reachable.
#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "offline/api_gateway.h"
#include "offline/connectivity.h"
#include "tests/checkout/offline_fixture.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::IsOk;
using ::testing::Not;

namespace balcao::checkout::e2e {
namespace {

using namespace std::chrono_literals;

// The store's internet link: the bank behind it is unreachable or reachable.
class Cable final : public offline::BankGateway {
 public:
  Cable(api::Client unreachable, api::Client reachable) : down_(std::move(unreachable)), up_(std::move(reachable)) {}
  void Plug(bool plugged) { plugged_ = plugged; }
  StatusOr<std::string> Call(const std::string& method, const std::string& path, const Query& query,
                             const std::string& body) override {
    return (plugged_ ? up_ : down_).Call(method, path, query, body);
  }

 private:
  offline::ApiGateway down_, up_;
  std::atomic<bool> plugged_{false};
};

// Polls `done` (on the test thread) until it holds or ~`seconds` pass.
bool WaitFor(const std::function<bool()>& done, int seconds = 15) {
  for (int i = 0; i < seconds * 50 && !done(); ++i) std::this_thread::sleep_for(20ms);
  return done();
}

TEST_F(OfflineE2E, MonitorDrainerAndDriverQueueWhileOfflineAndDeliverWhenTheBankIsBack) {
  Restart(/*bank_reachable=*/false);
  const std::string credentials = sandbox().credentials().credentials_path;
  auto drainer_client = offline::DrainerClient(credentials);
  ASSERT_OK(drainer_client);
  Cable cable(UnreachableClient(credentials), *drainer_client);

  boost::asio::io_context io;
  auto guard = boost::asio::make_work_guard(io);
  offline::Drainer drainer(io, *store_, *outbox_, cable, {.poll_interval = 20ms});
  offline::ConnectivityMonitor monitor(
      io, cable, {.online_interval = 100ms, .backoff_initial = 20ms, .backoff_max = 100ms, .failures_to_offline = 2});
  std::atomic<bool> online{true};
  std::mutex mu;
  std::set<std::string> settled;  // sales with an outbox row that reached done/failed/dead
  monitor.Subscribe([&](bool up) {
    online = up;
    drainer.SetOnline(up);
  });
  drainer.OnSettled([&](const offline::OutboxItem& item) {
    std::lock_guard<std::mutex> lock(mu);
    settled.insert(item.request.sale_id);
  });
  driver_->OnNotSent([&] { monitor.ReportNotSent(); });
  std::thread loop([&] { io.run(); });
  monitor.Start();
  drainer.Start();

  // The box does not know yet: a card attempt is tried, is not sent, and the monitor hears it.
  const std::string id = NewSaleId();
  ASSERT_OK(driver_->Open(id, 2750, settings_));
  Sale sale = Fed(id, ChooseMethod{Method::kCard, {}, Now()});
  ASSERT_TRUE(std::holds_alternative<ChoosingMethod>(sale.state)) << StateOf(sale);
  EXPECT_NE(std::get<ChoosingMethod>(sale.state).notice.find("card and Pix need it now"), std::string::npos)
      << std::get<ChoosingMethod>(sale.state).notice;
  ASSERT_TRUE(WaitFor([&] { return !online.load(); })) << "the monitor never switched to offline";
  driver_->SetBankOnline(online);
  auto card = driver_->Feed(id, Retry{Now()});
  ASSERT_THAT(card, Not(IsOk()));
  EXPECT_NE(card.status().message().find("card needs the bank now"), std::string::npos);
  sale = Fed(id, FallbackToInvoice{customer_, Now()});
  ASSERT_TRUE(std::holds_alternative<InvoiceQueued>(sale.state)) << StateOf(sale);
  drainer.Kick();
  EXPECT_EQ(AtBank("invoice", id), 0u);

  // The cable is back: the monitor's probe answers, the drainer sends, OnSettled tells us.
  cable.Plug(true);
  ASSERT_TRUE(WaitFor([&] {
    std::lock_guard<std::mutex> lock(mu);
    return settled.count(id) > 0;
  })) << "the drainer never settled the sale's row";
  EXPECT_TRUE(online.load());
  driver_->SetBankOnline(online);
  sale = *driver_->Reconcile(id);  // what the service posts to the driver's thread
  ASSERT_TRUE(std::holds_alternative<PayLater>(sale.state)) << StateOf(sale);
  EXPECT_EQ(AtBank("invoice", id), 1u);
  EXPECT_EQ(Prints(id, Slip::kInvoiceSlip).size(), 1u);

  drainer.Stop();
  monitor.Stop();
  guard.reset();
  io.stop();
  loop.join();
}

}  // namespace
}  // namespace balcao::checkout::e2e
