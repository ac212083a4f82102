// Power-loss style durability of Enqueue: children that enqueue and vanish without
// closing (`_exit`, SIGKILL mid-loop); every row they acknowledged must be there when
// the parent reopens the file, and the database must pass integrity_check.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <set>
#include <string>

#include "offline/outbox.h"
#include "tests/offline/test_util.h"
#include "tests/testing/lone_fork.h"
#include "tests/testing/status_matchers.h"

namespace balcao::offline {
namespace {

OutboxRequest Request(const std::string& key) {
  OutboxRequest r;
  r.key = key;
  r.kind = "transfer.create";
  r.method = "POST";
  r.path = "/v2/transfer";
  r.body = R"({"transfers":[{"amount":100,"externalId":")" + key + R"("}]})";
  r.lookup = LookupBy::kExternalId;
  r.amount = 100;
  return r;
}

// In the child: enqueue keys "<prefix>-<i>" forever (or `count` of them), writing
// each acknowledged key's number to `fd` only after Enqueue returned OK.
[[noreturn]] void EnqueueLoop(const std::string& path, const std::string& prefix, int count, int fd) {
  auto store = Store::Open(path);
  if (!store.ok()) ::_exit(3);
  Outbox outbox(**store);
  for (int i = 0; count < 0 || i < count; ++i) {
    if (!outbox.Enqueue(Request(prefix + "-" + std::to_string(i))).ok()) ::_exit(4);
    const std::string line = std::to_string(i) + "\n";
    if (::write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) ::_exit(5);
  }
  ::_exit(0);  // no destructors: the connection is never closed
}

// Reads acknowledged numbers from `fd` until EOF or until `stop_after` were read.
std::set<int> ReadAcks(int fd, int stop_after) {
  std::set<int> acks;
  std::string pending;
  char buf[256];
  while (stop_after < 0 || static_cast<int>(acks.size()) < stop_after) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) break;
    pending.append(buf, static_cast<std::size_t>(n));
    std::size_t nl;
    while ((nl = pending.find('\n')) != std::string::npos) {
      acks.insert(std::stoi(pending.substr(0, nl)));
      pending.erase(0, nl + 1);
    }
  }
  return acks;
}

std::string IntegrityCheck(const std::string& path) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &stmt, nullptr);
  std::string result =
      sqlite3_step(stmt) == SQLITE_ROW ? reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)) : "";
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return result;
}

TEST(Durability, RowsAcknowledgedBeforeExitWithoutCloseAreThere) {
  testing::TempDir dir;
  const std::string path = dir.File("box.db");
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t child = balcao::test_util::ForkOfLoneThread();  // the child runs the test's code: one thread only
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(fds[0]);
    EnqueueLoop(path, "exit", 200, fds[1]);
  }
  ::close(fds[1]);
  const std::set<int> acks = ReadAcks(fds[0], -1);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ASSERT_EQ(acks.size(), 200u);
  auto store = Store::Open(path);
  ASSERT_OK(store);
  Outbox outbox(**store);
  for (int i : acks) EXPECT_OK(outbox.GetByKey("exit-" + std::to_string(i))) << i;
  EXPECT_EQ(IntegrityCheck(path), "ok");
}

TEST(Durability, RowsAcknowledgedBeforeSigkillAreThere) {
  testing::TempDir dir;
  const std::string path = dir.File("box.db");
  std::mt19937 rng(20261121);
  int total_acked = 0;
  for (int round = 0; round < 20; ++round) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const std::string prefix = "kill" + std::to_string(round);
    const pid_t child = balcao::test_util::ForkOfLoneThread();  // the child runs the test's code: one thread only
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(fds[0]);
      EnqueueLoop(path, prefix, -1, fds[1]);
    }
    ::close(fds[1]);
    // Let it run a random number of acknowledged writes, then kill it mid-loop.
    std::set<int> acks = ReadAcks(fds[0], 1 + static_cast<int>(rng() % 40));
    ::kill(child, SIGKILL);
    std::set<int> late = ReadAcks(fds[0], -1);  // acknowledged before the signal landed
    acks.insert(late.begin(), late.end());
    ::close(fds[0]);
    ::waitpid(child, nullptr, 0);
    auto store = Store::Open(path);
    ASSERT_OK(store);
    Outbox outbox(**store);
    for (int i : acks) ASSERT_OK(outbox.GetByKey(prefix + "-" + std::to_string(i))) << prefix << " " << i;
    total_acked += static_cast<int>(acks.size());
  }
  EXPECT_GT(total_acked, 20);
  EXPECT_EQ(IntegrityCheck(path), "ok");
}

TEST(Durability, ARowClaimedByAKilledSenderIsLookedUpBeforeAnyResend) {
  testing::TempDir dir;
  const std::string path = dir.File("box.db");
  const pid_t child = balcao::test_util::ForkOfLoneThread();  // the child runs the test's code: one thread only
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto store = Store::Open(path);
    if (!store.ok()) ::_exit(3);
    Outbox outbox(**store);
    if (!outbox.Enqueue(Request("claimed")).ok()) ::_exit(4);
    auto work = outbox.ClaimDue(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count(),
        1, {});
    ::_exit(work.ok() && work->size() == 1 ? 0 : 5);  // "sent", then gone before the answer
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  auto store = Store::Open(path);
  ASSERT_OK(store);
  Outbox outbox(**store);
  auto item = outbox.GetByKey("claimed");
  ASSERT_OK(item);
  EXPECT_EQ(item->state, OutboxState::kUnknown);
  EXPECT_EQ(item->attempts, 1);
  EXPECT_TRUE(outbox.ClaimDue(item->next_attempt_at_ms, 10, {})->empty());  // settling first
  auto work = outbox.ClaimDue(item->next_attempt_at_ms + outbox.policy().unknown_settle_ms, 10, {});
  ASSERT_OK(work);
  ASSERT_EQ(work->size(), 1u);
  EXPECT_EQ((*work)[0].action, OutboxWork::kLookup);
}

}  // namespace
}  // namespace balcao::offline
