// Signatures interoperate in both directions with the `openssl` CLI and with the bank's
// official Node library, starkbank-ecdsa (pinned in tests/api/node_ecdsa/package-lock.json).
// Missing openssl, node or npm is a failure, not a skip: these are the proof of
// compatibility with the bank.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/crypto.h"
#include "tests/api/crypto_test_util.h"
#include "tests/testing/status_matchers.h"

namespace balcao::api {
namespace {

using nlohmann::json;
using testing::CommandResult;
using testing::ReadFileOrDie;
using testing::RunCommand;
using testing::ShellQuote;
using testing::TempDir;
using testing::WriteFileOrDie;

// What the client signs (docs/wire.md, "Signing"): id:time:body, with an empty body for
// GET, plus non-ASCII and large bodies.
std::vector<std::string> Messages() {
  std::vector<std::string> m = {
      "project/5656565656565656:1795272727:",
      "organization/1/workspace/2:1712345678.1234567:{\"invoices\":[{\"amount\":100,\"name\":\"Jo\xc3\xa3o da Silva\","
      "\"taxId\":\"012.345.678-90\"}]}",
      "",
      "project/1:1:" + std::string(5000, 'x'),
  };
  for (int i = 0; i < 12; ++i)
    m.push_back("project/7:" + std::to_string(1700000000 + i) + ":{\"n\":" + std::to_string(i) + "}");
  return m;
}

void RequireTool(const char* tool) {
  const CommandResult r = RunCommand(std::string("command -v ") + tool);
  ASSERT_EQ(r.exit_code, 0) << tool << " is not installed: run deploy/install-deps.sh (interop cannot be checked)";
}

// ---- openssl CLI ----

class OpensslInterop : public ::testing::Test {
 protected:
  void SetUp() override { RequireTool("openssl"); }

  // openssl dgst -sha256 -verify PUB -signature SIG MSG
  bool OpensslVerifies(const std::string& public_pem, const std::string& message, const std::string& der) {
    WriteFileOrDie(dir_.File("pub.pem"), public_pem, 0644);
    WriteFileOrDie(dir_.File("msg"), message);
    WriteFileOrDie(dir_.File("sig.der"), der);
    const CommandResult r =
        RunCommand("openssl dgst -sha256 -verify " + ShellQuote(dir_.File("pub.pem")) + " -signature " +
                   ShellQuote(dir_.File("sig.der")) + " " + ShellQuote(dir_.File("msg")));
    return r.exit_code == 0 && r.out.find("Verified OK") != std::string::npos;
  }

  // openssl dgst -sha256 -sign KEY MSG, as DER bytes.
  std::string OpensslSigns(const std::string& key_file, const std::string& message) {
    WriteFileOrDie(dir_.File("msg"), message);
    const CommandResult r = RunCommand("openssl dgst -sha256 -sign " + ShellQuote(key_file) + " -out " +
                                       ShellQuote(dir_.File("sig.der")) + " " + ShellQuote(dir_.File("msg")));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return ReadFileOrDie(dir_.File("sig.der"));
  }

