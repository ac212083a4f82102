// Helpers shared by the crypto tests: the webhook vectors, scratch directories, running
// a shell command and capturing its output. Test-only; single-threaded use.
#pragma once

#include <string>
#include <vector>

#include "tests/testing/temp_dir.h"

namespace balcao::api::testing {

struct WebhookVector {
  std::string source;
  std::string content;
  std::string signature;
};
struct WebhookVectors {
  std::string public_key_pem;
  std::vector<WebhookVector> vectors;
};
// tests/data/webhooks.json: the bank's signed sample deliveries and its public key
WebhookVectors LoadWebhookVectors();

std::string ReadFileOrDie(const std::string& path);
void WriteFileOrDie(const std::string& path, const std::string& contents, unsigned mode = 0600);

// A fresh directory under TMPDIR, removed with its contents on destruction.
using test_util::TempDir;

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};
// Runs `command` with /bin/sh; stdin_text (if any) is fed through a temporary file.
CommandResult RunCommand(const std::string& command, const std::string& stdin_text = "");
std::string ShellQuote(const std::string& s);

}  // namespace balcao::api::testing
