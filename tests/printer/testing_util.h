// Helpers shared by the printer's I/O tests (their temporary directories: tests/testing/temp_dir.h):
// files, the real zbarimg binary, the public BR Code vectors, waiting for the virtual printer's job files.
#pragma once

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace balcao::printer::testing {

inline std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void WriteFile(const std::filesystem::path& p, const std::string& data) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

// Runs the real `zbarimg --raw` on a PNG, for one symbology ("qrcode", "code128"); one
// entry per line of output. QR codes are read with -Sbinary (exact bytes, no charset
// guessing), which does not separate symbols: keep one QR per image.
inline std::vector<std::string> Zbarimg(const std::filesystem::path& png, const std::string& symbology = "qrcode") {
  const std::string binary = symbology == "qrcode" ? " -Sqrcode.binary" : "";
  const std::string cmd =
      "zbarimg --raw -q --nodbus -Sdisable -S" + symbology + ".enable" + binary + " '" + png.string() + "' 2>/dev/null";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  std::string out;
  if (pipe) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
    ::pclose(pipe);
  }
  std::vector<std::string> symbols;
  std::string cur;
  for (char c : out) {
    if (c == '\n') {
      if (!cur.empty()) symbols.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  if (!cur.empty()) symbols.push_back(cur);
  return symbols;
}

// Valid BR Codes of the public vectors (tests/data/formats.json, group brcode).
inline std::vector<std::string> PublicBrCodes() {
  const std::string text = ReadFile(std::filesystem::path(BALCAO_TEST_DATA_DIR) / "formats.json");
  std::vector<std::string> out;
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return out;
  for (const auto& v : j["brcode"]["valid"]) out.push_back(v["input"].get<std::string>());
  return out;
}

// Waits (up to `limit`) for the virtual printer's job-NNNNNN.json; not a timed assertion.
inline bool WaitForJob(const std::filesystem::path& dir, int number,
                       std::chrono::seconds limit = std::chrono::seconds(20)) {
  char name[32];
  std::snprintf(name, sizeof name, "job-%06d.json", number);
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (std::filesystem::exists(dir / name)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

inline std::filesystem::path JobFile(const std::filesystem::path& dir, int number, const char* ext) {
  char name[32];
  std::snprintf(name, sizeof name, "job-%06d.%s", number, ext);
  return dir / name;
}

}  // namespace balcao::printer::testing
