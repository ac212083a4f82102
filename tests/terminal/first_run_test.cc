// The first run as a new user meets it (issue 27): `bash deploy/run.sh serve` in an empty
// directory says how to add the first operator, and so does the login screen's session answer;
// that command, typed in the same directory, adds the operator to the store serve made
// (./balcao-data, found without --db); the operator logs in; every local tool typed there finds
// the same store, and `balcao api` the embedded sandbox's credentials.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/terminal/serve_fixture.h"
#include "tests/testing/eventually.h"

namespace balcao::terminal::testing {
namespace {

const std::filesystem::path kSource = BALCAO_SOURCE_DIR;

struct Typed {
  int exit_code = -1;
  std::string output;
};

// `command` typed in a shell in `cwd`, with nothing naming the box in the environment.
Typed TypeIn(const std::filesystem::path& cwd, const std::string& command) {
  const auto log = cwd.parent_path() / "typed.out";
  const std::string line = "cd '" + cwd.string() +
                           "' && env -u BALCAO_DB -u BALCAO_CONFIG -u BALCAO_CREDENTIALS -u BALCAO_BANK_URL "
                           "-u BALCAO_ACCESS_ID -u BALCAO_LOG_FILE sh -c '" +
                           command + "' > '" + log.string() + "' 2>&1";
  const int status = std::system(line.c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

TEST(FirstRun, TheHintNamesTheCommandThatAddsTheOperatorWhereServeRuns) {
  const auto dir = FreshDir("first-run") / "shop";
  std::filesystem::create_directories(dir);
  ServeProcess serve;
  serve.StartProgram({"bash", (kSource / "deploy" / "run.sh").string(), "serve", "--port", "0"}, dir,
                     {{"BALCAO_PREBUILT", BALCAO_CLI}});
  ASSERT_FALSE(serve.url().empty()) << serve.output();

  // The login screen asks GET /api/session: 401, with what to type on the box.
  const Reply session = serve.Get("/api/session");
  ASSERT_EQ(session.status, 401) << session.body;
  ASSERT_TRUE(session.json.contains("first_run")) << session.body;
  const std::string command = session.json["first_run"]["command"].get<std::string>();
  EXPECT_EQ(session.json["first_run"]["directory"].get<std::string>(), dir.string());
  // The executable as the shell reaches it: its full path here (no `balcao` of this build on PATH).
  EXPECT_TRUE(command == std::string(BALCAO_CLI) + " operator add NAME --role supervisor" ||
              command == "balcao operator add NAME --role supervisor")
      << command;
  // The hint comes after the lines the fixture waits for, maybe in a later write.
  EXPECT_TRUE(test_util::Eventually([&] {
    const std::string printed = serve.Drain();
    return printed.find("no operator yet") != std::string::npos && printed.find(command) != std::string::npos;
  })) << serve.output();

  // Typed where serve runs, the operator's name for NAME and the PIN on stdin.
  std::string add = command;
  add.replace(add.find("NAME"), 4, "ana");
  const Typed added = TypeIn(dir, "echo 736451 | " + add);
  ASSERT_EQ(added.exit_code, 0) << added.output;
  EXPECT_NE(added.output.find("operator ana added (supervisor)"), std::string::npos) << added.output;
  EXPECT_EQ(serve.LogIn("ana", "736451").status, 200);
  serve.LogOut();
  EXPECT_FALSE(serve.Get("/api/session").json.contains("first_run"));

  // Every local tool typed there finds the store serve made, and the bank it talks to.
  const std::string cli = BALCAO_CLI;
  for (const std::string tool :
       {"operator list", "queue list", "queue metrics", "journal verify", "print jobs", "settle --list", "pos list"}) {
    const Typed run = TypeIn(dir, cli + " " + tool);
    EXPECT_EQ(run.output.find("which store?"), std::string::npos) << tool << ": " << run.output;
    EXPECT_EQ(run.exit_code, 0) << tool << ": " << run.output;
  }
  EXPECT_NE(TypeIn(dir, cli + " operator list").output.find("ana"), std::string::npos);
  const Typed invoices = TypeIn(dir, cli + " api list invoice --limit 1");
  EXPECT_EQ(invoices.exit_code, 0) << invoices.output;
  EXPECT_NE(invoices.output.find("\"invoices\""), std::string::npos) << invoices.output;
  serve.Stop();

  // Elsewhere, nothing is found by chance: the error says where a store can come from.
  const auto elsewhere = dir.parent_path() / "elsewhere";
  std::filesystem::create_directories(elsewhere);
  if (!std::filesystem::exists("/etc/balcao/balcao.conf")) {
    const Typed lost = TypeIn(elsewhere, cli + " queue list");
    EXPECT_NE(lost.exit_code, 0) << lost.output;
    EXPECT_NE(lost.output.find("./balcao-data"), std::string::npos) << lost.output;
    EXPECT_FALSE(std::filesystem::exists(elsewhere / "balcao-data"));
  }
  std::filesystem::remove_all(dir.parent_path());
}

TEST(FirstRun, AServeWithAnotherDataDirNamesItsStoreInTheCommand) {
  const auto dir = FreshDir("first-run-dir");
  ServeProcess serve;
  serve.StartProgram({BALCAO_CLI, "serve", "--port", "0", "--data-dir", (dir / "box").string()}, dir);
  ASSERT_FALSE(serve.url().empty()) << serve.output();
  const Reply session = serve.Get("/api/session");
  ASSERT_EQ(session.status, 401) << session.body;
  const std::string command = session.json["first_run"]["command"].get<std::string>();
  EXPECT_NE(command.find(" operator add NAME --role supervisor --db " + (dir / "box" / "balcao.db").string()),
            std::string::npos)
      << command;
  EXPECT_EQ(session.json["first_run"]["directory"].get<std::string>(), "");
  std::string add = command;
  add.replace(add.find("NAME"), 4, "bruno");
  const auto other = dir / "other";
  std::filesystem::create_directories(other);
  const Typed added = TypeIn(other, "echo 4821 | " + add.replace(add.find("supervisor"), 10, "cashier"));
  ASSERT_EQ(added.exit_code, 0) << added.output;
  EXPECT_EQ(serve.LogIn("bruno", "4821").status, 200);
  serve.Stop();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace balcao::terminal::testing
