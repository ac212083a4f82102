// The `balcao keys` and `balcao event verify` commands, run as a user runs them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "api/crypto.h"
#include "tests/api/crypto_test_util.h"
#include "tests/testing/status_matchers.h"

namespace balcao::api {
namespace {

using nlohmann::json;
using testing::CommandResult;
using ::testing::HasSubstr;
using testing::LoadWebhookVectors;
using testing::ReadFileOrDie;
using testing::RunCommand;
using testing::ShellQuote;
using testing::TempDir;
using testing::WriteFileOrDie;

CommandResult Balcao(const std::string& args, const std::string& stdin_text = "") {
  return RunCommand(ShellQuote(BALCAO_CLI) + " " + args, stdin_text);
}

unsigned Mode(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? st.st_mode & 07777 : 0;
}

TEST(KeysCommand, CreatesAPrivateKeyPairEvenUnderAPermissiveUmask) {
  TempDir dir;
  const std::string out = dir.File("keys");
  const CommandResult r =
      RunCommand("umask 000 && " + ShellQuote(BALCAO_CLI) + " keys create --out " + ShellQuote(out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Mode(out + "/private.pem"), 0600u);
  EXPECT_EQ(Mode(out + "/public.pem"), 0644u);
  EXPECT_EQ(Mode(out), 0700u);
  auto key = PrivateKey::FromFile(out + "/private.pem");
  ASSERT_OK(key);
  const std::string public_pem = ReadFileOrDie(out + "/public.pem");
  EXPECT_EQ(public_pem, key->public_key().ToPem());
  EXPECT_THAT(r.out, HasSubstr(public_pem)) << "the key to register is shown";

  const CommandResult show = Balcao("keys show --key " + ShellQuote(out + "/private.pem"));
  EXPECT_EQ(show.exit_code, 0) << show.err;
  EXPECT_EQ(show.out, public_pem);
  EXPECT_EQ(Balcao("keys show --key " + ShellQuote(out + "/public.pem")).out, public_pem);
}

TEST(KeysCommand, RefusesToOverwriteWithoutForce) {
  TempDir dir;
  ASSERT_EQ(Balcao("keys create --out " + ShellQuote(dir.path())).exit_code, 0);
  const std::string before = ReadFileOrDie(dir.File("private.pem"));
  const CommandResult again = Balcao("keys create --out " + ShellQuote(dir.path()));
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_THAT(again.err, HasSubstr("already exists; use --force"));
  EXPECT_EQ(ReadFileOrDie(dir.File("private.pem")), before);
  const CommandResult forced = Balcao("keys create --force --out " + ShellQuote(dir.path()));
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_NE(ReadFileOrDie(dir.File("private.pem")), before);
  EXPECT_EQ(Mode(dir.File("private.pem")), 0600u);
  EXPECT_EQ(ReadFileOrDie(dir.File("public.pem")), PrivateKey::FromFile(dir.File("private.pem"))->public_key().ToPem());
}

TEST(KeysCommand, RefusesAnExposedKeyFileAndBadUsage) {
  TempDir dir;
  WriteFileOrDie(dir.File("k.pem"), PrivateKey::Generate().ToPem(), 0644);
  const CommandResult exposed = Balcao("keys show --key " + ShellQuote(dir.File("k.pem")));
  EXPECT_EQ(exposed.exit_code, 1);
  EXPECT_THAT(exposed.err, HasSubstr("chmod 600"));
  EXPECT_THAT(exposed.err, HasSubstr(dir.File("k.pem")));
  for (const char* bad : {"keys", "keys create", "keys create --out", "keys frobnicate", "keys show --out x",
                          "keys create --out d --key x"}) {
    const CommandResult r = Balcao(bad);
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_THAT(r.err, HasSubstr("usage: balcao keys")) << bad;
  }
}

class EventCommand : public ::testing::Test {
 protected:
  EventCommand() : vectors_(LoadWebhookVectors()) {
    WriteFileOrDie(dir_.File("bank.pem"), vectors_.public_key_pem, 0644);
  }
  CommandResult Verify(const std::string& signature, const std::string& body, bool via_file) {
    std::string args =
        "event verify --public-key " + ShellQuote(dir_.File("bank.pem")) + " --signature " + ShellQuote(signature);
    if (!via_file) return Balcao(args, body);
    WriteFileOrDie(dir_.File("body"), body);
    return Balcao(args + " --body " + ShellQuote(dir_.File("body")));
  }

  TempDir dir_;
  testing::WebhookVectors vectors_;
};

TEST_F(EventCommand, PrintsASummaryOfEveryValidDelivery) {
  for (bool via_file : {true, false}) {
    const auto& transfer = vectors_.vectors[0];
    const CommandResult r = Verify(transfer.signature, transfer.content, via_file);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << "one line: " << r.out;
    const json j = json::parse(r.out);
    EXPECT_EQ(j.at("valid"), true);
    EXPECT_EQ(j.at("id"), "6234355449987072");
    EXPECT_EQ(j.at("subscription"), "transfer");
    EXPECT_EQ(j.at("logType"), "sending");
    EXPECT_EQ(j.at("entityId"), "5107489032896512");
  }
  const CommandResult invoice = Verify(vectors_.vectors[2].signature, vectors_.vectors[2].content, true);
  ASSERT_EQ(invoice.exit_code, 0) << invoice.err;
  EXPECT_EQ(json::parse(invoice.out).at("workspaceId"), "5078376503050240");
  // Signed by the bank but not an event envelope: valid, and said so.
  const CommandResult other = Verify(vectors_.vectors[1].signature, vectors_.vectors[1].content, false);
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_EQ(json::parse(other.out).at("isEvent"), false);
}

TEST_F(EventCommand, RejectsTamperingWithAOneLineReason) {
  const auto& v = vectors_.vectors[0];
  std::string body = v.content;
  body[10] ^= 1;
  for (const auto& [sig, text, why] :
       {std::tuple<std::string, std::string, std::string>{v.signature, body, "do not match"},
        {v.signature, v.content + "\n", "do not match"},
        {"something is definitely wrong", v.content, "Digital-Signature is not valid"},
        {vectors_.vectors[2].signature, v.content, "do not match"}}) {
    const CommandResult r = Verify(sig, text, true);
    EXPECT_EQ(r.exit_code, 1) << why;
    EXPECT_THAT(r.err, HasSubstr(why));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

TEST_F(EventCommand, UsageAndUnreadableFilesExitTwo) {
  const auto& v = vectors_.vectors[0];
  EXPECT_EQ(Balcao("event verify --signature " + ShellQuote(v.signature), v.content).exit_code, 2);
  EXPECT_EQ(Balcao("event verify --public-key " + ShellQuote(dir_.File("bank.pem")), v.content).exit_code, 2);
  EXPECT_EQ(Balcao("event check").exit_code, 2);
  EXPECT_EQ(Balcao("event verify --public-key " + ShellQuote(dir_.File("absent.pem")) + " --signature " +
                       ShellQuote(v.signature),
                   v.content)
                .exit_code,
            2);
  EXPECT_EQ(Balcao("event verify --public-key " + ShellQuote(dir_.File("bank.pem")) + " --signature " +
                   ShellQuote(v.signature) + " --body " + ShellQuote(dir_.File("absent.json")))
                .exit_code,
            2);
}

TEST_F(EventCommand, VerifiesWhatAKeyFromKeysCreateSigned) {
  ASSERT_EQ(Balcao("keys create --out " + ShellQuote(dir_.File("k"))).exit_code, 0);
  const std::string body =
      R"({"event": {"created": "2024-05-10T15:00:00.000000+00:00", "id": "1", "log": {"created": "2024-05-10T15:00:00+00:00", "errors": [], "id": "2", "invoice": {"id": "3", "status": "paid"}, "type": "paid"}, "subscription": "invoice", "workspaceId": "4"}})";
  const std::string sig = PrivateKey::FromFile(dir_.File("k/private.pem"))->Sign(body);
  const CommandResult r = Balcao(
      "event verify --public-key " + ShellQuote(dir_.File("k/public.pem")) + " --signature " + ShellQuote(sig), body);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out).at("entityStatus"), "paid");
}

}  // namespace
}  // namespace balcao::api
