// Runs tests/sandbox/node/families.test.js (the official Node SDK, pinned in that folder's
// package-lock.json) against an in-process sandbox with HTTPS. npm ci installs the SDK once
// into the build tree (FAMILY_NODE_WORK); node and npm are required, as in CI.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sandbox/sandbox.h"

namespace balcao::sandbox::family_testing {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(FamilyNodeSdk, FamiliesTestJsPasses) {
  ASSERT_EQ(std::system("command -v node >/dev/null && command -v npm >/dev/null"), 0) << "node and npm are required";
  const fs::path source = FAMILY_NODE_DIR, work = FAMILY_NODE_WORK;
  fs::create_directories(work);
  for (const char* f : {"package.json", "package-lock.json", "families.test.js"})
    fs::copy_file(source / f, work / f, fs::copy_options::overwrite_existing);
  const fs::path stamp = work / "node_modules" / ".balcao-lock";
  if (!fs::exists(stamp) || Slurp(stamp) != Slurp(source / "package-lock.json")) {
    const std::string install = "cd '" + work.string() + "' && npm ci --no-audit --no-fund --loglevel=error";
    ASSERT_EQ(std::system(install.c_str()), 0) << install;
    fs::copy_file(source / "package-lock.json", stamp, fs::copy_options::overwrite_existing);
  }
  char dir_template[] = "/tmp/family-node-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  SandboxOptions options;
  options.data_dir = std::string(dir_template) + "/data";
  options.db = ":memory:";
  auto sandbox = Sandbox::Start(options);
  ASSERT_TRUE(sandbox.ok()) << sandbox.status().ToString();
  const std::string run =
      "cd '" + work.string() + "' && SANDBOX_DATA_DIR='" + options.data_dir + "' node --test families.test.js";
  const int rc = std::system(run.c_str());
  (*sandbox)->Stop();
  fs::remove_all(dir_template);
  EXPECT_EQ(rc, 0) << run;
}

}  // namespace
}  // namespace balcao::sandbox::family_testing
