// `balcao checkout` as a user runs it: the real executable, no bank configured (so the
// embedded sandbox), the outcome read back from --json and the exit code.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

namespace {

struct CliRun {
  int exit_code = -1;
  std::string out;
};

CliRun Balcao(const std::string& args) {
  const std::string cmd =
      "env -u BALCAO_BANK_URL -u BALCAO_CREDENTIALS -u BALCAO_ACCESS_ID -u BALCAO_PROJECT_ID "
      "-u BALCAO_ORGANIZATION_ID " +
      std::string(BALCAO_CLI) + " checkout " + args + " 2>/dev/null";
  CliRun run;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return run;
  std::array<char, 4096> buf;
  while (fgets(buf.data(), buf.size(), pipe)) run.out += buf.data();
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

TEST(CheckoutCli, PixPaidByTheSimulatedPayer) {
  CliRun run = Balcao("--amount 1990 --method pix --autopay --json --timeout 30");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  auto j = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << run.out;
  EXPECT_EQ(j["status"].get<std::string>(), "paid");
  EXPECT_EQ(j["method"].get<std::string>(), "pix");
  EXPECT_EQ(j["amount"].get<long long>(), 1990);
  EXPECT_EQ(j["collected"].get<long long>(), 1990);
  EXPECT_FALSE(j["bank_ids"].empty());
}

TEST(CheckoutCli, CardApprovedAndInvoicePaid) {
  CliRun card = Balcao("--amount 500 --method card --installments 1 --json");
  ASSERT_EQ(card.exit_code, 0) << card.out;
  EXPECT_EQ(nlohmann::json::parse(card.out)["status"].get<std::string>(), "paid");
  CliRun invoice = Balcao(
      "--amount 800 --method invoice --customer-name 'Maria da Silva' "
      "--customer-tax-id 337.451.076-08 --autopay --json --timeout 30");
  ASSERT_EQ(invoice.exit_code, 0) << invoice.out;
  EXPECT_EQ(nlohmann::json::parse(invoice.out)["status"].get<std::string>(), "paid");
}

TEST(CheckoutCli, DeclinedCardExitsThreeAndBadArgumentsOne) {
  const std::string card_file = std::string(::testing::TempDir()) + "/declined-card.json";
  FILE* f = std::fopen(card_file.c_str(), "w");
  ASSERT_TRUE(f);
  std::fputs(R"({"number":"4000000000000002","securityCode":"123","expiration":"2035-01","holderName":"ANA"})", f);
  std::fclose(f);
  CliRun declined = Balcao("--amount 500 --method card --card-file " + card_file + " --json");
  EXPECT_EQ(declined.exit_code, 3) << declined.out;
  const auto answer = nlohmann::json::parse(declined.out);
  EXPECT_EQ(answer["status"].get<std::string>(), "not-paid");
  EXPECT_NE(answer["reason"].get<std::string>().find("denied"), std::string::npos) << declined.out;
  EXPECT_EQ(Balcao("--amount 0 --method pix").exit_code, 1);
  EXPECT_EQ(Balcao("--amount 12abc --method pix").exit_code, 1);
  EXPECT_EQ(Balcao("--amount 100 --method card --installments x").exit_code, 1);
  EXPECT_EQ(Balcao("--amount 100 --method cash").exit_code, 1);
  EXPECT_EQ(Balcao("--amount 100 --method invoice --customer-name X --customer-tax-id 1").exit_code, 1);
}

}  // namespace
