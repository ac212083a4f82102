// `balcao api` end to end: the real executable, configured from the environment, against
// the recording loopback server. Checks what goes on the wire, what is printed (compact:
// stdout is a pipe here; indenting is for a terminal), streamed lists both ways, and the
// exit codes (0 ok, 1 refused as invalid, 2 other errors).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

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

  CliRun Balcao(const std::string& args, const std::string& stdin_text = "") {
    std::string input = "/dev/null";
    if (!stdin_text.empty()) {
      input = (dir_ / "stdin").string();
      std::ofstream(input, std::ios::binary) << stdin_text;
    }
    const std::string cmd = "BALCAO_CREDENTIALS= BALCAO_BANK_URL=" + server_.http().url() +
                            " BALCAO_ACCESS_ID=project/4242 BALCAO_PRIVATE_KEY=" + key_path_ + " " + BALCAO_CLI +
                            " api " + args + " <" + input + " 2>" + (dir_ / "err").string();
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
  EXPECT_EQ(list.out, R"({"cursor":"c2","invoices":[{"id":"7","status":"paid"}]})"
                      "\n");
  auto req = server_.http().Requests().back();
  EXPECT_EQ(req.path, "/v2/invoice");
  EXPECT_EQ(req.query, "limit=5&status=paid");

  CliRun balance = Balcao("get /v2/balance");
  EXPECT_EQ(balance.exit_code, 0);
  EXPECT_EQ(balance.out, R"({"cursor":null,"balances":[{"id":"1","amount":500}]})"
                         "\n");

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

// `list --all` follows the cursor and writes each page's items as they come: a JSON array by
// default, JSON Lines with --jsonl; the same for logs.
TEST_F(CliTest, ListAllStreamsAJsonArrayOrJsonLines) {
  server_.SetHandler([](const RecordedRequest& r) {
    const bool log = r.path == "/v2/invoice/log";
    const std::string key = log ? "logs" : "invoices";
    std::string items;
    int page = r.query.find("cursor=p3") != std::string::npos   ? 3
               : r.query.find("cursor=p2") != std::string::npos ? 2
                                                                : 1;
    for (int i = 0; i < (page == 3 ? 1 : 100); ++i) {
      items += (i ? "," : "") + std::string(R"({"id":")") + std::to_string(page * 1000 + i) +
               R"(","note":"a \"quoted\", {braced} text"})";
    }
    const std::string cursor = page == 3 ? "null" : "\"p" + std::to_string(page + 1) + "\"";
    return Reply{200, "{\"cursor\":" + cursor + ",\"" + key + "\":[" + items + "]}"};
  });
  CliRun array = Balcao("list invoice --all");
  ASSERT_EQ(array.exit_code, 0) << array.out;
  const nlohmann::json doc = nlohmann::json::parse(array.out, nullptr, false);
  ASSERT_TRUE(doc.is_array()) << array.out.substr(0, 300);
  ASSERT_EQ(doc.size(), 201u);
  EXPECT_EQ(doc[0]["id"], "1000");
  EXPECT_EQ(doc[200]["id"], "3000");
  EXPECT_EQ(doc[200]["note"], "a \"quoted\", {braced} text");
  EXPECT_EQ(server_.http().Requests().size(), 3u);

  CliRun lines = Balcao("list invoice --all --jsonl");
  ASSERT_EQ(lines.exit_code, 0);
  std::istringstream in(lines.out);
  std::string line;
  int count = 0;
  while (std::getline(in, line)) {
    EXPECT_TRUE(nlohmann::json::parse(line, nullptr, false).is_object()) << line;
    ++count;
  }
  EXPECT_EQ(count, 201);

  CliRun logs = Balcao("list invoice --log --all");
  ASSERT_EQ(logs.exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(logs.out, nullptr, false).size(), 201u) << logs.out.substr(0, 300);

  server_.SetHandler([](const RecordedRequest&) { return Reply{200, R"({"cursor":null,"invoices":[]})"}; });
  EXPECT_EQ(Balcao("list invoice --all").out, "[]\n");
  EXPECT_EQ(Balcao("list invoice --all --jsonl").out, "");
}

// `create` reads its input as it goes (a JSON array, JSON Lines, from a file or stdin) and
// sends it in chunks of 100, writing what the bank created; bad input is refused naming the
// item, after the chunks before it were sent.
TEST_F(CliTest, CreateSendsItsInputInChunksAsItIsRead) {
  server_.SetHandler([](const RecordedRequest& r) {
    const nlohmann::json body = nlohmann::json::parse(r.body);
    nlohmann::json created = nlohmann::json::array();
    for (const auto& item : body["invoices"]) created.push_back({{"id", std::to_string(item["amount"].get<int>())}});
    return Reply{200, nlohmann::json{{"invoices", created}}.dump()};
  });
  std::string array = "[\n";
  for (int i = 1; i <= 250; ++i) {
    array += (i > 1 ? ",\n" : "") + std::string(R"({"amount":)") + std::to_string(i) +
             R"(,"name":"Ana {x}, \"y\"","taxId":"012.345.678-90"})";
  }
  std::ofstream((dir_ / "many.json").string()) << array << "\n]\n";
  CliRun created = Balcao("create invoice --json @" + (dir_ / "many.json").string());
  ASSERT_EQ(created.exit_code, 0) << created.out;
  const nlohmann::json doc = nlohmann::json::parse(created.out, nullptr, false);
  ASSERT_EQ(doc.size(), 250u) << created.out.substr(0, 300);
  EXPECT_EQ(doc[249]["id"], "250");
  const auto requests = server_.http().Requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(nlohmann::json::parse(requests[0].body)["invoices"].size(), 100u);
  EXPECT_EQ(nlohmann::json::parse(requests[2].body)["invoices"].size(), 50u);
  EXPECT_EQ(nlohmann::json::parse(requests[0].body)["invoices"][0]["name"], "Ana {x}, \"y\"");

  CliRun piped =
      Balcao("create invoice --json @- --jsonl", "{\"amount\":7,\"name\":\"Ana\"}\n{\"amount\":8,\"name\":\"Bia\"}\n");
  ASSERT_EQ(piped.exit_code, 0) << piped.out;
  EXPECT_EQ(piped.out, R"({"id":"7"})"
                       "\n"
                       R"({"id":"8"})"
                       "\n");

  std::string bad = "[";
  for (int i = 1; i <= 120; ++i) bad += (i > 1 ? "," : "") + std::string(R"({"amount":)") + std::to_string(i) + "}";
  bad += ",42]";
  const std::size_t before = server_.http().Requests().size();
  CliRun refused = Balcao("create invoice --json @-", bad);
  EXPECT_EQ(refused.exit_code, 1) << refused.out;
  EXPECT_EQ(server_.http().Requests().size(), before + 1) << "the first 100 were sent";
  EXPECT_EQ(nlohmann::json::parse(refused.out, nullptr, false).size(), 100u) << refused.out.substr(0, 200);
  std::ifstream err((dir_ / "err").string());
  std::stringstream why;
  why << err.rdbuf();
  EXPECT_NE(why.str().find("item 121"), std::string::npos) << why.str();
  EXPECT_EQ(Balcao("create invoice --json '{\"amount\":1'").exit_code, 1);
  EXPECT_EQ(Balcao("create invoice --json '[1]'").exit_code, 1);
}

}  // namespace
}  // namespace balcao::api