  TempDir dir_;
};

TEST_F(OpensslInterop, OpensslKeyLoadsAndBothSidesVerifyEachOther) {
  const std::string key_file = dir_.File("openssl.pem");
  ASSERT_EQ(RunCommand("openssl ecparam -name secp256k1 -genkey -out " + ShellQuote(key_file)).exit_code, 0);
  ASSERT_EQ(::chmod(key_file.c_str(), 0600), 0);
  ASSERT_THAT(ReadFileOrDie(key_file), ::testing::HasSubstr("BEGIN EC PARAMETERS"));
  auto key = PrivateKey::FromFile(key_file);
  ASSERT_OK(key);
  const CommandResult pub = RunCommand("openssl ec -in " + ShellQuote(key_file) + " -pubout");
  ASSERT_EQ(pub.exit_code, 0) << pub.err;
  EXPECT_EQ(pub.out, key->public_key().ToPem()) << "same SubjectPublicKeyInfo bytes as openssl";

  bool saw_high_s = false;
  for (const std::string& m : Messages()) {
    // Ours -> openssl.
    const Signature ours = key->SignToSignature(m);
    EXPECT_TRUE(OpensslVerifies(pub.out, m, ours.ToDer())) << m;
    EXPECT_FALSE(OpensslVerifies(pub.out, m + ".", ours.ToDer())) << "openssl must reject a changed message";
    // openssl (random nonces, high-S half of the time) -> ours.
    const std::string der = OpensslSigns(key_file, m);
    auto theirs = Signature::FromDer(der);
    ASSERT_OK(theirs);
    saw_high_s |= !theirs->IsLowS();
    EXPECT_TRUE(key->public_key().Verify(m, Base64Encode(der))) << m;
    EXPECT_FALSE(key->public_key().Verify(m + ".", Base64Encode(der)));
    EXPECT_EQ(theirs->ToDer(), der) << "our DER encoder writes what openssl writes";
  }
  EXPECT_TRUE(saw_high_s) << "16 openssl signatures without one high-S: chance 2^-16";
}

TEST_F(OpensslInterop, OurKeyFileWorksWithOpenssl) {
  const PrivateKey key = PrivateKey::Generate();
  const std::string key_file = dir_.File("ours.pem");
  ASSERT_OK(key.WriteFile(key_file, false));
  const CommandResult check = RunCommand("openssl ec -in " + ShellQuote(key_file) + " -check -noout");
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_THAT(check.err, ::testing::HasSubstr("EC Key valid"));
  const CommandResult pub = RunCommand("openssl ec -in " + ShellQuote(key_file) + " -pubout");
  EXPECT_EQ(pub.out, key.public_key().ToPem());
  const std::string m = Messages()[1];
  EXPECT_TRUE(key.public_key().Verify(m, Base64Encode(OpensslSigns(key_file, m))));
}

// ---- starkbank-ecdsa (npm) ----

// Installs the pinned package with `npm ci` once; concurrent test processes wait on a lock.
std::string NodeFolder() {
  const std::string folder = std::string(BALCAO_SOURCE_DIR) + "/tests/api/node_ecdsa";
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) ADD_FAILURE() << "missing " << folder;
  if (fd >= 0) ::flock(fd, LOCK_EX);
  if (::access((folder + "/node_modules/starkbank-ecdsa/package.json").c_str(), R_OK) != 0) {
    const CommandResult r =
        RunCommand("cd " + ShellQuote(folder) + " && timeout 300 npm ci --no-audit --no-fund --loglevel=error");
    EXPECT_EQ(r.exit_code, 0) << "npm ci failed in " << folder << ":\n" << r.out << r.err;
  }
  if (fd >= 0) ::close(fd);  // releases the lock
  return folder;
}

TEST(NodeInterop, StarkbankEcdsaAndWeAgreeBothWays) {
  RequireTool("node");
  RequireTool("npm");
  const std::string folder = NodeFolder();
  const PrivateKey key = PrivateKey::Generate();
  const std::vector<std::string> messages = Messages();
  json input = {
      {"privateKeyPem", "-----BEGIN EC PARAMETERS-----\nBgUrgQQACg==\n-----END EC PARAMETERS-----\n" + key.ToPem()},
      {"publicKeyPem", key.public_key().ToPem()},
      {"messages", messages},
      {"signatures", json::array()}};
  for (const auto& m : messages) input["signatures"].push_back(key.Sign(m));
  const CommandResult r = RunCommand("cd " + ShellQuote(folder) + " && node interop.js", input.dump());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);

  EXPECT_EQ(out.at("publicKeyPemFromPrivate").get<std::string>(), key.public_key().ToPem());
  for (std::size_t i = 0; i < messages.size(); ++i) {
    EXPECT_TRUE(out.at("verified")[i].get<bool>()) << "node rejected our signature of message " << i;
    EXPECT_FALSE(out.at("crossChecked")[i].get<bool>()) << "node accepted our signature of another message";
    // Node's own signatures (hedged nonces) verify here and are low-S like ours...
    const std::string theirs = out.at("signatures")[i].get<std::string>();
    EXPECT_TRUE(key.public_key().Verify(messages[i], theirs)) << i;
    EXPECT_TRUE(Signature::FromBase64(theirs)->IsLowS()) << i;
    // ...and with the hedging entropy left out both sides are plain RFC 6979: same bytes.
    EXPECT_EQ(out.at("deterministicSignatures")[i].get<std::string>(), input["signatures"][i].get<std::string>()) << i;
  }

  // A key made by node loads here, and its signatures verify here.
  const json own = out.at("own");
  auto node_key = PrivateKey::FromPem(own.at("privateKeyPem").get<std::string>());
  ASSERT_OK(node_key);
  auto node_pub = PublicKey::FromPem(own.at("publicKeyPem").get<std::string>());
  ASSERT_OK(node_pub);
  EXPECT_EQ(node_key->public_key(), *node_pub);
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const std::string sig = own.at("signatures")[i].get<std::string>();
    EXPECT_TRUE(node_pub->Verify(messages[i], sig)) << i;
    EXPECT_FALSE(node_pub->Verify(messages[i] + " ", sig)) << i;
  }
}

}  // namespace
}  // namespace balcao::api
