// The receipts `balcao serve` prints, read back from the printer's bytes by the ESC/POS
// interpreter: a debit sale and a credit sale in installments name their funding type and
// brand on both copies, a paid invoice prints the invoice's receipt, a refund names the
// original method, any sale of today prints again marked "2ª VIA" (a sale of another day or
// one with nothing printed is refused with the reason), and the store's settings choose the
// customer's copy only and English.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "printer/interpreter.h"
#include "printer/profile.h"
#include "tests/terminal/serve_fixture.h"

namespace balcao::terminal::testing {
namespace {

using printer::VirtualPage;

constexpr const char* kMastercard = "5277696455399733";  // an SDK test card: approved
constexpr const char* kVisa = "4242424242424242";        // approved

Json Card(const std::string& number, const std::string& funding, int installments = 1) {
  return WithCardCustomer({{"number", number},
                           {"expiry", "12/34"},
                           {"security_code", "737"},
                           {"holder_name", "MARIA"},
                           {"funding", funding},
                           {"installments", installments}});
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool Has(const VirtualPage& page, const std::string& text) { return page.Text().find(text) != std::string::npos; }

class ServeReceipts : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshDir(::testing::UnitTest::GetInstance()->current_test_info()->name()); }
  void TearDown() override {
    if (serve_.running()) serve_.Stop();
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  void Start(const std::string& config = "") {
    std::vector<std::string> args = {"--printer", "file:" + (dir_ / "printer.bin").string()};
    if (!config.empty()) {
      std::ofstream(dir_ / "balcao.conf") << config;
      args.insert(args.end(), {"--config", (dir_ / "balcao.conf").string()});
    }
    serve_.Start(dir_ / "data", args);
  }
  std::string PaidCard(long long amount, const std::string& number, const std::string& funding, int installments) {
    const std::string id = serve_.NewSale(amount)["id"].get<std::string>();
    EXPECT_EQ(serve_.Post("/api/sales/" + id + "/method", {{"method", "card"}}).status, 200);
    const Reply paid = serve_.Post("/api/sales/" + id + "/card", Card(number, funding, installments));
    EXPECT_EQ(paid.json["status"], "paid") << paid.body;
    return id;
  }
  // Every page printed so far, once `count` pages are there (the spooler prints within a
  // pass or two): the bytes the printer got, decoded.
  std::vector<VirtualPage> Pages(std::size_t count) {
    std::vector<VirtualPage> pages;
    for (int i = 0; i < 100; ++i) {
      auto options = printer::InterpreterOptions::ForProfile(*printer::FindProfile("80mm"));
      options.draw = false;
      pages = printer::Interpret(ReadFile(dir_ / "printer.bin"), options);
      if (pages.size() >= count) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return pages;
  }

  std::filesystem::path dir_;
  ServeProcess serve_;
};

TEST_F(ServeReceipts, CardCopiesNameFundingBrandAndInstallmentsAndReprintsAreMarked) {
  Start();
  const std::string debit = PaidCard(3490, kMastercard, "debit", 1);
  PaidCard(12000, kVisa, "credit", 3);
  std::vector<VirtualPage> pages = Pages(4);
  ASSERT_EQ(pages.size(), 4u);
  // Debit: the merchant's copy, then the customer's.
  EXPECT_TRUE(Has(pages[0], "VIA DO ESTABELECIMENTO")) << pages[0].Text();
  EXPECT_TRUE(Has(pages[1], "VIA DO CLIENTE")) << pages[1].Text();
  for (int i : {0, 1}) {
    EXPECT_TRUE(Has(pages[i], "DÉBITO")) << pages[i].Text();
    EXPECT_TRUE(Has(pages[i], "MASTERCARD")) << pages[i].Text();
    EXPECT_TRUE(Has(pages[i], "527769******9733")) << pages[i].Text();
    EXPECT_TRUE(Has(pages[i], "R$ 34,90")) << pages[i].Text();
    EXPECT_FALSE(Has(pages[i], "2ª VIA")) << pages[i].Text();
  }
  // Credit in 3 installments.
  EXPECT_TRUE(Has(pages[2], "VIA DO ESTABELECIMENTO")) << pages[2].Text();
  EXPECT_TRUE(Has(pages[3], "VIA DO CLIENTE")) << pages[3].Text();
  for (int i : {2, 3}) {
    EXPECT_TRUE(Has(pages[i], "CRÉDITO PARCELADO")) << pages[i].Text();
    EXPECT_TRUE(Has(pages[i], "VISA")) << pages[i].Text();
    EXPECT_TRUE(Has(pages[i], "3x R$ 40,00")) << pages[i].Text();
  }

  // The debit sale again: both copies, marked as a duplicate.
  const Reply again = serve_.Post("/api/sales/" + debit + "/reprint", Json::object());
  ASSERT_EQ(again.status, 200) << again.body;
  pages = Pages(6);
  ASSERT_EQ(pages.size(), 6u);
  for (int i : {4, 5}) {
    EXPECT_TRUE(Has(pages[i], "2ª VIA")) << pages[i].Text();
    EXPECT_TRUE(Has(pages[i], "DÉBITO")) << pages[i].Text();
    EXPECT_TRUE(Has(pages[i], "MASTERCARD")) << pages[i].Text();
  }
  // Refunded: the refund receipt names the original method, and its reprint is that receipt.
  const Reply refunded =
      serve_.Post("/api/sales/" + debit + "/refund", ServeProcess::Approved({{"reason", "cliente desistiu"}}));
  ASSERT_EQ(refunded.json["status"], "refunded") << refunded.body;
  pages = Pages(7);
  ASSERT_EQ(pages.size(), 7u);
  EXPECT_TRUE(Has(pages[6], "ESTORNO")) << pages[6].Text();
  EXPECT_TRUE(Has(pages[6], "Débito")) << pages[6].Text();
  EXPECT_TRUE(Has(pages[6], "MASTERCARD")) << pages[6].Text();
  ASSERT_EQ(serve_.Post("/api/sales/" + debit + "/reprint", Json::object()).status, 200);
  pages = Pages(8);
  ASSERT_EQ(pages.size(), 8u);
  EXPECT_TRUE(Has(pages[7], "ESTORNO") && Has(pages[7], "2ª VIA")) << pages[7].Text();
}

TEST_F(ServeReceipts, PaidInvoicePrintsTheInvoiceReceiptAndNothingPrintedIsRefused) {
  Start();
  const std::string id = serve_.NewSale(30000)["id"].get<std::string>();
  const Reply invoice =
      serve_.Post("/api/sales/" + id + "/method",
                  {{"method", "invoice"}, {"customer", {{"name", "Joao Lima"}, {"tax_id", "33745107608"}}}});
  ASSERT_EQ(invoice.json["status"], "invoice") << invoice.body;
  ASSERT_EQ(serve_.Simulate("invoice/pay", {{"id", BankId(invoice.json, "invoice")}}).status, 200);
  serve_.WaitFor(id, "paid");
  std::vector<VirtualPage> pages = Pages(2);
  ASSERT_EQ(pages.size(), 2u);
  EXPECT_TRUE(Has(pages[0], "FATURA")) << pages[0].Text();
  EXPECT_TRUE(Has(pages[1], "FATURA PAGA")) << pages[1].Text();
  EXPECT_FALSE(Has(pages[1], "PIX")) << pages[1].Text();

  // A sale that printed nothing, an unknown sale.
  const std::string open = serve_.NewSale(100)["id"].get<std::string>();
  Reply refused = serve_.Post("/api/sales/" + open + "/reprint", Json::object());
  EXPECT_EQ(refused.status, 409) << refused.body;
  EXPECT_NE(refused.json["error"]["rule"].get<std::string>().find("no receipt to print again"), std::string::npos);
  refused = serve_.Post("/api/sales/v20200101t000000-x/reprint", Json::object());
  EXPECT_EQ(refused.status, 404) << refused.body;
}

TEST_F(ServeReceipts, CustomerCopyOnlyAndEnglishBySetting) {
  Start(R"({"receipt": {"language": "en-US", "card_copies": "customer"}, "touchscreen": {"language": "en-US"}})");
  PaidCard(3490, kMastercard, "debit", 1);
  const std::vector<VirtualPage> pages = Pages(1);
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_TRUE(Has(pages[0], "CUSTOMER COPY")) << pages[0].Text();
  EXPECT_TRUE(Has(pages[0], "DEBIT")) << pages[0].Text();
  EXPECT_TRUE(Has(pages[0], "R$ 34.90")) << pages[0].Text();
  EXPECT_EQ(serve_.Get("/api/status").json["language"], "en-US");
  // The page is served in English: i18n.js translates what it shows.
  const Reply page = serve_.Get("/");
  EXPECT_NE(page.body.find("<html lang=\"en-US\">"), std::string::npos) << page.body.substr(0, 200);
  EXPECT_NE(page.body.find("<script src=\"i18n.js\">"), std::string::npos);
}

// Every text of the page's HTML (element text, placeholders, labels for screen readers) has
// its English in i18n.js.
TEST(TouchscreenEnglish, EveryTextOfThePageHasItsEnglish) {
  const std::string html = ReadFile(std::filesystem::path(BALCAO_SOURCE_DIR) / "terminal/web/index.html");
  const std::string i18n = ReadFile(std::filesystem::path(BALCAO_SOURCE_DIR) / "terminal/web/i18n.js");
  ASSERT_FALSE(html.empty());
  std::vector<std::string> texts;
  for (std::size_t at = html.find('>'); at != std::string::npos; at = html.find('>', at + 1)) {
    const std::size_t end = html.find('<', at);
    if (end == std::string::npos) break;
    std::string text = html.substr(at + 1, end - at - 1);
    text.erase(0, text.find_first_not_of(" \n"));
    text.erase(text.find_last_not_of(" \n") + 1);
    // An element marked with its own lang (the language switch's "Português", "English") is
    // written in that language on every screen, on purpose.
    const std::size_t tag = html.rfind('<', at);
    const bool own_language = html.substr(tag, at - tag).find(" lang=\"") != std::string::npos;
    if (!own_language && !text.empty() && text.find_first_not_of("0123456789&#; ") != std::string::npos &&
        text != "R$ 0,00")
      texts.push_back(text);
  }
  for (const char* attribute : {"placeholder=\"", "aria-label=\"", "alt=\""}) {
    for (std::size_t at = html.find(attribute); at != std::string::npos; at = html.find(attribute, at + 1)) {
      const std::size_t from = at + std::string(attribute).size();
      const std::string text = html.substr(from, html.find('"', from) - from);
      if (text.find(" / ") == std::string::npos) texts.push_back(text);  // "Idioma / Language": both, on purpose
    }
  }
  EXPECT_GT(texts.size(), 50u);
  for (const std::string& text : texts) EXPECT_NE(i18n.find("'" + text + "':"), std::string::npos) << text;
}

}  // namespace
}  // namespace balcao::terminal::testing
