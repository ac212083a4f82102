// A private temporary directory for one test: $TMPDIR/balcao-<name>-XXXXXX (mkdtemp), removed
// with its contents when the TempDir goes. When the test failed and BALCAO_KEEP_TEST_DIRS is
// set (to anything but empty), the directory stays for a look and its path is printed.
#pragma once

#include <filesystem>
#include <string>

namespace balcao::test_util {

class TempDir {
 public:
  explicit TempDir(const std::string& name = "test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // The path of `name` inside the directory, as text.
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace balcao::test_util
