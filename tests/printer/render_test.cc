// Every template on every profile: the ESC/POS output decoded by the project's interpreter
// gives exactly the text the text renderer shows (accents included, under each code
// table), QR payloads survive, and no card number is ever printed beyond 6+4 digits.
#include "printer/render.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "printer/interpreter.h"
#include "printer/samples.h"
#include "printer/templates.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::StatusIs;

namespace balcao::printer {
namespace {

struct Case {
  std::string kind;
  std::string profile;
};
// Names the case in test listings (ctest shows GetParam() otherwise as raw bytes).
void PrintTo(const Case& c, std::ostream* os) { *os << c.kind << " on " << c.profile; }

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (const std::string& kind : SampleKinds()) {
    for (const PrinterProfile& p : AllProfiles()) cases.push_back({kind, p.name});
  }
  return cases;
}

std::string Name(const ::testing::TestParamInfo<Case>& info) {
  std::string n = info.param.kind + "_" + info.param.profile;
  for (char& c : n) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return n;
}

class EveryTemplate : public ::testing::TestWithParam<Case> {
 protected:
  const PrinterProfile& profile() const { return *FindProfile(GetParam().profile); }
  Document Doc(const SampleInputs& in = {}) const {
    StatusOr<Document> d = SampleDocument(GetParam().kind, in);
    EXPECT_OK(d);
    return d.ok() ? *d : Document();
  }
  std::vector<VirtualPage> Printed(const Document& d) const {
    StatusOr<std::string> bytes = RenderEscPos(d, profile());
    EXPECT_OK(bytes);
    InterpreterOptions o = InterpreterOptions::ForProfile(profile());
    o.draw = false;
    return Interpret(bytes.ok() ? *bytes : "", o);
  }
};

TEST_P(EveryTemplate, InterpreterTextEqualsTextRenderer) {
  const Document d = Doc();
  std::string printed;
  for (const VirtualPage& p : Printed(d)) {
    printed += p.Text();
    EXPECT_EQ(p.high_bytes_before_code_table, 0);
    EXPECT_EQ(p.cut, profile().cutter);  // every copy ends with exactly one cut
    EXPECT_EQ(p.drawer_kicks, 0);        // never unless asked
    EXPECT_TRUE(p.notes.empty()) << p.notes.front();
    ASSERT_FALSE(p.code_tables.empty());
    EXPECT_EQ(p.code_tables.front(), CodeTableName(profile().code_table));
  }
  EXPECT_EQ(printed, RenderText(d, profile(), {.placeholders = false}));
}

TEST_P(EveryTemplate, LinesFitThePaper) {
  for (const VirtualPage& p : Printed(Doc())) {
    for (const std::string& line : p.lines) {
      size_t chars = 0;
      for (unsigned char c : line) chars += (c & 0xC0) != 0x80;
      EXPECT_LE(chars, static_cast<size_t>(profile().columns)) << line;
    }
  }
}

TEST_P(EveryTemplate, QrPayloadsArePrintedNativeOrAsRaster) {
  const Document d = Doc();
  size_t qrs = 0;
  for (const Block& b : d.blocks()) qrs += std::holds_alternative<QrBlock>(b);
  size_t native = 0, images = 0;
  for (const VirtualPage& p : Printed(d)) {
    native += p.qr_payloads.size();
    images += p.images.size();
    for (const std::string& payload : p.qr_payloads) {
      bool found = false;
      for (const Block& b : d.blocks()) {
        if (auto* q = std::get_if<QrBlock>(&b)) found |= q->data == payload;
      }
      EXPECT_TRUE(found) << payload;
    }
  }
  if (profile().native_qr && profile().native_qr_max_bytes >= 300) {
    EXPECT_EQ(native, qrs);
  } else if (!profile().native_qr) {
    EXPECT_EQ(native, 0u);
    EXPECT_EQ(images, qrs);
  }
}

// Card numbers fed through every field a template prints never show more than 6+4 digits.
TEST_P(EveryTemplate, NeverPrintsMoreThanSixPlusFourDigits) {
  const std::string pan = "5162923788410096";
  const std::string middle = pan.substr(6, 6);  // "788410": digits 7-12 must never appear
  for (const std::string& written : {pan, std::string("5162 9237 8841 0096"), std::string("5162-9237-8841-0096")}) {
    SampleInputs in;
    in.br_code =
        "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913"
        "Fulano de Tal6008BRASILIA62070503***63041D3D";  // not built from the poisoned name
    in.card_number = written;
    in.merchant.name = "Loja " + written;
    in.merchant.address = "Cartão " + written + " rua";
    in.merchant.terminal_id = written;
    const Document d = Doc(in);
    auto strip = [](std::string s) {
      std::string out;
      for (char c : s) {
        if (c != ' ' && c != '-' && c != '.') out.push_back(c);
      }
      return out;
    };
    EXPECT_EQ(strip(RenderText(d, profile())).find(middle), std::string::npos);
    StatusOr<std::string> bytes = RenderEscPos(d, profile());
    ASSERT_OK(bytes);
    EXPECT_EQ(strip(*bytes).find(middle), std::string::npos);
    InterpreterOptions o = InterpreterOptions::ForProfile(profile());
    o.draw = false;
    for (const VirtualPage& p : Interpret(*bytes, o)) EXPECT_EQ(strip(p.Text()).find(middle), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(Printer, EveryTemplate, ::testing::ValuesIn(AllCases()), Name);

TEST(Templates, PortugueseAccentsSurviveEachCodeTable) {
  for (const char* profile : {"80mm", "58mm-wpc1252", "bematech-mp4200"}) {
    const PrinterProfile& p = *FindProfile(profile);
    StatusOr<Document> d = SampleDocument("card");
    ASSERT_OK(d);
    StatusOr<std::string> bytes = RenderEscPos(*d, p);
    ASSERT_OK(bytes);
    std::string text;
    for (const VirtualPage& page : Interpret(*bytes, InterpreterOptions::ForProfile(p))) text += page.Text();
    for (const char* expected :
         {"P a d a r i a   S ã o   J o ã o", "Rua da Consolação, 1234", "São Paulo - SP", "VIA DO ESTABELECIMENTO",
          "VIA DO CLIENTE", "CRÉDITO PARCELADO", "CNPJ 12.345.678/0001-95", "516292******0096", "R$ 1.234,56",
          "Autorização", "21/11/2026 13:47:35", "3x R$ 411,52"}) {
      EXPECT_NE(text.find(expected), std::string::npos) << profile << ": " << expected << "\n" << text;
    }
  }
}

TEST(Templates, EnglishBySetting) {
  SampleInputs in;
  in.language = Language::kEnUs;
  StatusOr<Document> d = SampleDocument("card", in);
  ASSERT_OK(d);
  const std::string text = RenderText(*d, *FindProfile("80mm"));
  EXPECT_NE(text.find("CUSTOMER COPY"), std::string::npos);
  EXPECT_NE(text.find("R$ 1,234.56"), std::string::npos);
  EXPECT_NE(text.find("11/21/2026 13:47:35"), std::string::npos);
}

TEST(Templates, UnevenInstallmentsPutTheCentsOnTheFirst) {
  CardSale s;
  s.amount_cents = 10000;
  s.installments = 3;
  s.card_number = "1234";
  const std::string text = RenderText(CardSaleReceipt(s, Copy::kCustomer), *FindProfile("80mm"));
  EXPECT_NE(text.find("1x R$ 33,34 + 2x R$ 33,33"), std::string::npos) << text;
}

TEST(Templates, ARefundOfThePaymentItselfNamesItsIdOnce) {
  Refund r;
  r.amount_cents = 200;
  r.method = "pix";
  r.original_id = "4503599627856365";
  r.refund_id = r.original_id;  // the deposit lowered: no entity of its own
  const std::string text = RenderText(RefundReceipt(r), *FindProfile("80mm"));
  EXPECT_NE(text.find("Pagamento original"), std::string::npos) << text;
  EXPECT_EQ(text.find("Devolução"), std::string::npos) << "the same id twice, under two names:\n" << text;
  EXPECT_EQ(text.find(r.original_id), text.rfind(r.original_id)) << text;
  r.refund_id = "4503599627999999";
  const std::string other = RenderText(RefundReceipt(r), *FindProfile("80mm"));
  EXPECT_NE(other.find("Devolução"), std::string::npos) << other;
  EXPECT_NE(other.find(r.refund_id), std::string::npos) << other;
}

TEST(Templates, SecurityCodeAndExpiryHaveNoField) {
  // The card template has no place for them; a PAN-like text anywhere is masked by the layout.
  const std::string text = RenderText(*SampleDocument("card"), *FindProfile("80mm"));
  EXPECT_EQ(text.find("CVV"), std::string::npos);
  EXPECT_EQ(text.find("Validade"), std::string::npos);
}

TEST(Layout, ThreeHundredLineReceiptIsPrintedWhole) {
  Document d;
  for (int i = 1; i <= 300; ++i) d.Columns("Item " + std::to_string(i), FormatBrl(i * 100));
  d.Text("FIM").Cut();
  StatusOr<std::string> bytes = RenderEscPos(d, *FindProfile("80mm"));
  ASSERT_OK(bytes);
  std::vector<VirtualPage> pages = Interpret(*bytes, InterpreterOptions::ForProfile(*FindProfile("80mm")));
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_TRUE(pages[0].cut);
  EXPECT_EQ(pages[0].lines.size(), 301u + 4u);
  EXPECT_EQ(pages[0].lines[299].substr(0, 8), "Item 300");
  EXPECT_EQ(pages[0].lines[300], "FIM");
}

TEST(Layout, LongWordsBreakAndEuroFallsBackPerTable) {
  Document d;
  d.Text(std::string(40, 'x') + " 10 €");
  const std::string cp860 = RenderText(d, *FindProfile("58mm"));
  EXPECT_EQ(cp860, std::string(32, 'x') + "\n" + std::string(8, 'x') + " 10 EUR\n");
  EXPECT_EQ(RenderText(d, *FindProfile("58mm-wpc1252")), std::string(32, 'x') + "\n" + std::string(8, 'x') + " 10 €\n");
}

TEST(Render, PngPreviewIsAPngOfThePaperWidth) {
  StatusOr<std::string> png = RenderPng(*SampleDocument("pix"), *FindProfile("58mm"));
  ASSERT_OK(png);
  ASSERT_GT(png->size(), 24u);
  EXPECT_EQ(png->substr(1, 3), "PNG");
  const auto be32 = [&](size_t at) {
    return (static_cast<unsigned char>((*png)[at]) << 24) | (static_cast<unsigned char>((*png)[at + 1]) << 16) |
           (static_cast<unsigned char>((*png)[at + 2]) << 8) | static_cast<unsigned char>((*png)[at + 3]);
  };
  EXPECT_EQ(be32(16), 384u);
  EXPECT_GT(be32(20), 500u);
}

// Preview equals print: the PNG preview and the virtual printer's drawing of the ESC/POS
// bytes are the same pixels (documents without a cut: the printer splits pages there).
TEST(Render, PreviewPngEqualsThePrintedPage) {
  ReceiptOptions no_cut;
  no_cut.cut = false;
  SampleInputs in;
  std::vector<Document> docs;
  docs.push_back(CardSaleReceipt({in.merchant, in.at, 123456, "credit", 3, "VISA", in.card_number, "P1"},
                                 Copy::kCustomer, no_cut));
  docs.push_back(
      PixChargeReceipt({in.merchant, in.at, 4590, "00020126580014br.gov.bcb.pix0136123e4567", 0, "T1"}, no_cut));
  docs.push_back(OfflineProvisionalReceipt({in.merchant, in.at, 2990, "card", "V0042", in.card_number, "ELO"}, no_cut));
  docs.push_back(TestPage("80mm", "CP860", no_cut));
  for (const char* profile : {"58mm", "80mm", "bematech-mp4200"}) {
    const PrinterProfile& p = *FindProfile(profile);
    for (const Document& d : docs) {
      StatusOr<std::string> preview = RenderPng(d, p);
      ASSERT_OK(preview);
      std::vector<VirtualPage> pages = Interpret(*RenderEscPos(d, p), InterpreterOptions::ForProfile(p));
      ASSERT_EQ(pages.size(), 1u);
      EXPECT_TRUE(*preview == *pages[0].Png()) << profile;
    }
  }
}

TEST(Render, QrTooLongIsAClearError) {
  Document d;
  d.Qr(std::string(8000, 'a'));
  StatusOr<std::string> r = RenderEscPos(d, *FindProfile("80mm"));
  ASSERT_THAT(r, StatusIs(StatusCode::kInvalidArgument));
  EXPECT_NE(r.status().message().find("qr"), std::string::npos);
}

}  // namespace
}  // namespace balcao::printer
