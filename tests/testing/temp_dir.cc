#include "tests/testing/temp_dir.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>

namespace balcao::test_util {

TempDir::TempDir(const std::string& name) {
  std::string pattern = (std::filesystem::temp_directory_path() / ("balcao-" + name + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp " << pattern << ": " << std::strerror(errno);
    return;
  }
  path_ = pattern;
}

TempDir::~TempDir() {
  if (path_.empty()) return;
  const char* keep = std::getenv("BALCAO_KEEP_TEST_DIRS");
  if (keep != nullptr && *keep != '\0' && ::testing::Test::HasFailure()) {
    std::fprintf(stderr, "BALCAO_KEEP_TEST_DIRS: kept %s\n", path_.c_str());
    return;
  }
  std::error_code ignored;  // a directory left behind in TMPDIR is not the test's failure
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace balcao::test_util
