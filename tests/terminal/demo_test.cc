// `balcao demo` is the README's first command: it must run a Pix sale, card sales (one
// through a 3-D Secure challenge), a declined card and an invoice against the embedded
// sandbox, print their receipts and show the bank's ledger with the money collected.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Demo, RingsUpEverySampleSaleAndShowsTheLedger) {
  const auto dir = std::filesystem::temp_directory_path() / ("balcao-demo-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const std::string out = (dir / "stdout.txt").string();
  std::filesystem::create_directories(dir);
  const std::string command = std::string(BALCAO_CLI) + " --log-file " + (dir / "balcao.log").string() +
                              " demo --quiet-qr --out " + (dir / "run").string() + " > " + out + " 2>&1";
  const int status = std::system(command.c_str());
  const std::string text = ReadFile(out);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << text;

  EXPECT_EQ(std::string::npos, text.find("did not settle")) << text;
  // Four sales paid, the declined card back at the method choice.
  int paid = 0;
  for (std::size_t at = text.find("=> Paid"); at != std::string::npos; at = text.find("=> Paid", at + 1)) ++paid;
  EXPECT_EQ(paid, 4) << text;
  EXPECT_NE(text.find("card not charged: denied"), std::string::npos) << text;
  // 25,90 + 120,00 + 80,00 + 300,00 reached the bank's ledger; the declined card did not.
  EXPECT_NE(text.find("balance: R$ 525,90"), std::string::npos) << text;
  // Receipts: masked card numbers only.
  EXPECT_NE(text.find("424242******4242"), std::string::npos);
  EXPECT_EQ(text.find("4242424242424242"), std::string::npos);
  EXPECT_EQ(text.find("5500000000000004"), std::string::npos);
  int receipts = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "run")) {
    if (entry.path().extension() != ".bin") continue;
    ++receipts;
    const std::string bytes = ReadFile(entry.path());
    EXPECT_EQ(bytes.rfind("\x1b@", 0), 0u) << entry.path() << " does not start with ESC @";
    EXPECT_EQ(bytes.find("4242424242424242"), std::string::npos);
  }
  EXPECT_EQ(receipts, 5);  // Pix paid, two card sales, the invoice slip and its payment
  // The operator log: every sale's way to Paid, bank calls, no card numbers.
  const std::string log = ReadFile(dir / "balcao.log");
  int moved_to_paid = 0;
  for (std::size_t at = log.find("to=Paid"); at != std::string::npos; at = log.find("to=Paid", at + 1)) ++moved_to_paid;
  EXPECT_EQ(moved_to_paid, 4) << log;
  EXPECT_NE(log.find("INFO checkout: bank answered"), std::string::npos) << log;
  for (const char* number : {"4242424242424242", "5500000000000004", "4000000000000002"})
    EXPECT_EQ(log.find(number), std::string::npos) << number;
  std::filesystem::remove_all(dir);
}

}  // namespace
