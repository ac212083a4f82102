// Runs tests/sandbox/node/families.test.js (the official Node SDK, pinned in that folder's
// package-lock.json) against an in-process sandbox with HTTPS. npm ci installs the SDK once
// into the build tree (FAMILY_NODE_WORK); node and npm are required, as in CI.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "sandbox/sandbox.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace balcao::sandbox::family_testing {
namespace {

namespace fs = std::filesystem;

TEST(FamilyNodeSdk, FamiliesTestJsPasses) {
  const fs::path source = FAMILY_NODE_DIR, work = FAMILY_NODE_WORK;
  // The pinned SDK and the test files, installed the way the other Node tests do it.
  const std::string install = "bash '" + (source / "../../npm_ci.sh").string() + "' '" + source.string() + "' '" +
                              work.string() + "' '" + (source / "families.test.js").string() + "' '" +
                              (source / "sandbox_sdk.js").string() + "'";
  ASSERT_EQ(std::system(install.c_str()), 0) << install;
  const test_util::TempDir dir("family-node");
  SandboxOptions options;
  options.data_dir = dir.File("data");
  options.db = ":memory:";
  auto sandbox = Sandbox::Start(options);
  ASSERT_OK(sandbox);
  const std::string run =
      "cd '" + work.string() + "' && SANDBOX_DATA_DIR='" + options.data_dir + "' node --test families.test.js";
  const int rc = std::system(run.c_str());
  (*sandbox)->Stop();
  EXPECT_EQ(rc, 0) << run;
}

}  // namespace
}  // namespace balcao::sandbox::family_testing
