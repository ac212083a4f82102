// The folders on a real file system: created 2770, a request taken once (inotify and polling),
// temporary names never read, answers written whole, a newer request never lost, a request
// taken but not handled before a restart handed over again.
#include "integration/tefdial/folder.h"

#include <grp.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <vector>

#include "tests/testing/status_matchers.h"

using ::balcao::test_util::StatusIs;

namespace balcao::integration::tefdial {
namespace {

namespace fs = std::filesystem;

class FolderTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tefdial-folder-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes req/<name> as a PDV does: a temporary name, then a rename.
  void Send(const std::string& name, const std::string& text) {
    const fs::path temp = dir_ / "req" / "IntPos.tmp";
    std::ofstream(temp) << text;
    fs::rename(temp, dir_ / "req" / name);
  }
  std::vector<std::string> WaitFor(std::size_t count) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(5), [&] { return seen_.size() >= count; });
    return seen_;
  }
  // A copy, under the lock: the folder's thread may be appending the next request meanwhile.
  RequestFile File(std::size_t i) {
    std::lock_guard<std::mutex> lock(mu_);
    return files_.at(i);
  }
  Folder::OnRequest Collect() {
    return [this](const RequestFile& file, std::string text) {
      std::lock_guard<std::mutex> lock(mu_);
      seen_.push_back(file.name + ":" + text);
      files_.push_back(file);
      cv_.notify_all();
    };
  }

  fs::path dir_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> seen_;
  std::vector<RequestFile> files_;
};

TEST_P(FolderTest, MakesTheFoldersAndSeesEachRequestOnce) {
  auto folder = Folder::Open(FolderOptions{dir_.string(), "", std::chrono::milliseconds(20), GetParam()});
  ASSERT_OK(folder);
  EXPECT_EQ((*folder)->inotify(), GetParam());
  for (const char* sub : {"req", "resp"}) {
    struct stat st {};
    ASSERT_EQ(::stat((dir_ / sub).c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 02770u) << sub;
  }
  std::ofstream(dir_ / "req" / "IntPos.tmp") << "half a request";  // never read
  Send("intpos.001", "000-000 = ATV\n");                           // left before the start
  (*folder)->Start(Collect());
  ASSERT_EQ(WaitFor(1).size(), 1u);
  EXPECT_EQ(seen_[0], "intpos.001:000-000 = ATV\n");
  ASSERT_OK((*folder)->Remove(File(0)));
  Send("IntPos.001", "000-000 = CRT\n");
  ASSERT_EQ(WaitFor(2).size(), 2u);
  EXPECT_EQ(seen_[1], "IntPos.001:000-000 = CRT\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  EXPECT_EQ(seen_.size(), 2u);  // the file is still there, but it was handed over once
  (*folder)->Stop();
}

TEST_P(FolderTest, WritesWholeAnswersAndNeverRemovesANewerRequest) {
  auto folder = Folder::Open(FolderOptions{dir_.string(), "", std::chrono::milliseconds(20), GetParam()});
  ASSERT_OK(folder);
  ASSERT_OK((*folder)->Write("IntPos.Sts", "000-000 = ATV\r\n999-999 = 0\r\n"));
  std::ifstream in(dir_ / "resp" / "IntPos.Sts");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "000-000 = ATV\r\n999-999 = 0\r\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_ / "resp"), fs::directory_iterator()), 1);  // no temp left
  (*folder)->Start(Collect());
  Send("IntPos.001", "000-000 = CNF\n");
  ASSERT_EQ(WaitFor(1).size(), 1u);
  Send("IntPos.001", "000-000 = CRT\n001-000 = 2\n");  // the PDV's next request, before the box handled the first
  EXPECT_OK((*folder)->Remove(File(0)));
  ASSERT_EQ(WaitFor(2).size(), 2u);  // taken at once: handling the first cannot touch it
  EXPECT_EQ(seen_[1], "IntPos.001:000-000 = CRT\n001-000 = 2\n");
  EXPECT_FALSE(fs::exists(dir_ / "req" / "IntPos.001"));
  (*folder)->Stop();
}

TEST_P(FolderTest, ARequestTakenButNotHandledIsHandedOverAgainAfterARestart) {
  {
    auto folder = Folder::Open(FolderOptions{dir_.string(), "", std::chrono::milliseconds(20), GetParam()});
    ASSERT_OK(folder);
    (*folder)->Start(Collect());
    Send("intpos.001", "000-000 = NCN\n");
    ASSERT_EQ(WaitFor(1).size(), 1u);
    (*folder)->Stop();  // ended before handling it
  }
  auto folder = Folder::Open(FolderOptions{dir_.string(), "", std::chrono::milliseconds(20), GetParam()});
  ASSERT_OK(folder);
  (*folder)->Start(Collect());
  ASSERT_EQ(WaitFor(2).size(), 2u);
  EXPECT_EQ(seen_[1], "intpos.001:000-000 = NCN\n");  // under the name the PDV used
  ASSERT_OK((*folder)->Remove(File(1)));
  EXPECT_TRUE(fs::is_empty(dir_ / "req"));
  (*folder)->Stop();
}

INSTANTIATE_TEST_SUITE_P(InotifyAndPolling, FolderTest, ::testing::Bool());

TEST(FolderGroup, TheFoldersGetTheConfiguredGroup) {
  const struct group* users = ::getgrnam("users");
  if (users == nullptr || ::geteuid() != 0) GTEST_SKIP() << "needs the group 'users' and root to give folders away";
  const fs::path dir = fs::temp_directory_path() / ("tefdial-group-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  ASSERT_OK(Folder::Open(FolderOptions{dir.string(), "users"}));
  for (const char* sub : {"req", "resp"}) {
    struct stat st {};
    ASSERT_EQ(::stat((dir / sub).c_str(), &st), 0);
    EXPECT_EQ(st.st_gid, users->gr_gid) << sub;
    EXPECT_EQ(st.st_mode & 07777, 02770u) << sub;
  }
  fs::remove_all(dir);
}

TEST(FolderGroup, AnUnknownGroupIsRefusedNamingTheKey) {
  auto folder = Folder::Open(FolderOptions{"/tmp/tefdial-nogroup", "no-such-group-balcao"});
  EXPECT_THAT(folder, StatusIs(StatusCode::kInvalidArgument));
  EXPECT_NE(folder.status().message().find("tef_dial.group"), std::string::npos);
}

}  // namespace
}  // namespace balcao::integration::tefdial
