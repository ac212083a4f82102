#include "tests/api/crypto_test_util.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace balcao::api::testing {

WebhookVectors LoadWebhookVectors() {
  const auto j = nlohmann::json::parse(ReadFileOrDie(std::string(BALCAO_TEST_DATA_DIR) + "/webhooks.json"));
  WebhookVectors out;
  out.public_key_pem = j.at("public_key_pem").get<std::string>();
  for (const auto& v : j.at("vectors")) {
    out.vectors.push_back({v.at("source").get<std::string>(), v.at("content").get<std::string>(),
                           v.at("digital_signature").get<std::string>()});
  }
  return out;
}

std::string ReadFileOrDie(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteFileOrDie(const std::string& path, const std::string& contents, unsigned mode) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + path);
    out << contents;
  }
  if (::chmod(path.c_str(), mode) != 0) throw std::runtime_error("cannot chmod " + path);
}

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  return out + "'";
}

CommandResult RunCommand(const std::string& command, const std::string& stdin_text) {
  TempDir dir;
  const std::string input = dir.File("stdin");
  const std::string errors = dir.File("stderr");
  WriteFileOrDie(input, stdin_text);
  const std::string full = "(" + command + ") < " + ShellQuote(input) + " 2> " + ShellQuote(errors);
  CommandResult result;
  FILE* pipe = ::popen(full.c_str(), "r");
  if (!pipe) throw std::runtime_error("popen failed");
  char buf[4096];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) result.out.append(buf, n);
  const int status = ::pclose(pipe);
  result.err = ReadFileOrDie(errors);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace balcao::api::testing
