// `balcao event verify --public-key FILE --signature B64 [--body FILE]`: checks a webhook
// delivery's Digital-Signature over the exact body bytes (stdin when --body is absent)
// and prints a one-line JSON summary of the event.
// Exit 0 valid, 1 invalid (with a one-line reason), 2 usage or I/O error.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "api/crypto.h"
#include "api/events.h"
#include "common/time.h"
#include "terminal/command.h"

namespace balcao::terminal {
namespace {

using nlohmann::json;

constexpr const char* kUsage =
    "usage: balcao event verify --public-key FILE --signature B64 [--body FILE]\n"
    "Verifies the Digital-Signature header of a webhook delivery over the exact body bytes\n"
    "(read from FILE, or stdin; a trailing newline added by an editor or `echo` changes them).\n"
    "FILE of --public-key: the bank's key PEM (GET /v2/public-key), BEGIN PUBLIC KEY.\n"
    "Prints one JSON line: {valid, isEvent, id, subscription, logType, entityId, ...}.\n"
    "Exit 0 valid, 1 invalid (reason on stderr), 2 usage or I/O error.\n";

int Usage(const std::string& problem) {
  std::fprintf(stderr, "balcao event: %s\n%s", problem.c_str(), kUsage);
  return 2;
}

int Invalid(const std::string& reason) {
  std::fprintf(stderr, "invalid: %s\n", reason.c_str());
  return 1;
}

bool ReadAll(std::istream& in, std::string& out) {
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

json Summary(const api::Event& e) {
  json out = {{"valid", true},
              {"isEvent", true},
              {"id", e.id},
              {"created", FormatTimestamp(e.created)},
              {"subscription", e.subscription},
              {"logId", e.log.id},
              {"logType", e.log.type},
              {"logCreated", FormatTimestamp(e.log.created)}};
  if (!e.workspace_id.empty()) out["workspaceId"] = e.workspace_id;
  if (!e.log.entity_key.empty()) out["entityKey"] = e.log.entity_key;
  if (!e.log.entity_id.empty()) out["entityId"] = e.log.entity_id;
  if (!e.log.entity_status.empty()) out["entityStatus"] = e.log.entity_status;
  if (!e.log.errors.empty()) out["logErrors"] = e.log.errors;
  return out;
}

int Verify(const std::string& key_file, const std::string& signature, const std::string& body_file) {
  std::ifstream key_in(key_file, std::ios::binary);
  std::string key_pem;
  if (!key_in || !ReadAll(key_in, key_pem)) {
    std::fprintf(stderr, "balcao event: cannot read %s: %s\n", key_file.c_str(), std::strerror(errno));
    return 2;
  }
  auto key = api::PublicKey::FromPem(key_pem);
  if (!key.ok()) {
    std::fprintf(stderr, "balcao event: %s: %s\n", key_file.c_str(), key.status().message().c_str());
    return 2;
  }
  std::string body;
  if (body_file.empty()) {
    if (::isatty(STDIN_FILENO)) std::fputs("balcao event: reading the body from stdin (end with Ctrl-D)\n", stderr);
    ReadAll(std::cin, body);
  } else {
    std::ifstream body_in(body_file, std::ios::binary);
    if (!body_in || !ReadAll(body_in, body)) {
      std::fprintf(stderr, "balcao event: cannot read %s: %s\n", body_file.c_str(), std::strerror(errno));
      return 2;
    }
  }
  auto sig = api::Signature::FromBase64(signature);
  if (!sig.ok()) return Invalid("Digital-Signature is not valid: " + sig.status().message());
  if (!key->Verify(body, *sig)) {
    return Invalid("signature and body (" + std::to_string(body.size()) + " bytes) do not match the public key in " +
                   key_file);
  }
  auto event = api::ParseEvent(body);
  if (!event.ok()) {
    // Signed by the bank but not an event (e.g. a corporate purchase authorization).
    std::printf("%s\n", json{{"valid", true}, {"isEvent", false}, {"detail", event.status().message()}}.dump().c_str());
    return 0;
  }
  std::printf("%s\n", Summary(*event).dump().c_str());
  return 0;
}

int RunEvent(const std::vector<std::string>& args) {
  if (args.empty()) return Usage("missing subcommand (verify)");
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (args[0] != "verify") return Usage("unknown subcommand '" + args[0] + "'");
  std::string key_file, signature, body_file;
  bool has_signature = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    std::string* target = a == "--public-key"  ? &key_file
                          : a == "--signature" ? &signature
                          : a == "--body"      ? &body_file
                                               : nullptr;
    if (target == nullptr) return Usage("unknown option '" + a + "'");
    if (i + 1 >= args.size()) return Usage(a + " needs a value");
    *target = args[++i];
    if (target == &signature) has_signature = true;
  }
  if (key_file.empty()) return Usage("--public-key FILE is required");
  if (!has_signature) return Usage("--signature B64 is required");
  return Verify(key_file, signature, body_file);
}

}  // namespace

BALCAO_COMMAND("event", "verify a webhook delivery's signature and summarise the event", RunEvent);

}  // namespace balcao::terminal
