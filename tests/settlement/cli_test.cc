// `balcao settle` itself (the real executable) on a store file rung up through the checkout
// driver against the in-process sandbox: exit codes, --json, the default day, --print, the
// stored record on a second run, bad arguments, and a journal changed behind the store's back.
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
  const std::string cmd = "BALCAO_CREDENTIALS='" + credentials + "' '" + std::string(BALCAO_CLI) +
                          "' settle --lang en-US " + args + " 2>&1";
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

CliRun Shell(const std::string& cmd) {
  CliRun run;
  FILE* pipe = ::popen((cmd + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) run.out.append(buffer, n);
  const int status = ::pclose(pipe);
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  while (!run.out.empty() && run.out.back() == '\n') run.out.pop_back();
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
  EXPECT_EQ(doc["journal"]["verified"], true) << first.out;
  EXPECT_GT(doc["journal"]["rows"].get<int>(), 0) << first.out;
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

// A journal row changed behind the store's back (with the real sqlite3 tool, while the
// driver's store is open, as the service's would be): the settlement names the row in its
// report, needs the operator (exit 1), and its record keeps the journal's head, which
// `balcao journal verify` then checks.
TEST_F(SettleE2E, ABrokenJournalChainIsInTheReportAndNeedsTheOperator) {
  using namespace checkout;
  const std::string credentials = sandbox().credentials().credentials_path;
  const std::string id = NewSaleId();
  ASSERT_EQ(StateOf(Paid(id, {.method = Method::kPix, .amount = 2990})), "Paid");
  const std::string day = BusinessDayOf(SystemClock::Instance().Now());
  const std::string sqlite = "sqlite3 '" + db_ + "' ";

  // The time of the sale's second event, one millisecond on: the replayed sale is the same,
  // only the chain tells.
  const CliRun changed = Shell(sqlite + "\"UPDATE sale_journal SET created_at = created_at + 1 WHERE sale_id = '" + id +
                               "' AND seq = 2; SELECT changes(); SELECT chain_seq FROM sale_journal WHERE "
                               "sale_id = '" +
                               id + "' AND seq = 2\"");
  ASSERT_EQ(changed.code, 0) << changed.out;
  const std::string row = changed.out.substr(changed.out.find('\n') + 1);
  ASSERT_EQ(changed.out.substr(0, changed.out.find('\n')), "1") << changed.out;

  const CliRun text = RunCli(credentials, "--db " + db_ + " --day " + day + " --dry-run");
  EXPECT_EQ(text.code, 1) << text.out;
  EXPECT_NE(text.out.find("! JOURNAL CHAIN BROKEN: content changed at sale " + id + " seq 2 (journal row " + row + ")"),
            std::string::npos)
      << text.out;

  const CliRun settled = RunCli(credentials, "--db " + db_ + " --day " + day + " --json");
  EXPECT_EQ(settled.code, 1) << settled.out;
  const json doc = json::parse(settled.out, nullptr, false);
  ASSERT_TRUE(doc.is_object()) << settled.out;
  EXPECT_EQ(doc["status"], "attention");
  EXPECT_EQ(doc["attention"], 1) << "the journal is the only item: " << settled.out;
  EXPECT_EQ(SaleIn(doc, id)["class"], "matched");
  EXPECT_EQ(doc["journal"]["verified"], false);
  EXPECT_EQ(doc["journal"]["broken"]["row"], std::stoll(row));
  EXPECT_EQ(doc["journal"]["broken"]["sale_id"], id);
  EXPECT_EQ(doc["journal"]["broken"]["seq"], 2);
  EXPECT_EQ(doc["journal"]["broken"]["kind"], "content changed");

  // The record keeps the head; with the row put back the chain holds through it.
  EXPECT_EQ(Shell(sqlite + "'SELECT journal_rows = (SELECT max(chain_seq) FROM sale_journal) FROM settlements'").out,
            "1");
  const std::string verify = std::string(BALCAO_CLI) + " journal verify --db '" + db_ + "'";
  EXPECT_EQ(Shell(verify).code, 1);
  ASSERT_EQ(
      Shell(sqlite + "\"UPDATE sale_journal SET created_at = created_at - 1 WHERE sale_id = '" + id + "' AND seq = 2\"")
          .code,
      0);
  const CliRun restored = Shell(verify);
  EXPECT_EQ(restored.code, 0) << restored.out;
  EXPECT_NE(restored.out.find("settlement heads found in place: 1"), std::string::npos) << restored.out;
}

}  // namespace
}  // namespace balcao::settlement::e2e
