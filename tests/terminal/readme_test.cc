// The README's two commands as a new user types them (README.md, "Two commands"). The first,
// `bash deploy/run.sh`, runs from a fresh directory with nothing in it (BALCAO_PREBUILT points
// run.sh at the binary under test instead of installing and building again); then
// `bash deploy/run.sh serve` from another fresh directory takes a sale for a few seconds.
// Both use the defaults a new user gets: relative paths (./balcao-demo, ./balcao-data).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/terminal/serve_fixture.h"

namespace balcao::terminal::testing {
namespace {

const std::filesystem::path kSource = BALCAO_SOURCE_DIR;

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The command lines of the README's "Two commands" block (comments and blank lines dropped).
std::vector<std::string> ReadmeCommands() {
  const std::string readme = ReadFile(kSource / "README.md");
  const auto section = readme.find("## Two commands");
  if (section == std::string::npos) return {};
  const auto open = readme.find("```sh\n", section);
  const auto close = readme.find("```", open + 6);
  if (open == std::string::npos || close == std::string::npos) return {};
  std::vector<std::string> commands;
  std::istringstream lines(readme.substr(open + 6, close - open - 6));
  for (std::string line; std::getline(lines, line);)
    if (!line.empty() && line[0] != '#') commands.push_back(line);
  return commands;
}

int Count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// Runs `command` with `cwd` as the working directory; its output is returned in `out`.
int RunIn(const std::filesystem::path& cwd, const std::string& command, std::string& out) {
  const auto log = cwd / ".." / (cwd.filename().string() + ".out");
  const std::string line =
      "cd '" + cwd.string() + "' && BALCAO_PREBUILT='" + BALCAO_CLI + "' " + command + " > '" + log.string() + "' 2>&1";
  const int status = std::system(line.c_str());
  out = ReadFile(log);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Readme, NamesTheCommandsThisTestRunsAndCiRunsTheSecond) {
  const std::vector<std::string> expected = {"bash deploy/run.sh", "bash deploy/test.sh"};
  EXPECT_EQ(ReadmeCommands(), expected);
  EXPECT_NE(ReadFile(kSource / ".ci" / "run").find("exec bash deploy/test.sh"), std::string::npos);
}

TEST(Readme, FirstCommandRingsUpEveryDemoSaleFromAFreshDirectory) {
  const auto dir = FreshDir("readme-demo") / "fresh";
  std::filesystem::create_directories(dir);
  std::string out;
  // The README's line, from the new user's directory: run.sh is reached through its path.
  ASSERT_EQ(RunIn(dir, "bash '" + (kSource / "deploy" / "run.sh").string() + "' --quiet-qr", out), 0) << out;
  EXPECT_EQ(Count(out, "=> Paid"), 5) << out;  // Pix, three cards (a debit one), the invoice
  EXPECT_EQ(Count(out, "card not charged: denied"), 1) << out;
  EXPECT_EQ(out.find("No such file"), std::string::npos) << out;
  // Its files are where the user typed the command, and the credentials name them absolutely.
  const auto credentials = dir / "balcao-demo" / "sandbox" / "credentials.json";
  ASSERT_TRUE(std::filesystem::exists(credentials)) << out;
  const Json file = Json::parse(ReadFile(credentials));
  const std::string key = file["privateKeyPath"].get<std::string>();
  EXPECT_TRUE(std::filesystem::path(key).is_absolute()) << key;
  EXPECT_TRUE(std::filesystem::exists(key)) << key;
  EXPECT_TRUE(std::filesystem::exists(dir / "balcao-demo" / "receipt-1.bin"));
  // Again, in the same directory: the sandbox state of the first run is reused.
  ASSERT_EQ(RunIn(dir, "bash '" + (kSource / "deploy" / "run.sh").string() + "' --quiet-qr", out), 0) << out;
  EXPECT_EQ(Count(out, "=> Paid"), 5) << out;
  std::filesystem::remove_all(dir.parent_path());
}

TEST(Readme, ServeFromAFreshDirectoryTakesASaleWithItsDefaultDataDir) {
  const auto dir = FreshDir("readme-serve") / "fresh";
  std::filesystem::create_directories(dir);
  ServeProcess serve;
  ServeProcess::AddOperators(dir / "balcao-data" / "balcao.db");
  serve.StartProgram({"bash", (kSource / "deploy" / "run.sh").string(), "serve", "--port", "0"}, dir,
                     {{"BALCAO_PREBUILT", BALCAO_CLI}});
  ASSERT_FALSE(serve.url().empty()) << serve.output();
  ASSERT_EQ(serve.LogIn(kCashier, kCashierPin).status, 200);
  EXPECT_NE(serve.output().find("(data dir " + (dir / "balcao-data").string() + ")"), std::string::npos)
      << serve.output();
  const Json sale = serve.NewSale(1990);
  const std::string id = sale["id"].get<std::string>();
  const Reply pix = serve.Post("/api/sales/" + id + "/method", {{"method", "pix"}});
  ASSERT_EQ(pix.status, 200) << pix.body;
  ASSERT_EQ(serve.Simulate("dynamic-brcode/pay", {{"uuid", BankId(pix.json, "brcode")}}).status, 200);
  EXPECT_EQ(serve.WaitFor(id, "paid")["collected"], 1990);
  serve.Stop();
  EXPECT_TRUE(std::filesystem::exists(dir / "balcao-data" / "balcao.db"));
  EXPECT_TRUE(std::filesystem::exists(dir / "balcao-data" / "sandbox" / "credentials.json"));
  std::filesystem::remove_all(dir.parent_path());
}

TEST(Readme, ServeTakesARelativeDataDirAsTyped) {
  const auto dir = FreshDir("readme-serve-rel") / "fresh";
  std::filesystem::create_directories(dir);
  ServeProcess serve;
  serve.StartProgram({BALCAO_CLI, "serve", "--port", "0", "--data-dir", "./rel-data"}, dir);
  ASSERT_FALSE(serve.url().empty()) << serve.output();
  EXPECT_EQ(serve.Get("/healthz").status, 200);
  serve.Stop();
  EXPECT_TRUE(std::filesystem::exists(dir / "rel-data" / "balcao.db"));
  std::filesystem::remove_all(dir.parent_path());
}

}  // namespace
}  // namespace balcao::terminal::testing
