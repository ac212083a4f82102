// fork() for a test whose child runs more than exec (the child is the test's own code: a
// server out of descriptors, a writer killed mid-loop). Safe only while this process has one
// thread: a lock another thread holds at the fork (SQLite's allocator mutex, malloc's arenas,
// libcurl's) stays held forever in the child, which then hangs (issue 26). A test whose
// process has started threads re-executes itself instead (tests/checkout/kill_child.h).
// Thread-safety: call from the test's one thread.
#pragma once

#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

namespace balcao::test_util {

// The threads of this process (entries of /proc/self/task); 0 when it cannot be read.
inline int ThreadCount() {
  DIR* tasks = ::opendir("/proc/self/task");
  if (tasks == nullptr) return 0;
  int count = 0;
  while (const dirent* entry = ::readdir(tasks))
    if (entry->d_name[0] != '.') ++count;
  ::closedir(tasks);
  return count;
}

// fork() when this process has one thread; else -1 and the test fails, naming the count.
inline pid_t ForkOfLoneThread() {
  const int threads = ThreadCount();
  if (threads != 1) {
    ADD_FAILURE() << "fork() refused: this process has " << threads
                  << " threads (a fork would copy their locks held); re-execute the test binary instead";
    return -1;
  }
  return ::fork();
}

}  // namespace balcao::test_util
