#include "tests/terminal/fault_fixture.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace balcao::terminal::testing {

std::uint64_t FaultSeed() {
  const char* given = std::getenv("BALCAO_FAULT_SEED");
  const std::uint64_t seed =
      given != nullptr && *given != '\0' ? std::strtoull(given, nullptr, 10) : std::random_device{}();
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  char self[4096] = {0};
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  std::printf("replay: BALCAO_FAULT_SEED=%llu %s --gtest_filter=%s.%s\n", static_cast<unsigned long long>(seed),
              n > 0 ? self : "balcao_fault_tests", test->test_suite_name(), test->name());
  std::fflush(stdout);
  return seed;
}

std::string WriteConfig(const std::filesystem::path& dir, const Json& config) {
  std::filesystem::create_directories(dir);
  const auto path = dir / "balcao.conf";
  std::ofstream(path) << config.dump(2);
  return path.string();
}

void ExpectBooksBalance(const ServeProcess& serve, const std::map<std::string, long long>& opened,
                        const std::map<std::string, long long>& paid) {
  const Reply day = serve.Get("/api/sales");
  ASSERT_EQ(day.status, 200) << day.body;
  std::map<std::string, int> seen;
  long long collected = 0;
  for (const Json& sale : day.json["sales"]) {
    const std::string id = sale["id"].get<std::string>();
    ++seen[id];
    if (opened.count(id)) {
      EXPECT_EQ(sale["amount"].get<long long>(), opened.at(id)) << sale.dump();
    }
    if (paid.count(id)) {
      EXPECT_EQ(sale["status"], "paid") << sale.dump();
      EXPECT_EQ(sale["collected"].get<long long>(), paid.at(id)) << "paid once: " << sale.dump();
    }
    collected += sale["collected"].get<long long>();
  }
  for (const auto& [id, amount] : opened) EXPECT_EQ(seen[id], 1) << "sale " << id << " answered 201";
  long long expected = 0;
  for (const auto& [id, amount] : paid) expected += amount;
  EXPECT_EQ(collected, expected) << day.body;
  EXPECT_EQ(day.json["totals"]["collected"].get<long long>(), expected) << day.body;
}

double MetricValue(const ServeProcess& serve, const std::string& name) {
  const Reply page = serve.Get("/metrics");
  std::istringstream lines(page.body);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(name + " ", 0) == 0) return std::strtod(line.c_str() + name.size() + 1, nullptr);
  }
  return std::nan("");
}

std::string FaketimeLibrary() {
  // The thread-safe variant: serve has many threads reading the clock.
  for (const char* path : {"/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1",
                           "/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1"})
    if (::access(path, R_OK) == 0) return path;
  return "";
}

}  // namespace balcao::terminal::testing
