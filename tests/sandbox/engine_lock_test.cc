// The sandbox engine's store is reached only under the engine's lock (sandbox/internal/
// engine_core.h): its SQLite connection has no locks of its own, and two threads on it at once
// corrupted memory at random (issue 26: a sandbox, or a `balcao serve` embedding one, crashed
// a few milliseconds after it started, while the webhook sender's first poll ran beside
// Sandbox::Start's own reads). Any unguarded use now ends the process at once, every time,
// instead of once in thousands of starts; these tests pin that, and that the locked paths work
// from many threads at once.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <filesystem>
#include <set>
#include <thread>
#include <vector>

#include "api/crypto.h"
#include "sandbox/internal/engine_core.h"
#include "sandbox/sandbox.h"
#include "tests/testing/status_matchers.h"

namespace balcao::sandbox::internal {
namespace {

std::unique_ptr<Engine> OpenEngine() {
  auto engine = Engine::Open(EngineOptions{}, api::PrivateKey::Generate());
  EXPECT_OK(engine);
  return engine.ok() ? std::move(*engine) : nullptr;
}

TEST(SandboxEngineLockDeathTest, TheStoreWithoutTheEnginesLockEndsTheProcessSayingSo) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // the child is a fresh exec of this binary
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  auto unguarded = [&engine] {
    const rlimit no_core{0, 0};  // the expected abort leaves no core dump behind
    ::setrlimit(RLIMIT_CORE, &no_core);
    (void)engine->store();
  };
  EXPECT_DEATH(unguarded(), "the entity store was used without the engine's lock");
}

TEST(SandboxEngineLock, MetadataAndIdsFromManyThreadsAtOnceAreSerialised) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  constexpr int kThreads = 4, kEach = 300;
  std::vector<std::vector<std::string>> ids(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&engine, &ids, t] {
      for (int i = 0; i < kEach; ++i) {
        ids[t].push_back(engine->NewId());
        EXPECT_OK(engine->SetMeta("thread:" + std::to_string(t), std::to_string(i)));
        EXPECT_OK(engine->GetMeta("thread:" + std::to_string((t + 1) % kThreads)));
        EXPECT_OK(engine->DueDeliveries(8));
      }
    });
  for (std::thread& thread : threads) thread.join();
  std::set<std::string> distinct;
  for (const auto& some : ids) distinct.insert(some.begin(), some.end());
  EXPECT_EQ(distinct.size(), static_cast<std::size_t>(kThreads * kEach)) << "an id was given twice";
  for (int t = 0; t < kThreads; ++t) {
    auto last = engine->GetMeta("thread:" + std::to_string(t));
    ASSERT_OK(last);
    EXPECT_EQ(last->value_or(""), std::to_string(kEach - 1));
  }
}

// Whole sandboxes started and stopped: no path of Start reaches the store unguarded (the check
// above would end the test; the seeded start is run by seed_test.cc).
TEST(SandboxEngineLock, SandboxesStartAndStopWithEveryStoreUseGuarded) {
  const std::string dir = ::testing::TempDir() + "balcao-engine-lock-" + std::to_string(::getpid());
  for (int round = 0; round < 20; ++round) {
    SandboxOptions options;
    options.https = false;
    options.data_dir = dir;
    options.db = ":memory:";
    auto started = Sandbox::Start(options);
    ASSERT_OK(started);
    EXPECT_FALSE((*started)->credentials().center_id.empty());
    (*started)->Stop();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace balcao::sandbox::internal
