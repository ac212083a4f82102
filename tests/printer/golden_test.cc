// Golden bytes: exact ESC/POS command sequences, written as hex literals. A failure prints
// both sides in hex with the first differing offset.
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "printer/profile.h"
#include "printer/render.h"
#include "tests/testing/status_matchers.h"

namespace balcao::printer {
namespace {

std::string FromHex(const std::string& hex) {
  std::string out;
  int nibble = -1;
  for (char c : hex) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) continue;
    const int v = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (std::tolower(c) - 'a' + 10);
    if (nibble < 0) {
      nibble = v;
    } else {
      out.push_back(static_cast<char>(nibble * 16 + v));
      nibble = -1;
    }
  }
  return out;
}

std::string ToHex(const std::string& bytes) {
  static const char* kDigits = "0123456789ABCDEF";
  std::string out;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i) out += (i % 16 == 0) ? '\n' : ' ';
    out += kDigits[(static_cast<unsigned char>(bytes[i]) >> 4)];
    out += kDigits[static_cast<unsigned char>(bytes[i]) & 15];
  }
  return out;
}

::testing::AssertionResult SameBytes(const std::string& expected_hex, const std::string& actual) {
  const std::string expected = FromHex(expected_hex);
  if (expected == actual) return ::testing::AssertionSuccess();
  size_t at = 0;
  while (at < expected.size() && at < actual.size() && expected[at] == actual[at]) ++at;
  return ::testing::AssertionFailure() << "bytes differ at offset " << at << "\nexpected (" << expected.size()
                                       << " bytes):\n"
                                       << ToHex(expected) << "\nactual (" << actual.size() << " bytes):\n"
                                       << ToHex(actual);
}

std::string Render(const Document& d, const char* profile) {
  StatusOr<std::string> r = RenderEscPos(d, *FindProfile(profile));
  EXPECT_OK(r);
  return r.ok() ? *r : "";
}

constexpr const char* kHeaderCp860 = "1B 40  1C 2E  1B 74 03  1B 52 00  1B 33 1E";

TEST(Golden, HeaderTextAccentsAndPartialCut) {
  Document d;
  d.Text("Olá, São João").Cut();
  // CP860: á = A0, ã = 84.
  EXPECT_TRUE(SameBytes(std::string(kHeaderCp860) + "4F 6C A0 2C 20 53 84 6F 20 4A 6F 84 6F 0A"
                                                    "0A 0A 0A 0A  1D 56 01",
                        Render(d, "80mm")));
}

TEST(Golden, Wpc1252HeaderWithoutKanjiCancel) {
  Document d;
  d.Text("ção");
  // Epson TM-T20 profile: no FS ., ESC t 16; WPC1252 ç = E7, ã = E3.
  EXPECT_TRUE(SameBytes("1B 40  1B 74 10  1B 52 00  1B 33 1E  E7 E3 6F 0A", Render(d, "epson-tm-t20")));
}

TEST(Golden, StylesAreSwitchedOnAndOffOnlyWhereTheyChange) {
  Document d;
  d.Line({Span{"A", kBold}, Span{"B", TextStyle{.underline = true}}, Span{"C", TextStyle{.invert = true}}});
  d.Text("D", kLarge);
  EXPECT_TRUE(SameBytes(std::string(kHeaderCp860) + "1B 45 01 41  1B 45 00 1B 2D 01 42  1B 2D 00 1D 42 01 43 0A"
                                                    "1B 45 01 1D 42 00 1D 21 11 44 0A",
                        Render(d, "80mm")));
}

TEST(Golden, CenteredTextIsPaddedInSoftware) {
  Document d;
  d.Text("ab", {}, Align::kCenter);
  // 32 columns on 58 mm: 15 spaces, then the text.
  EXPECT_TRUE(SameBytes(std::string(kHeaderCp860) + "20 20 20 20 20 20 20 20 20 20 20 20 20 20 20 61 62 0A",
                        Render(d, "58mm")));
}

TEST(Golden, NativeQrSequence) {
  Document d;
  d.Qr("1234");
  // "1234" at level M is a version-1 symbol (21 modules): module 576/29 = 19, capped at 8.
  EXPECT_TRUE(SameBytes(std::string(kHeaderCp860) + "1B 61 01"
                                                    "1D 28 6B 04 00 31 41 32 00"
                                                    "1D 28 6B 03 00 31 43 08"
                                                    "1D 28 6B 03 00 31 45 31"
                                                    "1D 28 6B 07 00 31 50 30 31 32 33 34"
                                                    "1D 28 6B 03 00 31 51 30"
                                                    "1B 61 00",
                        Render(d, "80mm")));
}

TEST(Golden, RasterQrHeaderAndSize) {
  Document d;
  d.Qr("1234");
  const std::string bytes = Render(d, "58mm");
  // 58 mm: module 384/29 = 13 capped at 8 -> (21+8)*8 = 232 dots = 29 bytes x 232 rows.
  const std::string prefix = FromHex(std::string(kHeaderCp860) + "1B 61 01  1D 76 30 00 1D 00 E8 00");
  ASSERT_GE(bytes.size(), prefix.size());
  EXPECT_TRUE(
      SameBytes(std::string(kHeaderCp860) + "1B 61 01  1D 76 30 00 1D 00 E8 00", bytes.substr(0, prefix.size())));
  EXPECT_EQ(bytes.size(), prefix.size() + 29 * 232 + 3);
  EXPECT_TRUE(SameBytes("1B 61 00", bytes.substr(bytes.size() - 3)));
}

TEST(Golden, DrawerKickAndBarcode) {
  Document d;
  d.DrawerKick().Barcode("V42", 60);
  // CODE128 of 3 chars = 68 modules: 384/68 = 5, capped at 3 dots.
  EXPECT_TRUE(SameBytes(std::string(kHeaderCp860) + "1B 70 00 19 FA"
                                                    "1B 61 01 1D 48 02 1D 66 00 1D 68 3C 1D 77 03"
                                                    "1D 6B 49 05 7B 42 56 34 32"
                                                    "1B 61 00",
                        Render(d, "58mm")));
}

TEST(Golden, SecondCopyStartsWithAFreshHeader) {
  Document d;
  d.Text("1").Cut().Text("2");
  EXPECT_TRUE(
      SameBytes(std::string(kHeaderCp860) + "31 0A 0A 0A 0A 0A 1D 56 01" + kHeaderCp860 + "32 0A", Render(d, "80mm")));
}

TEST(Golden, ControlBytesInTextNeverReachThePrinter) {
  Document d;
  d.Text(
      "a\x1b\x70\x30\x19\xfa"
      "b");  // an ESC p hidden in a product name
  // ESC and 0x19 are dropped, "p0" stays text; 0xFA is invalid UTF-8 -> '?'.
  EXPECT_TRUE(SameBytes(std::string(kHeaderCp860) + "61 70 30 3F 62 0A", Render(d, "80mm")));
}

}  // namespace
}  // namespace balcao::printer
