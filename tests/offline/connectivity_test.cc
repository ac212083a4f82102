// The connectivity monitor against a bank whose reachability the test switches:
// offline after the configured failures, back online at the first answer, subscribers
// told once per change, a 4xx counts as reachable, probes back off while offline.
#include "offline/connectivity.h"

#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "tests/offline/test_util.h"

namespace balcao::offline {
namespace {

class SwitchableBank : public BankGateway {
 public:
  enum Mode { kUp, kDown, kServerError, kRefusing };
  std::atomic<Mode> mode{kUp};
  std::atomic<int> calls{0};
  StatusOr<std::string> Call(const std::string& method, const std::string& path, const Query&,
                             const std::string&) override {
    ++calls;
    EXPECT_EQ(method, "GET");
    EXPECT_EQ(path, "/v2/balance");
    switch (mode.load()) {
      case kUp:
        return std::string(R"({"balances":[{"amount":0}]})");
      case kDown:
        return Status(StatusCode::kUnavailable, "connect refused", {0, Delivery::kNotSent, {}});
      case kServerError:
        return Status(StatusCode::kInternal, "500", {500, Delivery::kAnswered, {}});
      case kRefusing:
        return Status(StatusCode::kFailedPrecondition, "invalidCredentials",
                      {400, Delivery::kAnswered, {{"invalidCredentials", "bad key"}}});
    }
    return InternalError("unreachable");
  }
};

class ConnectivityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    runner_ = std::thread([this] { io_.run(); });
  }
  void TearDown() override {
    guard_.reset();
    io_.stop();
    runner_.join();
  }
  // Waits (bounded) until `pred` holds; the assertion is on the state, not on time.
  template <typename Pred>
  bool Eventually(Pred pred) {
    for (int i = 0; i < 2000 && !pred(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return pred();
  }

  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_ = boost::asio::make_work_guard(io_);
  std::thread runner_;
  SwitchableBank bank_;
};

ConnectivityOptions Fast() {
  ConnectivityOptions o;
  o.online_interval = std::chrono::milliseconds(10);
  o.backoff_initial = std::chrono::milliseconds(5);
  o.backoff_max = std::chrono::milliseconds(40);
  o.failures_to_offline = 2;
  return o;
}

TEST_F(ConnectivityTest, SwitchesOfflineAndBackAndTellsSubscribers) {
  testing::TempDir dir;
  testing::ScopedLogFile log(dir.File("balcao.log"));
  ConnectivityMonitor monitor(io_, bank_, Fast());
  std::mutex mu;
  std::vector<bool> changes;
  monitor.Subscribe([&](bool online) {
    std::lock_guard<std::mutex> lock(mu);
    changes.push_back(online);
  });
  monitor.Start();
  ASSERT_TRUE(Eventually([&] { return monitor.probes() >= 2; }));
  EXPECT_TRUE(monitor.online());
  bank_.mode = SwitchableBank::kDown;
  ASSERT_TRUE(Eventually([&] { return !monitor.online(); }));
  bank_.mode = SwitchableBank::kServerError;  // a 500 is not "reachable"
  const int before = monitor.probes();
  ASSERT_TRUE(Eventually([&] { return monitor.probes() >= before + 3; }));
  EXPECT_FALSE(monitor.online());
  bank_.mode = SwitchableBank::kRefusing;  // the bank answers, even if it says no
  ASSERT_TRUE(Eventually([&] { return monitor.online(); }));
  // Listeners run after the switch is logged, on the io thread: wait for them.
  ASSERT_TRUE(Eventually([&] {
    std::lock_guard<std::mutex> lock(mu);
    return changes.size() >= 2;
  }));
  monitor.Stop();
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_EQ(changes, (std::vector<bool>{false, true}));
  // The operator's trail: one record per switch, the outage with what the probe saw.
  const std::string trail = testing::ReadBytes(dir.File("balcao.log"));
  const auto offline = trail.find(
      "WARN connectivity: offline: the bank does not answer probe=/v2/balance failures=2 "
      "error=\"UNAVAILABLE: connect refused\"");
  const auto online = trail.find("INFO connectivity: online: the bank answers probe=/v2/balance");
  ASSERT_NE(offline, std::string::npos) << trail;
  ASSERT_NE(online, std::string::npos) << trail;
  EXPECT_LT(offline, online);
  for (const std::string what : {"connectivity: offline:", "connectivity: online:"})
    EXPECT_EQ(trail.find(what), trail.rfind(what)) << "one record per switch: " << what;
}

TEST_F(ConnectivityTest, OneFailureIsNotAnOutageAndUnsubscribeWorks) {
  ConnectivityOptions o = Fast();
  o.failures_to_offline = 1000;
  ConnectivityMonitor monitor(io_, bank_, o);
  std::atomic<int> calls{0};
  const int id = monitor.Subscribe([&](bool) { ++calls; });
  monitor.Unsubscribe(id);
  bank_.mode = SwitchableBank::kDown;
  monitor.Start();
  ASSERT_TRUE(Eventually([&] { return monitor.probes() >= 3; }));
  EXPECT_TRUE(monitor.online());
  monitor.Stop();
  EXPECT_EQ(calls.load(), 0);
}

TEST_F(ConnectivityTest, ReportNotSentProbesAtOnce) {
  ConnectivityOptions o = Fast();
  o.online_interval = std::chrono::hours(1);  // no scheduled probe after the first
  ConnectivityMonitor monitor(io_, bank_, o);
  monitor.Start();
  ASSERT_TRUE(Eventually([&] { return monitor.probes() == 1 && bank_.calls == 1; }));
  monitor.ReportNotSent();
  ASSERT_TRUE(Eventually([&] { return bank_.calls == 2; }));
  monitor.Stop();
}

}  // namespace
}  // namespace balcao::offline
