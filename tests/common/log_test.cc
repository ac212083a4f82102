// The operator log: record format, quoting, one line per record, masking of card-like
// digit runs (the last line of defense), the file destination (0600, appended, many
// threads), the level filter and $BALCAO_LOG_FILE.
#include "common/log.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "tests/testing/spawn.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

using ::balcao::test_util::StatusIs;

namespace balcao::logging {
namespace {

constexpr UnixMicros kAt = 1'763'748'530'123'456;  // 2025-11-21T18:08:50.123456Z

using test_util::TempDir;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Every test that redirects the log puts it back on stderr.
class LogFile : public ::testing::Test {
 protected:
  void TearDown() override {
    ASSERT_OK(SetLogFile(""));
    SetMinLevel(Level::kInfo);
  }
  TempDir dir_;
};

TEST(LogFormat, OneLineWithTimeLevelComponentMessageAndFields) {
  EXPECT_EQ(
      FormatRecord(kAt, Level::kInfo, "drainer", "answered",
                   {{"key", "sale-7/invoice"}, {"attempt", 2}, {"reached", true}, {"amount", std::int64_t{1050}}}),
      "2025-11-21T18:08:50.123456+00:00 INFO drainer: answered key=sale-7/invoice attempt=2 reached=true "
      "amount=1050\n");
  EXPECT_EQ(FormatRecord(kAt, Level::kWarning, "c", "m", {}), "2025-11-21T18:08:50.123456+00:00 WARN c: m\n");
}

TEST(LogFormat, QuotesAndEscapesSoARecordIsAlwaysOneLine) {
  const std::string line = FormatRecord(kAt, Level::kError, "drainer", "failed\nFORGED 2025 INFO x: y",
                                        {{"error", "connection refused"},
                                         {"empty", ""},
                                         {"quote", "say \"hi\" a=b"},
                                         {"path", "C:\\x"},
                                         {"ctl", std::string("a\tb\x01")}});
  EXPECT_EQ(Lines(line).size(), 1u);
  EXPECT_EQ(line,
            "2025-11-21T18:08:50.123456+00:00 ERROR drainer: failed\\nFORGED 2025 INFO x: y "
            "error=\"connection refused\" empty=\"\" quote=\"say \\\"hi\\\" a=b\" path=\"C:\\\\x\" "
            "ctl=\"a\\tb\\x01\"\n");
}

TEST(LogFormat, MasksCardLikeDigitRunsAnywhereInTheRecord) {
  const std::string line = FormatRecord(
      kAt, Level::kInfo, "checkout", "paid with 4111 1111 1111 1111 (oops)",
      {{"note", "card=5555-5555-5555-4444"}, {"glued", "pan4242424242424242"}, {"amex", "378282246310005"}});
  EXPECT_EQ(line.find("4111 1111 1111 1111"), std::string::npos);
  EXPECT_NE(line.find("paid with 4111 11** **** 1111 (oops)"), std::string::npos) << line;
  EXPECT_NE(line.find("note=\"card=5555-55**-****-4444\""), std::string::npos) << line;
  EXPECT_NE(line.find("glued=pan424242******4242"), std::string::npos) << line;
  EXPECT_NE(line.find("amex=378282*****0005"), std::string::npos) << line;
  // Ids, amounts and the timestamp stay as they are.
  const std::string plain = FormatRecord(kAt, Level::kInfo, "drainer", "answered",
                                         {{"bank_id", "5718945902034944"}, {"amount", std::int64_t{4111111111111112}}});
  EXPECT_NE(plain.find("bank_id=5718945902034944 amount=4111111111111112"), std::string::npos) << plain;
}

TEST(LogLevel, ParsesNames) {
  EXPECT_EQ(*ParseLevel("DEBUG"), Level::kDebug);
  EXPECT_EQ(*ParseLevel("warning"), Level::kWarning);
  EXPECT_EQ(*ParseLevel("Warn"), Level::kWarning);
  EXPECT_THAT(ParseLevel("loud"), StatusIs(StatusCode::kInvalidArgument));
}

TEST_F(LogFile, AppendsToAPrivateFileAndFiltersByLevel) {
  const std::string path = dir_.File("balcao.log");
  ASSERT_OK(SetLogFile(path));
  Info("test", "first", {{"n", 1}});
  Debug("test", "hidden");
  SetMinLevel(Level::kWarning);
  Info("test", "hidden too");
  Warn("test", "second", {{"card", "4111111111111111"}});
  EXPECT_FALSE(Enabled(Level::kInfo));
  EXPECT_TRUE(Enabled(Level::kError));
  // Reopening appends (a restart of the service).
  ASSERT_OK(SetLogFile(path));
  Error("test", "third");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  const auto lines = Lines(Slurp(path));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[0].find(" INFO test: first n=1"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find(" WARN test: second card=411111******1111"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find(" ERROR test: third"), std::string::npos) << lines[2];
}

TEST_F(LogFile, AnUnopenableFileIsRefusedAndTheOldDestinationStays) {
  const std::string path = dir_.File("kept.log");
  ASSERT_OK(SetLogFile(path));
  Status bad = SetLogFile(dir_.File("missing-dir/x.log"));
  EXPECT_THAT(bad, StatusIs(StatusCode::kFailedPrecondition));
  EXPECT_NE(bad.message().find("missing-dir/x.log"), std::string::npos);
  Info("test", "still here");
  EXPECT_NE(Slurp(path).find("still here"), std::string::npos);
}

TEST_F(LogFile, ConcurrentWritersNeverInterleave) {
  const std::string path = dir_.File("threads.log");
  ASSERT_OK(SetLogFile(path));
  constexpr int kThreads = 8, kRecords = 500;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t] {
      for (int i = 0; i < kRecords; ++i)
        Info("thread", "record", {{"t", t}, {"i", i}, {"pad", std::string(200, static_cast<char>('a' + t))}});
    });
  for (auto& thread : threads) thread.join();
  const auto lines = Lines(Slurp(path));
  ASSERT_EQ(lines.size(), static_cast<std::size_t>(kThreads * kRecords));
  std::set<std::pair<int, int>> seen;
  for (const std::string& line : lines) {
    int t = -1, i = -1;
    const auto at = line.find(" INFO thread: record t=");
    ASSERT_NE(at, std::string::npos) << line;
    ASSERT_EQ(std::sscanf(line.c_str() + at, " INFO thread: record t=%d i=%d", &t, &i), 2) << line;
    EXPECT_TRUE(line.ends_with(" pad=" + std::string(200, static_cast<char>('a' + t)))) << line;
    seen.insert({t, i});
  }
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(kThreads * kRecords));
}

// $BALCAO_LOG_FILE is read on the first record: checked in a fresh process (this binary,
// re-run with a filter), since this one may have logged already.
TEST(LogEnvironment, ChildProcess) {
  const char* path = std::getenv("BALCAO_LOG_TEST_CHILD");
  if (path == nullptr) GTEST_SKIP() << "run by LogEnvironment.FileFromEnvironment";
  Info("child", "from the environment", {{"pid", static_cast<int>(::getpid())}});
  Debug("child", "filtered by BALCAO_LOG_LEVEL");
}

TEST(LogEnvironment, FileFromEnvironment) {
  TempDir dir;
  const std::string path = dir.File("env.log");
  const pid_t child = test_util::SpawnChild(
      {std::filesystem::read_symlink("/proc/self/exe").string(), "--gtest_filter=LogEnvironment.ChildProcess"}, {},
      {{"BALCAO_LOG_TEST_CHILD", path}, {"BALCAO_LOG_FILE", path}, {"BALCAO_LOG_LEVEL", "info"}});
  ASSERT_GT(child, 0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  const auto lines = Lines(Slurp(path));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find(" INFO child: from the environment pid=" + std::to_string(child)), std::string::npos)
      << lines[0];
}

}  // namespace
}  // namespace balcao::logging
