// `balcao settle` itself (the real executable) on a store file rung up through the checkout
// driver against the in-process sandbox: exit codes, --json, the default day, --print, the
// stored record on a second run, and bad arguments.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "tests/settlement/settle_fixture.h"

namespace balcao::settlement::e2e {
namespace {

// `balcao settle` on a store file: exit codes, --json, the stored record on a second run,
// --print, and bad arguments.
struct CliRun {
  int code = -1;
  std::string out;
};
CliRun RunCli(const std::string& credentials, const std::string& args) {
  const std::string cmd =
      "BALCAO_CREDENTIALS='" + credentials + "' '" + std::string(BALCAO_CLI) + "' settle " + args + " 2>&1";
  CliRun run;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) run.out.append(buffer, n);
  const int status = ::pclose(pipe);
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

TEST_F(SettleE2E, TheCommandExitsZeroOneOrTwoAndPrintsJson) {
  using namespace checkout;
  const std::string credentials = sandbox().credentials().credentials_path;
  const Sale sale = Paid(NewSaleId(), {.method = Method::kPix, .amount = 1990});
  ASSERT_EQ(StateOf(sale), "Paid");
  const std::string day = BusinessDayOf(SystemClock::Instance().Now());

  CliRun bad = RunCli(credentials, "--db " + db_ + " --day 2026-02-30");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("YYYY-MM-DD"), std::string::npos) << bad.out;
  EXPECT_EQ(RunCli(credentials, "--db " + db_ + " --bogus").code, 2);
  EXPECT_EQ(RunCli(credentials, "--day " + day).code, 2) << "no store named";

  CliRun no_bank = RunCli(db_ + ".missing-credentials.json", "--db " + db_ + " --day " + day);
  EXPECT_EQ(no_bank.code, 2) << no_bank.out;  // and nothing recorded: the dry run below computes

  CliRun dry = RunCli(credentials, "--db " + db_ + " --day " + day + " --dry-run");
  EXPECT_EQ(dry.code, 0) << dry.out;
  EXPECT_NE(dry.out.find("DRY RUN"), std::string::npos) << dry.out;
  EXPECT_NE(dry.out.find("RECONCILED"), std::string::npos) << dry.out;
  EXPECT_EQ(dry.out.find("Already settled"), std::string::npos) << dry.out;

  CliRun yesterday = RunCli(credentials, "--db " + db_ + " --dry-run");  // the default day
  EXPECT_EQ(yesterday.code, 0) << yesterday.out;
  EXPECT_NE(yesterday.out.find("Settlement of " + PreviousBusinessDay(SystemClock::Instance().Now())),
            std::string::npos)
      << yesterday.out;

  const std::string printed = db_ + ".print.bin";
  CliRun first = RunCli(credentials, "--db " + db_ + " --day " + day + " --json --print file:" + printed);
  EXPECT_EQ(first.code, 0) << first.out;
  const json doc = json::parse(first.out, nullptr, false);
  ASSERT_TRUE(doc.is_object()) << first.out;
  EXPECT_EQ(doc["status"], "reconciled");
  EXPECT_EQ(doc["already_settled"], false);
  EXPECT_EQ(doc["total"]["gross"], 1990);
  EXPECT_GT(std::filesystem::file_size(printed), 0u);
  std::filesystem::remove(printed);

  CliRun second = RunCli(credentials, "--db " + db_ + " --day " + day);
  EXPECT_EQ(second.code, 0) << second.out;
  EXPECT_NE(second.out.find("Already settled"), std::string::npos) << second.out;

  CliRun list = RunCli(credentials, "--db " + db_ + " --list --json");
  EXPECT_EQ(list.code, 0) << list.out;
  const json days = json::parse(list.out, nullptr, false);
  ASSERT_TRUE(days.is_array()) << list.out;
  ASSERT_EQ(days.size(), 1u) << list.out;
  EXPECT_EQ(days[0]["day"], day);
  EXPECT_EQ(days[0]["status"], "reconciled");
  EXPECT_EQ(days[0]["gross"], 1990);
  CliRun listed = RunCli(credentials, "--db " + db_ + " --list");
  EXPECT_NE(listed.out.find(day + "  reconciled"), std::string::npos) << listed.out;
  EXPECT_EQ(RunCli(credentials, "--db " + db_ + " --list --dry-run").code, 2);

  // A discrepancy on another box's store: exit 1.
  ASSERT_EQ(api().Sim("/sandbox/reset").status, 200);
  const std::string first_db = db_;
  db_ += ".2";
  OpenDriver();
  std::filesystem::remove(first_db);
  const Sale other = Paid(NewSaleId(), {.method = Method::kPix, .amount = 2500});
  ASSERT_EQ(StateOf(other), "Paid");
  ASSERT_EQ(api().Patch("/v2/deposit/" + other.payment_line()->ref.id, {{"amount", 100}}).status, 200);
  CliRun attention = RunCli(credentials, "--db " + db_ + " --day " + day + " --json");
  EXPECT_EQ(attention.code, 1) << attention.out;
  EXPECT_EQ(json::parse(attention.out, nullptr, false)["status"], "attention") << attention.out;
  std::filesystem::remove(db_);
}

}  // namespace
}  // namespace balcao::settlement::e2e
