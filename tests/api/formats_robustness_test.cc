// Hostile input never crashes (this binary also runs under ASan+UBSan: label sanitize):
// random bytes, embedded NULs, very long inputs, every truncation of valid codes.
#include <gtest/gtest.h>

#include <random>

#include "api/formats/boleto.h"
#include "api/formats/brcode.h"
#include "api/formats/check.h"
#include "api/formats/end_to_end_id.h"
#include "api/formats/tax_id.h"
#include "api/formats/utility_slip.h"

namespace balcao::formats {
namespace {

const CheckOptions kOptions{.reference_date =
                                Date{std::chrono::year{2025}, std::chrono::month{6}, std::chrono::day{15}}};

const FormatKind kKinds[] = {FormatKind::kUnknown,    FormatKind::kBrCode,         FormatKind::kBoletoBarcode,
                             FormatKind::kBoletoLine, FormatKind::kUtilityBarcode, FormatKind::kUtilityLine,
                             FormatKind::kCpf,        FormatKind::kCnpj,           FormatKind::kPixEndToEndId};

// Runs every entry point; the verdict must be self-consistent.
void Exercise(std::string_view text) {
  for (FormatKind kind : kKinds) {
    CheckResult r = CheckAs(kind, text, kOptions);
    ASSERT_EQ(r.valid, r.errors.empty());
    for (const Field& f : r.fields) ASSERT_FALSE(f.key.empty());
  }
  (void)ParseTlv(text);
  (void)ParseBrCode(text);
  (void)ParseBoleto(text, std::nullopt);
  (void)ParseUtilitySlip(text);
  (void)TaxId::Parse(text);
  (void)ParseEndToEndId(text);
  (void)BoletoBarcodeFromLine(text);
  (void)UtilityBarcodeFromLine(text);
  (void)FoldToBrCodeText(text, 25);
}

const std::vector<std::string>& Seeds() {
  static const std::vector<std::string> seeds = {
      "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de "
      "Tal6008BRASILIA62070503***63041D3D",
      "00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR"
      "5913Fulano de Tal6008BRASILIA62070503***80740014br.gov.bcb.pix2552pix.example.com/rec/"
      "2353c790eefb11eaadc10242ac1200026304FB42",
      "23793381286000782713695000063305975520000370000",
      "10499898100000214032006561000100040099726390",
      "858900004609524601791605607593050865831483000010",
      "84610000000246100291100054603390069589506108",
      "529.982.247-25",
      "12.ABC.345/01DE-35",
      "E20018183202201201450u34sDGd19lz",
  };
  return seeds;
}

TEST(FormatsRobustness, EveryTruncationAndExtension) {
  for (const std::string& seed : Seeds()) {
    for (std::size_t n = 0; n <= seed.size(); ++n) Exercise(std::string_view(seed).substr(0, n));
    for (std::size_t n = 0; n < seed.size(); ++n) Exercise(std::string_view(seed).substr(n));
    Exercise(seed + seed);
    Exercise(seed + "0");
  }
}

TEST(FormatsRobustness, RandomBytes) {
  std::mt19937_64 rng(13239);
  for (int i = 0; i < 3000; ++i) {
    std::string s(rng() % 200, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    Exercise(s);
  }
}

// Random edits of valid seeds reach deeper: valid TLV headers with broken lengths, nested
// templates that overrun, digits lines with wrong lengths.
TEST(FormatsRobustness, RandomEditsOfValidCodes) {
  std::mt19937_64 rng(986);
  const std::string interesting = std::string("0123456789*.-/ E\0\xC3\xA3\xFF", 21);
  for (int i = 0; i < 4000; ++i) {
    std::string s = Seeds()[rng() % Seeds().size()];
    for (int edits = 1 + static_cast<int>(rng() % 4); edits > 0 && !s.empty(); --edits) {
      std::size_t pos = rng() % s.size();
      switch (rng() % 3) {
        case 0:
          s[pos] = interesting[rng() % interesting.size()];
          break;
        case 1:
          s.erase(pos, 1 + rng() % 4);
          break;
        default:
          s.insert(pos, 1, interesting[rng() % interesting.size()]);
          break;
      }
    }
    Exercise(s);
  }
}

TEST(FormatsRobustness, EmbeddedNulsAreInvalidNotTruncated) {
  std::string cpf(
      "529982247\0"
      "25",
      12);
  EXPECT_FALSE(Check(cpf).valid);
  std::string brcode = Seeds()[0];
  brcode.insert(40, 1, '\0');
  CheckResult r = Check(brcode);
  EXPECT_FALSE(r.valid);
  std::string e2e = Seeds()[8];
  e2e[25] = '\0';
  EXPECT_FALSE(Check(e2e).valid);
  std::string line("2379338128600078271369500006330597552000037000\0", 48);
  EXPECT_FALSE(Check(line).valid);
}

TEST(FormatsRobustness, VeryLongInputs) {
  constexpr std::size_t kBig = 1 << 18;
  Exercise(std::string(kBig, '0'));
  Exercise(std::string(kBig, '8'));
  Exercise(std::string(kBig, '\0'));
  std::string objects = "000201";
  while (objects.size() < kBig) objects += "5802BR";  // ~40k well-formed root objects
  Exercise(objects);
  CheckResult r = Check(objects);
  EXPECT_EQ(r.kind, FormatKind::kBrCode);
  EXPECT_FALSE(r.valid);
  std::string nested = "26990099";  // a template claiming more than it holds
  nested += std::string(1 << 16, '9');
  Exercise(nested);
  Exercise("0002" + std::string(kBig, '9'));
}

TEST(FormatsRobustness, UnknownTextSaysWhatItExpected) {
  CheckResult r = Check("12345");
  EXPECT_EQ(r.kind, FormatKind::kUnknown);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("5 digits"), std::string::npos);
  EXPECT_EQ(Check("   ").errors, std::vector<std::string>{"empty input"});
  EXPECT_EQ(Check("hello").kind, FormatKind::kUnknown);
}

}  // namespace
}  // namespace balcao::formats
