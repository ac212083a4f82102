// The config file a test hands to `balcao serve --config` (docs/terminal.md).
#pragma once

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace balcao::test_util {

// Writes `config` as `dir`/config.json (making `dir` if needed); returns its path.
inline std::string WriteConfig(const std::filesystem::path& dir, const nlohmann::json& config) {
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "config.json").string();
  std::ofstream(path) << config.dump(2);
  return path;
}

}  // namespace balcao::test_util
