// Helpers shared by the offline tests: a private temporary directory per test
// (tests/testing/temp_dir.h) and reading every file of it back as bytes.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "common/log.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace balcao::offline::testing {

using test_util::TempDir;

inline std::string ReadBytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// How often the card secrets occur in `bytes`: as ASCII, as hex text (lower and upper
// case) and, for card numbers, as packed BCD. A short secret (a security code) counts as
// ASCII only when not inside a longer digit run: "7391" inside a 16-digit bank id or a
// timestamp is chance, not a leak. Packed BCD of a 4-digit code is 2 bytes and occurs
// by chance in any binary file (ciphertext included), so it is not searched.
inline int CountSecretHits(const std::string& bytes, const std::vector<std::string>& secrets) {
  const auto is_digit = [&](std::size_t i) { return i < bytes.size() && bytes[i] >= '0' && bytes[i] <= '9'; };
  int hits = 0;
  for (const std::string& s : secrets) {
    std::string hex, upper_hex, bcd;
    for (unsigned char c : s) {
      hex += "0123456789abcdef"[c >> 4];
      hex += "0123456789abcdef"[c & 15];
      upper_hex += "0123456789ABCDEF"[c >> 4];
      upper_hex += "0123456789ABCDEF"[c & 15];
    }
    const bool short_secret = s.size() < 13;
    for (std::size_t i = 0; !short_secret && i + 1 < s.size(); i += 2)
      bcd += static_cast<char>(((s[i] - '0') << 4) | (s[i + 1] - '0'));
    for (std::size_t at = bytes.find(s); !s.empty() && at != std::string::npos; at = bytes.find(s, at + 1))
      if (!short_secret || ((at == 0 || !is_digit(at - 1)) && !is_digit(at + s.size()))) ++hits;
    for (const std::string& needle : {hex, upper_hex, bcd})
      for (std::size_t at = bytes.find(needle); !needle.empty() && at != std::string::npos;
           at = bytes.find(needle, at + 1))
        ++hits;
  }
  return hits;
}

// CountSecretHits over every regular file of `dir` but the key-encryption key.
inline int CountSecretHitsInDir(const std::filesystem::path& dir, const std::vector<std::string>& secrets) {
  int hits = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().filename() != "kek")
      hits += CountSecretHits(ReadBytes(entry.path()), secrets);
  return hits;
}

// The service's log (common/log.h) in a file of the data dir while this lives; back to
// stderr when the test ends, however it ends.
class ScopedLogFile {
 public:
  explicit ScopedLogFile(const std::string& path) { EXPECT_OK(logging::SetLogFile(path)) << path; }
  ~ScopedLogFile() { (void)logging::SetLogFile(""); }
  ScopedLogFile(const ScopedLogFile&) = delete;
  ScopedLogFile& operator=(const ScopedLogFile&) = delete;
};

// The control of a 0-hit scan: `secret` planted in `dir`/`name` (as ASCII, then as hex
// text) must raise CountSecretHitsInDir. The file is cut back to its size after each plant,
// so this may run on the files of a store still open (nothing writes in between).
inline void ExpectPlantFound(const std::filesystem::path& dir, const std::string& name, const std::string& secret,
                             const std::vector<std::string>& secrets) {
  const std::filesystem::path file = dir / name;
  ASSERT_TRUE(std::filesystem::is_regular_file(file)) << name << " is missing";
  const auto size = std::filesystem::file_size(file);
  const int before = CountSecretHitsInDir(dir, secrets);
  std::string hex;
  for (unsigned char c : secret) {
    hex += "0123456789abcdef"[c >> 4];
    hex += "0123456789abcdef"[c & 15];
  }
  for (const std::string& plant : {secret, hex}) {
    { std::ofstream(file, std::ios::app | std::ios::binary) << "\n" << plant << "\n"; }
    EXPECT_GT(CountSecretHitsInDir(dir, secrets), before) << "a planted secret in " << name << " was not found";
    std::filesystem::resize_file(file, size);
  }
  EXPECT_EQ(CountSecretHitsInDir(dir, secrets), before) << name << " not restored";
}

}  // namespace balcao::offline::testing
