// `balcao queue` end to end: the real executable on a real store file.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "offline/outbox.h"
#include "tests/offline/test_util.h"
#include "tests/testing/status_matchers.h"

namespace balcao::offline {
namespace {

struct CliRun {
  int code;
  std::string out;
};

CliRun Cli(const std::string& db, const std::string& args) {
  const std::string cmd = std::string(BALCAO_CLI) + " queue " + args + " --db '" + db + "' 2>&1";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf;
  while (std::fgets(buf.data(), buf.size(), pipe) != nullptr) out += buf.data();
  const int status = ::pclose(pipe);
  return {WEXITSTATUS(status), out};
}

OutboxRequest Request(const std::string& key, std::int64_t amount) {
  OutboxRequest r;
  r.key = key;
  r.kind = "invoice.create";
  r.method = "POST";
  r.path = "/v2/invoice";
  r.body = R"({"invoices":[{"amount":)" + std::to_string(amount) + "}]}";
  r.sale_id = "sale-" + key;
  r.amount = amount;
  return r;
}

TEST(QueueCli, ListShowDropRetryMetrics) {
  testing::TempDir dir;
  const std::string db = dir.File("box.db");
  std::int64_t id = 0;
  {
    auto store = std::move(*Store::Open(db));
    Outbox outbox(*store);
    id = *outbox.Enqueue(Request("a", 1250));
    ASSERT_OK(outbox.Enqueue(Request("b", 99)));
  }
  CliRun list = Cli(db, "list");
  EXPECT_EQ(list.code, 0) << list.out;
  EXPECT_NE(list.out.find("invoice.create"), std::string::npos);
  EXPECT_NE(list.out.find("R$ 12,50"), std::string::npos);

  CliRun json_list = Cli(db, "list --json");
  auto parsed = nlohmann::json::parse(json_list.out);
  ASSERT_EQ(parsed.size(), 2u);
  EXPECT_EQ(parsed[1]["key"], "a");
  EXPECT_EQ(parsed[1]["state"], "pending");

  CliRun show = Cli(db, "show a");
  EXPECT_EQ(show.code, 0);
  EXPECT_NE(show.out.find("sale-a"), std::string::npos);
  EXPECT_EQ(Cli(db, "show nope").code, 1);

  CliRun no_reason = Cli(db, "drop " + std::to_string(id));
  EXPECT_EQ(no_reason.code, 1);
  EXPECT_NE(no_reason.out.find("reason"), std::string::npos);
  CliRun drop = Cli(db, "drop " + std::to_string(id) + " --reason 'paid in cash' --operator ana");
  EXPECT_EQ(drop.code, 0) << drop.out;

  auto metrics = nlohmann::json::parse(Cli(db, "metrics --json").out);
  EXPECT_EQ(metrics["depth"], 1);
  EXPECT_EQ(metrics["amountAtRisk"], 99);
  EXPECT_EQ(metrics["dropped"], 1);

  CliRun retry = Cli(db, "retry " + std::to_string(id) + " --reason 'customer came back'");
  EXPECT_EQ(retry.code, 0) << retry.out;
  EXPECT_NE(retry.out.find("pending"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(Cli(db, "metrics --json").out)["depth"], 2);
  EXPECT_EQ(Cli(db, "frobnicate").code, 2);
}

}  // namespace
}  // namespace balcao::offline
