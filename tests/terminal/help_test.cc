// `--help` and `-h` for every command and subcommand of `balcao`: the usage on stdout, exit 0,
// nothing else done (no store made, no bank called), whatever else was typed with it. The
// commands come from `balcao help`; each one's subcommands are listed here, and a command this
// table does not know fails the test, so a new command gets its line.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/testing/temp_dir.h"

namespace {

struct CliRun {
  int exit_code = -1;
  std::string out, err;
};

std::string Slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

CliRun Balcao(const std::string& args, const std::filesystem::path& dir) {
  const std::string line = "cd '" + dir.string() +
                           "' && env -u BALCAO_DB -u BALCAO_CONFIG -u BALCAO_CREDENTIALS -u BALCAO_BANK_URL "
                           "-u BALCAO_LOG_FILE " BALCAO_CLI " " +
                           args + " > out.txt 2> err.txt < /dev/null";
  const int status = std::system(line.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, Slurp(dir / "out.txt"), Slurp(dir / "err.txt")};
}

// Each command's subcommands (with operands a real call would take), "" for the command alone.
const std::map<std::string, std::vector<std::string>> kSubcommands = {
    {"api", {"", "list invoice", "show invoice 123", "create invoice --json @-", "call GET /v2/balance"}},
    {"checkout", {"", "--amount 100 --method pix"}},
    {"demo", {""}},
    {"event", {"", "verify"}},
    {"format", {"", "check 123"}},
    {"hub",
     {"", "serve", "enroll --store loja --lane caixa-1", "join CODE", "revoke --store loja --lane caixa-1", "status",
      "settle --day 2026-01-02", "user add ana"}},
    {"journal", {"", "verify"}},
    {"keys", {"", "create", "show"}},
    {"operator", {"", "add ana --role cashier", "list", "disable ana", "reset-pin ana"}},
    {"pos", {"", "add caixa-1", "list", "disable caixa-1", "rotate caixa-1"}},
    {"print", {"", "sample", "test", "qr", "render", "jobs", "reprint 1", "spool"}},
    {"printer-emulator", {""}},
    {"queue", {"", "list", "show 1", "retry 1", "drop 1", "drain", "metrics"}},
    {"sandbox", {"", "--port 0"}},
    {"serve", {"", "--port 0"}},
    {"settle", {"", "--list", "--day 2026-01-02", "--store"}},
};

std::vector<std::string> Commands(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  ", 0) != 0 || line.size() < 3 || line[2] == ' ' || line[2] == '-') continue;
    names.push_back(line.substr(2, line.find(' ', 2) - 2));
  }
  return names;
}

TEST(Help, EveryCommandAndSubcommandPrintsItsUsageAndExitsZero) {
  balcao::test_util::TempDir tmp("help");
  const std::filesystem::path dir = tmp.path();
  const CliRun help = Balcao("help", dir);
  ASSERT_EQ(help.exit_code, 0) << help.err;
  const std::vector<std::string> commands = Commands(help.out);
  ASSERT_GE(commands.size(), 10u) << help.out;
  for (const std::string& command : commands) {
    auto known = kSubcommands.find(command);
    if (known == kSubcommands.end()) {
      ADD_FAILURE() << "`balcao " << command << "` is not in this test's table: add its subcommands";
      continue;
    }
    for (const std::string& sub : known->second) {
      for (const std::string ask : {"--help", "-h"}) {
        const std::string args = command + (sub.empty() ? "" : " " + sub) + " " + ask;
        const CliRun run = Balcao(args, dir);
        EXPECT_EQ(run.exit_code, 0) << "balcao " << args << "\n" << run.out << run.err;
        EXPECT_NE(run.out.find("usage"), std::string::npos) << "balcao " << args << "\n" << run.out << run.err;
        EXPECT_EQ(run.err, "") << "balcao " << args;
      }
    }
  }
  // Asking for help made nothing: no store, no sandbox state, no key files.
  std::filesystem::remove(dir / "out.txt");
  std::filesystem::remove(dir / "err.txt");
  EXPECT_TRUE(std::filesystem::is_empty(dir)) << std::filesystem::directory_iterator(dir)->path();
}

TEST(Help, TheProgramsOwnHelpListsEveryCommand) {
  balcao::test_util::TempDir tmp("help-top");
  for (const std::string ask : {"help", "--help", "-h"}) {
    const CliRun run = Balcao(ask, tmp.path());
    EXPECT_EQ(run.exit_code, 0) << ask;
    EXPECT_NE(run.out.find("usage: balcao <command>"), std::string::npos) << ask << ": " << run.out;
    EXPECT_EQ(Commands(run.out).size(), kSubcommands.size()) << run.out;
  }
}

}  // namespace
