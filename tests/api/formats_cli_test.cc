// `balcao format check`: the real executable (BALCAO_CLI) run as a child process; its JSON
// output parsed back and its exit codes checked.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/testing/spawn.h"

namespace {

using nlohmann::json;

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string ReadAll(int fd) {
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  close(fd);
  return text;
}

// Runs BALCAO_CLI with `args` (no shell), feeding `input` on stdin.
CliResult RunCli(const std::vector<std::string>& args, const std::string& input = "") {
  int to_child[2];
  int from_child[2];
  int err_child[2];  // outputs here are small: reading stdout then stderr cannot block
  if (pipe(to_child) != 0 || pipe(from_child) != 0 || pipe(err_child) != 0) return {};
  std::vector<std::string> argv{BALCAO_CLI};
  argv.insert(argv.end(), args.begin(), args.end());
  const pid_t pid = balcao::test_util::SpawnChild(argv, {.in = to_child[0], .out = from_child[1], .err = err_child[1]});
  close(to_child[0]);
  close(from_child[1]);
  close(err_child[1]);
  if (pid < 0) {
    close(to_child[1]);
    close(from_child[0]);
    close(err_child[0]);
    return {};
  }
  if (!input.empty()) {
    EXPECT_EQ(write(to_child[1], input.data(), input.size()), static_cast<ssize_t>(input.size()));
  }
  close(to_child[1]);
  CliResult r;
  r.out = ReadAll(from_child[0]);
  r.err = ReadAll(err_child[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

json Parsed(const CliResult& r) {
  json j = json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.out;
  return j;
}

TEST(FormatCli, ValidBrCodePrintsKindFieldsAndExitsZero) {
  CliResult r = RunCli({"format", "check",
                        "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR"
                        "5913Fulano de Tal6008BRASILIA62070503***63041D3D"});
  EXPECT_EQ(r.exit_code, 0);
  json j = Parsed(r);
  EXPECT_EQ(j["kind"], "brcode");
  EXPECT_EQ(j["valid"], true);
  EXPECT_EQ(j["errors"], json::array());
  EXPECT_EQ(j["fields"]["merchant_name"], "Fulano de Tal");
  EXPECT_EQ(j["fields"]["kind"], "static");
  EXPECT_EQ(j["fields"]["crc_computed"], "1D3D");
}

TEST(FormatCli, InvalidCodeExitsOneWithTheRule) {
  CliResult r = RunCli({"format", "check", "00153373700000001000500940144816060680935031"});
  EXPECT_EQ(r.exit_code, 1);
  json j = Parsed(r);
  EXPECT_EQ(j["kind"], "boleto-barcode");
  EXPECT_EQ(j["valid"], false);
  EXPECT_EQ(j["errors"], (json{"general DV (pos 5) is 3, expected 6", "currency code (pos 4) is 5, not 9 (real)"}));
}

TEST(FormatCli, UnquotedLineWordsAreJoinedAndDatesResolveAgainstTheReference) {
  CliResult r = RunCli({"format", "check", "--reference-date", "2025-06-15", "00190.50095", "40144.816069",
                        "06809.350314", "3", "37370000000100"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  json j = Parsed(r);
  EXPECT_EQ(j["kind"], "boleto-line");
  EXPECT_EQ(j["fields"]["amount_cents"], 100);
  EXPECT_EQ(j["fields"]["due_date"], "2032-08-21");
  EXPECT_EQ(j["fields"]["due_date_candidates"], (json{"2007-12-31", "2032-08-21"}));
}

TEST(FormatCli, NestedTemplatesAndStdin) {
  CliResult r =
      RunCli({"format", "check", "-"},
             "00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd441520400005303"
             "9865802BR5913Fulano de Tal6008BRASILIA62070503***80740014br.gov.bcb.pix2552pix.example.com/rec/"
             "2353c790eefb11eaadc10242ac1200026304FB42\n");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(Parsed(r)["fields"]["unreserved_templates"]["80"]["25"],
            "pix.example.com/rec/2353c790eefb11eaadc10242ac120002");
}

TEST(FormatCli, TaxIdsAndE2e) {
  json cpf = Parsed(RunCli({"format", "check", "33745107608"}));
  EXPECT_EQ(cpf["kind"], "cpf");
  EXPECT_EQ(cpf["fields"]["formatted"], "337.451.076-08");
  EXPECT_EQ(cpf["fields"]["checksum_ok"], true);
  json cnpj = Parsed(RunCli({"format", "check", "12.abc.345/01de-35"}));
  EXPECT_EQ(cnpj["kind"], "cnpj");
  EXPECT_EQ(cnpj["fields"]["normalized"], "12ABC34501DE35");
  CliResult e2e = RunCli({"format", "check", "E12345678202009091221ghijk78901234"});
  EXPECT_EQ(e2e.exit_code, 1);
  EXPECT_EQ(Parsed(e2e)["kind"], "pix-e2e");
}

TEST(FormatCli, AsForcesTheKind) {
  CliResult r = RunCli({"format", "check", "--as", "boleto-line", "2379338128600078271369500006975520000370000"});
  EXPECT_EQ(r.exit_code, 1);
  json j = Parsed(r);
  EXPECT_EQ(j["kind"], "boleto-line");
  EXPECT_EQ(j["errors"], json{"line must be 47 digits"});
}

TEST(FormatCli, UsageErrorsExitTwo) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"format"},
                                             {"format", "check"},
                                             {"format", "verify", "x"},
                                             {"format", "check", "--as", "iban", "x"},
                                             {"format", "check", "--reference-date", "2025-02-30", "x"},
                                             {"format", "check", "--reference-date"},
                                             {"format", "check", "--frobnicate", "x"}}) {
    CliResult r = RunCli(args);
    EXPECT_EQ(r.exit_code, 2) << args.back();
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("usage: balcao format check"), std::string::npos) << r.err;
  }
  CliResult unknown = RunCli({"format", "check", "hello"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_EQ(Parsed(unknown)["kind"], "unknown");
}

TEST(FormatCli, InvalidUtf8InputStillPrintsJson) {
  CliResult r = RunCli({"format", "check",
                        "000201\xff\xfe"
                        "5802BR"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Parsed(r)["kind"], "brcode");
}

}  // namespace
