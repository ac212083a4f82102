// The sandbox's per-request latency (sandbox/latency.h): what --latency accepts, and that a
// bank API answer really waits that long on the wire while the simulation API does not.
// Lower bounds only: the host's load can make anything slower, never faster.
#include <chrono>

#include "tests/sandbox/sandbox_client.h"

namespace balcao::sandbox::testing {
namespace {

using std::chrono::milliseconds;

TEST(LatencyParse, AcceptsFixedAndRandomDelays) {
  auto fixed = ParseLatency("50ms");
  ASSERT_TRUE(fixed.ok()) << fixed.status().ToString();
  EXPECT_EQ(fixed->base, milliseconds(50));
  EXPECT_EQ(fixed->jitter, milliseconds(0));
  EXPECT_EQ(fixed->ToString(), "50ms");

  auto random = ParseLatency("60±20ms");
  ASSERT_TRUE(random.ok()) << random.status().ToString();
  EXPECT_EQ(random->base, milliseconds(60));
  EXPECT_EQ(random->jitter, milliseconds(20));
  EXPECT_EQ(random->ToString(), "60±20ms");

  EXPECT_EQ(ParseLatency("60+-20ms")->jitter, milliseconds(20));
  EXPECT_EQ(ParseLatency("60ms±20ms")->base, milliseconds(60));
  EXPECT_EQ(ParseLatency("1s")->base, milliseconds(1000));
  EXPECT_EQ(ParseLatency("75")->base, milliseconds(75));
  EXPECT_FALSE(ParseLatency("0")->enabled());
}

TEST(LatencyParse, RefusesWhatIsNotADelayNamingTheRule) {
  for (const char* bad : {"", "ms", "fast", "-5ms", "50us", "20±30ms", "61s", "50ms±", "1.5s", "50ms 20"}) {
    auto parsed = ParseLatency(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(parsed.status().message().find("60±20ms"), std::string::npos) << parsed.status().message();
  }
}

TEST(LatencyParse, RandomDelaysStayInTheirRangeAndVary) {
  auto latency = ParseLatency("60±20ms");
  ASSERT_TRUE(latency.ok());
  milliseconds low{1000}, high{0};
  for (int i = 0; i < 2000; ++i) {
    const milliseconds d = latency->Draw();
    ASSERT_GE(d, milliseconds(40));
    ASSERT_LE(d, milliseconds(80));
    low = std::min(low, d);
    high = std::max(high, d);
  }
  EXPECT_LT(low, milliseconds(45));
  EXPECT_GT(high, milliseconds(75));
}

TEST(SandboxLatency, BankAnswersWaitAndTheSimulationApiDoesNot) {
  SandboxOptions options;
  options.db = ":memory:";
  options.https = false;
  options.latency = *ParseLatency("400ms");
  auto started = Sandbox::Start(options);
  ASSERT_TRUE(started.ok()) << started.status().ToString();
  Sandbox& sb = **started;
  Client client("http://127.0.0.1:" + std::to_string(sb.port()), "project/" + sb.credentials().project_id,
                *api::PrivateKey::FromPem(sb.credentials().project_private_key_pem));
  const auto timed = [](auto&& call) {
    const auto start = std::chrono::steady_clock::now();
    Reply reply = call();
    return std::make_pair(reply, std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - start));
  };
  for (int i = 0; i < 2; ++i) {  // every request, on a kept-alive connection too
    auto [reply, took] = timed([&] { return client.Get("/v2/balance"); });
    EXPECT_EQ(reply.status, 200) << reply.body;
    EXPECT_GE(took, milliseconds(400));
  }
  auto [refused, refused_took] = timed([&] { return client.Get("/v2/invoice?limit=500"); });
  EXPECT_EQ(refused.status, 400);  // a refusal comes back as late as an answer
  EXPECT_GE(refused_took, milliseconds(400));

  // The simulation API answers at once: three in a row take less than one delayed answer.
  auto [sim, sim_took] = timed([&] {
    Reply last;
    for (int i = 0; i < 3; ++i) last = client.Raw("GET", "/sandbox/clock");
    return last;
  });
  EXPECT_EQ(sim.status, 200) << sim.body;
  EXPECT_LT(sim_took, milliseconds(400));
}

}  // namespace
}  // namespace balcao::sandbox::testing
