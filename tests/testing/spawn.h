// A child process started the one safe way from a test that may have threads: posix_spawn, whose
// file actions (the child's stdin/stdout/stderr, closing the rest) run inside the spawn, so no
// code of this process runs between the fork and the exec (a lock another thread held when the
// process forked stays held for ever in the child: docs/reliability.md, "Soak").
#pragma once

#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

namespace balcao::test_util {

// The child's standard descriptors: a descriptor of this process to give it (-1: keep this
// process's), or for stdout a file to create (mode 0600, truncated; then `out` is ignored).
struct ChildIo {
  int in = -1;
  int out = -1;
  int err = -1;
  std::string out_file;
};

// Starts argv[0] (a path, not searched) with `argv`, this process's environment plus `env`
// (replacing a variable of the same name), its standard descriptors as `io` says and no other
// descriptor of this process. Returns its pid, or -1 when it could not be started (the reason
// is added as a test failure).
pid_t SpawnChild(const std::vector<std::string>& argv, const ChildIo& io = {},
                 const std::map<std::string, std::string>& env = {});

}  // namespace balcao::test_util
