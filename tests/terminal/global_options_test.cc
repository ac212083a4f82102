// The executable's global options: --log-file sends the operator log to a file (mode
// 0600) and --log-level filters it; bad values are refused naming the option.
#include <gtest/gtest.h>
#include <sys/stat.h>
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

CliRun Balcao(const std::string& args, const std::filesystem::path& dir) {
  const std::string out = (dir / "out.txt").string();
  // No bank and no log settings from the caller's environment: the embedded sandbox, defaults.
  const std::string clean_env =
      "env -u BALCAO_BANK_URL -u BALCAO_CREDENTIALS -u BALCAO_ACCESS_ID -u BALCAO_PROJECT_ID "
      "-u BALCAO_ORGANIZATION_ID -u BALCAO_LOG_FILE -u BALCAO_LOG_LEVEL ";
  const int status = std::system((clean_env + BALCAO_CLI + " " + args + " > " + out + " 2>&1").c_str());
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

class GlobalOptions : public ::testing::Test {
 protected:
  balcao::test_util::TempDir tmp_{"global-options"};
  const std::filesystem::path dir_ = tmp_.path();
};

TEST_F(GlobalOptions, BadValuesAreRefusedNamingTheOption) {
  CliRun level = Balcao("--log-level loud help", dir_);
  EXPECT_EQ(level.exit_code, 2);
  EXPECT_NE(level.output.find("--log-level"), std::string::npos) << level.output;
  CliRun file = Balcao("--log-file " + (dir_ / "missing-dir" / "x.log").string() + " help", dir_);
  EXPECT_EQ(file.exit_code, 2);
  EXPECT_NE(file.output.find("--log-file"), std::string::npos) << file.output;
}

TEST_F(GlobalOptions, TheLogFileIsCreatedPrivateAndTheCommandStillRuns) {
  const auto log = dir_ / "balcao.log";
  CliRun run = Balcao("--log-file " + log.string() + " --log-level debug help", dir_);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("usage: balcao <command>"), std::string::npos) << run.output;
  struct stat st {};
  ASSERT_EQ(::stat(log.c_str(), &st), 0) << run.output;
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

// Interactive commands keep the trail off the terminal unless a level is asked for.
TEST_F(GlobalOptions, InteractiveCommandsLogOnlyWarningsToTheTerminalUnlessAsked) {
  const std::string sale = "checkout --amount 990 --method pix --autopay --timeout 30";
  CliRun quiet = Balcao(sale, dir_);
  EXPECT_EQ(quiet.exit_code, 0) << quiet.output;
  EXPECT_EQ(quiet.output.find(" INFO checkout:"), std::string::npos) << quiet.output;
  CliRun chatty = Balcao("--log-level info " + sale, dir_);
  EXPECT_EQ(chatty.exit_code, 0) << chatty.output;
  EXPECT_NE(chatty.output.find(" INFO checkout: sale moved"), std::string::npos) << chatty.output;
}

}  // namespace
