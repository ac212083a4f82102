// The `balcao` executable end to end: print sample/render/qr, and the printer-emulator
// process receiving a job over TCP from `balcao print sample --to`.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/printer/testing_util.h"
#include "tests/testing/spawn.h"
#include "tests/testing/temp_dir.h"

namespace balcao::printer {
namespace {

namespace fs = std::filesystem;

int RunCli(const std::string& args, std::string* out = nullptr) {
  const std::string cmd = std::string(BALCAO_CLI) + " " + args + " 2>&1";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) text.append(buf, n);
  const int status = ::pclose(pipe);
  if (out) *out = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Cli, SampleToFileThenRenderBack) {
  const test_util::TempDir tmp("printer-cli-render");
  const auto dir = tmp.path();
  const std::string bin = (dir / "pix.bin").string();
  ASSERT_EQ(RunCli("print sample --kind pix --profile 58mm --out " + bin), 0);
  std::string out;
  ASSERT_EQ(RunCli("print render --profile 58mm --in " + bin + " --png " + (dir / "pix.png").string() + " --text " +
                       (dir / "pix.txt").string(),
                   &out),
            0)
      << out;
  const std::string text = testing::ReadFile(dir / "pix.txt");
  EXPECT_NE(text.find("PAGUE COM PIX"), std::string::npos);
  EXPECT_NE(text.find("R$ 45,90"), std::string::npos);
  const std::vector<std::string> qr = testing::Zbarimg(dir / "pix.png");
  ASSERT_EQ(qr.size(), 1u);
  EXPECT_EQ(qr[0].rfind("000201", 0), 0u);
  EXPECT_NE(text.find(qr[0].substr(0, 32)), std::string::npos);  // the copy-and-paste text matches the QR
}

TEST(Cli, QrTextAndBadInput) {
  std::string out;
  EXPECT_EQ(RunCli("print qr https://example.com/x", &out), 0);
  EXPECT_NE(out.find("[QR] https://example.com/x"), std::string::npos) << out;
  EXPECT_EQ(RunCli("print sample --kind nope", &out), 1);
  EXPECT_NE(out.find("sample kind 'nope'"), std::string::npos) << out;
  EXPECT_EQ(RunCli("print sample --profile 99mm", &out), 1);
  EXPECT_EQ(RunCli("print sample --kind card --to usb:1", &out), 1);
  EXPECT_NE(out.find("tcp://"), std::string::npos) << out;
}

// `balcao printer-emulator` as a child process; SIGTERM stops it.
struct EmulatorProcess {
  EmulatorProcess(const fs::path& dir, const std::string& port_arg) {
    const std::string log = (dir / ("emulator-" + port_arg + ".log")).string();
    const std::string out = (dir / "paper").string();
    test_util::ChildIo io;
    io.out_file = log;
    pid = test_util::SpawnChild({BALCAO_CLI, "printer-emulator", "--port", port_arg, "--out", out}, io);
    // It prints "... listening on 127.0.0.1:PORT, ..." once bound.
    for (int i = 0; i < 2000 && port.empty(); ++i) {
      const std::string text = testing::ReadFile(log);
      const size_t at = text.find("127.0.0.1:");
      if (at != std::string::npos && text.find(',', at) != std::string::npos) {
        port = text.substr(at + 10, text.find(',', at) - at - 10);
      } else {
        ::usleep(10000);
      }
    }
  }
  int Stop() {
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  pid_t pid = -1;
  std::string port;
};

TEST(Cli, EmulatorProcessReceivesAJobOverTcp) {
  const test_util::TempDir tmp("printer-cli-emulator");
  const auto dir = tmp.path();
  EmulatorProcess emulator(dir, "0");
  ASSERT_FALSE(emulator.port.empty());
  std::string out;
  EXPECT_EQ(RunCli("print sample --kind card --to tcp://127.0.0.1:" + emulator.port, &out), 0) << out;
  EXPECT_NE(out.find("status before: ok"), std::string::npos) << out;
  EXPECT_TRUE(testing::WaitForJob(dir / "paper", 2));
  EXPECT_EQ(emulator.Stop(), 0);
  EXPECT_NE(testing::ReadFile(testing::JobFile(dir / "paper", 2, "txt")).find("VIA DO CLIENTE"), std::string::npos);
}

// The queue from the operator's side: a job for a printer that is off is "paid but not
// printed" in `print jobs`, and `print spool` prints it once the printer is back.
TEST(Cli, QueuedJobForAnOffPrinterIsVisibleThenPrinted) {
  const test_util::TempDir tmp("printer-cli-queue");
  const auto dir = tmp.path();
  const std::string db = " --db " + (dir / "box.db").string();
  EmulatorProcess first(dir, "0");  // learn a free port, then switch the printer off
  ASSERT_FALSE(first.port.empty());
  const std::string port = first.port;
  first.Stop();
  const std::string to = " --to tcp://127.0.0.1:" + port;
  std::string out;
  ASSERT_EQ(RunCli("print sample --kind pix --queue --sale S-77" + to + db, &out), 0) << out;
  EXPECT_NE(out.find("queued job 1"), std::string::npos) << out;
  EXPECT_EQ(RunCli("print spool" + db, &out), 1) << out;
  EXPECT_NE(out.find("failed 1"), std::string::npos) << out;
  EXPECT_EQ(RunCli("print jobs --state failed" + db, &out), 0);
  EXPECT_NE(out.find("PAID BUT NOT PRINTED"), std::string::npos) << out;
  EXPECT_NE(out.find("sale=S-77"), std::string::npos) << out;
  EXPECT_NE(out.find("error=printer at tcp://127.0.0.1:" + port), std::string::npos) << out;

  EmulatorProcess back(dir, port);
  ASSERT_EQ(back.port, port);
  EXPECT_EQ(RunCli("print spool" + db, &out), 0) << out;
  EXPECT_NE(out.find("printed 1, failed 0, requeued 1"), std::string::npos) << out;
  EXPECT_TRUE(testing::WaitForJob(dir / "paper", 1));
  EXPECT_EQ(RunCli("print jobs --state failed" + db, &out), 0);
  EXPECT_EQ(out.find("S-77"), std::string::npos) << out;
  EXPECT_EQ(back.Stop(), 0);
  EXPECT_NE(testing::ReadFile(testing::JobFile(dir / "paper", 1, "txt")).find("PAGUE COM PIX"), std::string::npos);
}

}  // namespace
}  // namespace balcao::printer
