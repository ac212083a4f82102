// `balcao demo` is the README's first command: it must run a Pix sale, card sales (a debit
// sale, a credit sale in 3 installments, one through a 3-D Secure challenge), a declined card
// and an invoice against the embedded sandbox, print their receipts and show the bank's
// ledger with the money collected. The receipts are read back from their ESC/POS bytes.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "printer/interpreter.h"
#include "printer/profile.h"

namespace {

using balcao::printer::VirtualPage;

// The pages (one per cut) the printer would print from a receipt file of the demo.
std::vector<VirtualPage> Decode(const std::string& bytes) {
  const balcao::printer::PrinterProfile* profile = balcao::printer::FindProfile("80mm");
  auto options = balcao::printer::InterpreterOptions::ForProfile(*profile);
  options.draw = false;
  return balcao::printer::Interpret(bytes, options);
}

bool Has(const VirtualPage& page, const std::string& text) { return page.Text().find(text) != std::string::npos; }

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
  // Five sales paid, the declined card back at the method choice.
  int paid = 0;
  for (std::size_t at = text.find("=> Paid"); at != std::string::npos; at = text.find("=> Paid", at + 1)) ++paid;
  EXPECT_EQ(paid, 5) << text;
  EXPECT_NE(text.find("card not charged: denied"), std::string::npos) << text;
  // 25,90 + 34,90 + 120,00 + 80,00 + 300,00 reached the bank's ledger; the declined card did not.
  EXPECT_NE(text.find("balance: R$ 560,80"), std::string::npos) << text;
  // Receipts: masked card numbers only. The cards were paid on the customer's (simulated) phone,
  // straight to the bank: the box knows only the last 4 digits the bank gives (docs/adr/0009).
  EXPECT_NE(text.find("************4242"), std::string::npos);
  EXPECT_NE(text.find("the customer scans the QR, opens /pay/"), std::string::npos) << text;
  EXPECT_EQ(text.find("4242424242424242"), std::string::npos);
  EXPECT_EQ(text.find("5500000000000004"), std::string::npos);
  int receipts = 0;
  std::vector<VirtualPage> pages;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "run")) {
    if (entry.path().extension() != ".bin") continue;
    ++receipts;
    const std::string bytes = ReadFile(entry.path());
    EXPECT_EQ(bytes.rfind("\x1b@", 0), 0u) << entry.path() << " does not start with ESC @";
    EXPECT_EQ(bytes.find("4242424242424242"), std::string::npos);
    for (VirtualPage& page : Decode(bytes)) pages.push_back(std::move(page));
  }
  EXPECT_EQ(receipts, 6);  // Pix paid, three card sales, the invoice slip and its payment
  // Each card sale printed two copies, each naming its funding type and brand.
  struct CardSlip {
    const char* kind;
    const char* brand;
    const char* mask;
  };
  for (const CardSlip& card :
       {CardSlip{"DÉBITO", "MASTERCARD", "************4444"}, CardSlip{"CRÉDITO PARCELADO", "VISA", "************4242"},
        CardSlip{"CRÉDITO À VISTA", "MASTERCARD", "************0004"}}) {
    int merchant = 0, customer = 0;
    for (const VirtualPage& page : pages) {
      if (!Has(page, card.mask)) continue;
      EXPECT_TRUE(Has(page, card.kind)) << page.Text();
      EXPECT_TRUE(Has(page, card.brand)) << page.Text();
      EXPECT_TRUE(page.cut) << page.Text();
      merchant += Has(page, "VIA DO ESTABELECIMENTO");
      customer += Has(page, "VIA DO CLIENTE");
      if (std::string(card.kind) == "CRÉDITO PARCELADO") {
        EXPECT_TRUE(Has(page, "3x R$ 40,00")) << page.Text();
      }
    }
    EXPECT_EQ(merchant, 1) << card.mask;
    EXPECT_EQ(customer, 1) << card.mask;
  }
  // The paid invoice prints the invoice's own receipt, not a Pix one.
  int invoice_paid = 0;
  for (const VirtualPage& page : pages) invoice_paid += Has(page, "FATURA PAGA") && Has(page, "R$ 300,00");
  EXPECT_EQ(invoice_paid, 1);
  // The operator log: every sale's way to Paid, bank calls, no card numbers.
  const std::string log = ReadFile(dir / "balcao.log");
  int moved_to_paid = 0;
  for (std::size_t at = log.find("to=Paid"); at != std::string::npos; at = log.find("to=Paid", at + 1)) ++moved_to_paid;
  EXPECT_EQ(moved_to_paid, 5) << log;
  EXPECT_NE(log.find("INFO checkout: bank answered"), std::string::npos) << log;
  for (const char* number : {"4242424242424242", "5500000000000004", "4000000000000002"})
    EXPECT_EQ(log.find(number), std::string::npos) << number;
  std::filesystem::remove_all(dir);
}

}  // namespace
