// The box's local tools find the box's store from its config file, so an operator on the
// box types `balcao queue list`, not `--db ...` (docs/terminal.md, "Configuration").
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/testing/temp_dir.h"

namespace {

struct CliRun {
  int exit_code = -1;
  std::string output;
};

// `balcao <args>` in `dir` with only `env` naming the box (the caller's BALCAO_* dropped).
CliRun Balcao(const std::string& env, const std::string& args, const std::filesystem::path& dir) {
  const std::string out = (dir / "out.txt").string();
  const std::string clean_env =
      "env -u BALCAO_DB -u BALCAO_CONFIG -u BALCAO_CREDENTIALS -u BALCAO_BANK_URL -u BALCAO_LOG_FILE " + env + " ";
  const int status = std::system(
      ("cd '" + dir.string() + "' && " + clean_env + BALCAO_CLI + " " + args + " > " + out + " 2>&1").c_str());
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

class BoxTools : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir_ / "etc");
    // A relative data_dir: relative to the config file's folder, not to where the tool runs.
    std::ofstream(dir_ / "etc" / "balcao.conf") << "// the box\n{\"data_dir\": \"../state\"}\n";
  }
  balcao::test_util::TempDir tmp_{"box-tools"};
  const std::filesystem::path dir_ = tmp_.path();
};

TEST_F(BoxTools, EveryToolFindsTheStoreOfTheConfigNamedByTheEnvironment) {
  const std::string env = "BALCAO_CONFIG=" + (dir_ / "etc" / "balcao.conf").string();
  std::filesystem::create_directories(dir_ / "state");
  CliRun queue = Balcao(env, "queue list", dir_ / "etc");
  EXPECT_EQ(queue.exit_code, 0) << queue.output;
  EXPECT_TRUE(std::filesystem::exists(dir_ / "state" / "balcao.db")) << queue.output;
  CliRun journal = Balcao(env, "journal verify", dir_);
  EXPECT_EQ(journal.exit_code, 0) << journal.output;
  EXPECT_NE(journal.output.find("chain holds"), std::string::npos) << journal.output;
  CliRun jobs = Balcao(env, "print jobs", dir_);
  EXPECT_EQ(jobs.exit_code, 0) << jobs.output;
  CliRun settled = Balcao(env, "settle --list", dir_);
  EXPECT_EQ(settled.exit_code, 0) << settled.output;
  EXPECT_NE(settled.output.find("no day settled yet"), std::string::npos) << settled.output;
  // --config names the same file; --db still wins over both.
  CliRun flag = Balcao("", "queue metrics --config etc/balcao.conf", dir_);
  EXPECT_EQ(flag.exit_code, 0) << flag.output;
  CliRun db = Balcao(env, "queue list --db " + (dir_ / "other.db").string(), dir_);
  EXPECT_EQ(db.exit_code, 0) << db.output;
  EXPECT_TRUE(std::filesystem::exists(dir_ / "other.db"));
}

TEST_F(BoxTools, WithoutAnyStoreTheErrorSaysWhereToNameOne) {
  if (std::filesystem::exists("/etc/balcao/balcao.conf")) GTEST_SKIP() << "an installed box: its config is the default";
  CliRun queue = Balcao("", "queue list", dir_);
  EXPECT_NE(queue.exit_code, 0) << queue.output;
  EXPECT_NE(queue.output.find("--db: which store?"), std::string::npos) << queue.output;
  EXPECT_NE(queue.output.find("BALCAO_CONFIG"), std::string::npos) << queue.output;
  CliRun missing = Balcao("BALCAO_CONFIG=/nonexistent/balcao.conf", "journal verify", dir_);
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("/nonexistent/balcao.conf"), std::string::npos) << missing.output;
}

}  // namespace
