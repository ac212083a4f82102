// `balcao api` end to end: the real executable, configured from the environment, against
// the recording loopback server. Checks what goes on the wire, what is printed and the
// exit codes (0 ok, 1 refused as invalid, 2 other errors).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>

#include "tests/api/client_test_util.h"

namespace balcao::api {
namespace {

using testing::RecordedRequest;
using testing::Reply;

struct CliRun {
  int exit_code;
  std::string out;
};

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("balcao-api-cli-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    key_path_ = (dir_ / "key.pem").string();
    ASSERT_TRUE(server_.key().WriteFile(key_path_, true).ok());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  CliRun Balcao(const std::string& args) {
    const std::string cmd = "BALCAO_CREDENTIALS= BALCAO_BANK_URL=" + server_.http().url() +
                            " BALCAO_ACCESS_ID=project/4242 BALCAO_PRIVATE_KEY=" + key_path_ + " " + BALCAO_CLI +
                            " api " + args + " 2>" + (dir_ / "err").string();
    FILE* p = ::popen(cmd.c_str(), "r");
    CliRun r{-1, {}};
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int status = ::pclose(p);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
  }

  testing::SignedServer server_;
  std::filesystem::path dir_;
  std::string key_path_;
};

TEST_F(CliTest, ListGetCreatePatch) {
  server_.SetHandler([](const RecordedRequest& r) {
    if (r.path == "/v2/balance") return Reply{200, R"({"cursor":null,"balances":[{"id":"1","amount":500}]})"};
    if (r.method == "GET") return Reply{200, R"({"cursor":"c2","invoices":[{"id":"7","status":"paid"}]})"};
    if (r.method == "POST") return Reply{200, R"({"invoices":[{"id":"8","amount":1000}]})"};
    return Reply{200, R"({"invoice":{"id":"7","status":"canceled"}})"};
  });
  CliRun list = Balcao("list invoice --limit 5 --status paid");
  EXPECT_EQ(list.exit_code, 0);
  EXPECT_NE(list.out.find("\"status\": \"paid\""), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("\"cursor\": \"c2\""), std::string::npos) << list.out;
  auto req = server_.http().Requests().back();
  EXPECT_EQ(req.path, "/v2/invoice");
  EXPECT_EQ(req.query, "limit=5&status=paid");

  CliRun balance = Balcao("get /v2/balance");
  EXPECT_EQ(balance.exit_code, 0);
  EXPECT_NE(balance.out.find("\"amount\": 500"), std::string::npos) << balance.out;

  CliRun create = Balcao(R"(create invoice --json '{"amount":1000,"name":"Ana","taxId":"012.345.678-90"}')");
  EXPECT_EQ(create.exit_code, 0) << create.out;
  req = server_.http().Requests().back();
  EXPECT_EQ(req.method, "POST");
  EXPECT_EQ(req.body, R"({"invoices":[{"amount":1000,"name":"Ana","taxId":"012.345.678-90"}]})");

  CliRun patch = Balcao(R"(patch invoice 7 --json '{"status":"canceled"}')");
  EXPECT_EQ(patch.exit_code, 0);
  req = server_.http().Requests().back();
  EXPECT_EQ(req.method, "PATCH");
  EXPECT_EQ(req.path, "/v2/invoice/7");
  EXPECT_EQ(req.body, R"({"status":"canceled"})");
  EXPECT_EQ(server_.bad_signatures(), 0);
}

TEST_F(CliTest, ExitCodes) {
  server_.SetHandler([](const RecordedRequest&) {
    return Reply{400, R"({"errors":[{"code":"invalidInvoice","message":"unknown"}]})"};
  });
  EXPECT_EQ(Balcao("show invoice 1").exit_code, 1);
  EXPECT_EQ(Balcao("list invoice --staus paid").exit_code, 1);  // unknown filter, not sent
  server_.SetHandler([](const RecordedRequest&) { return Reply{500, "fault"}; });
  EXPECT_EQ(Balcao("delete boleto 1").exit_code, 2);
  EXPECT_EQ(Balcao("frobnicate").exit_code, 2);
  EXPECT_EQ(Balcao("list nosuchthing").exit_code, 1);
}

}  // namespace
}  // namespace balcao::api
