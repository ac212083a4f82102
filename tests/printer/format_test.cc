#include "printer/format.h"

#include <gtest/gtest.h>

#include "printer/internal/codepage.h"
#include "printer/internal/font.h"
#include "printer/internal/layout.h"
#include "tests/printer/testing_util.h"

namespace balcao::printer {
namespace {

TEST(FormatBrl, BrazilianGroupingAndNegative) {
  EXPECT_EQ(FormatBrl(123456), "R$ 1.234,56");
  EXPECT_EQ(FormatBrl(5), "R$ 0,05");
  EXPECT_EQ(FormatBrl(-5), "-R$ 0,05");
  EXPECT_EQ(FormatBrl(100000000), "R$ 1.000.000,00");
  EXPECT_EQ(FormatBrl(123456, Language::kEnUs), "R$ 1,234.56");
  EXPECT_EQ(FormatBrl(INT64_MIN), "-R$ 92.233.720.368.547.758,08");
}

TEST(FormatPercent, BasisPoints) {
  EXPECT_EQ(FormatPercent(200), "2,00%");
  EXPECT_EQ(FormatPercent(33, Language::kEnUs), "0.33%");
}

TEST(LocalTime, BrasiliaIsUtcMinus3WithoutDst) {
  // 2026-01-15T02:30:00Z (southern summer: no DST since 2019) -> 14/01 23:30 in Brasília.
  EXPECT_EQ(FormatLocalDateTime(1768444200LL * 1000000), "14/01/2026 23:30:00");
  // 2026-07-01T12:00:00Z -> 09:00.
  EXPECT_EQ(FormatLocalDateTime(1782907200LL * 1000000, Language::kEnUs), "07/01/2026 09:00:00");
  EXPECT_EQ(FormatLocalTime(1782907200LL * 1000000), "09:00");
  // Before the epoch.
  EXPECT_EQ(FormatLocalDate(-1), "31/12/1969");
}

TEST(MaskPan, NeverMoreThanSixPlusFour) {
  EXPECT_EQ(MaskPan("4111111111111111").str(), "411111******1111");
  EXPECT_EQ(MaskPan("4111 1111 1111 1111").str(), "411111******1111");
  EXPECT_EQ(MaskPan("411111******1111").str(), "411111******1111");
  EXPECT_EQ(MaskPan("************1234").str(), "************1234");
  EXPECT_EQ(MaskPan("1234").str(), "************1234");
  EXPECT_EQ(MaskPan("12").str(), "**************12");
  EXPECT_EQ(MaskPan("6062825624254001234").str(), "606282*********1234");
  EXPECT_TRUE(MaskPan("").empty());
  EXPECT_TRUE(MaskPan("no digits").empty());
}

TEST(FormatCnpj, NumericAndAlphanumeric) {
  EXPECT_EQ(FormatCnpj("12345678000195"), "12.345.678/0001-95");
  EXPECT_EQ(FormatCnpj("12ABC34501DE35"), "12.ABC.345/01DE-35");
  EXPECT_EQ(FormatCnpj("123"), "123");
}

std::string Masked(const std::string& s) {
  std::u32string in(s.begin(), s.end());
  std::u32string out = internal::MaskCardNumbers(in);
  return std::string(out.begin(), out.end());
}

TEST(MaskCardNumbers, LuhnValidRunsAreMaskedWhereverTheyAppear) {
  EXPECT_EQ(Masked("card 4111111111111111 ok"), "card 411111******1111 ok");
  EXPECT_EQ(Masked("4111 1111 1111 1111 21/11"), "411111******1111 21/11");
  EXPECT_EQ(Masked("x4111-1111-1111-1111"), "x411111******1111");
  // Not Luhn-valid, or not 13-19 digits: left alone (ids, CNPJs, end-to-end ids).
  EXPECT_EQ(Masked("4111111111111112"), "4111111111111112");
  EXPECT_EQ(Masked("E12345678202009091221abcdef12345"), "E12345678202009091221abcdef12345");
  EXPECT_EQ(Masked("12.345.678/0001-95"), "12.345.678/0001-95");
}

TEST(Font, AccentedLettersDecomposeAndRender) {
  EXPECT_EQ(internal::BaseLetter(U'ã'), U'a');
  EXPECT_EQ(internal::BaseLetter(U'Ç'), U'C');
  EXPECT_EQ(internal::BaseLetter(U'ÿ'), U'y');
  EXPECT_EQ(internal::BaseLetter(U'ñ'), U'n');
  EXPECT_EQ(internal::BaseLetter(U'Ý'), U'Y');
  for (char32_t c = 0x20; c < 0x7F; ++c) EXPECT_TRUE(internal::FontHas(c));
  for (char32_t c = 0xA0; c <= 0xFF; ++c) EXPECT_TRUE(internal::FontHas(c)) << std::hex << static_cast<int>(c);
  // An accented letter differs from its base letter and from the missing-glyph box.
  EXPECT_NE(internal::GlyphFor(U'ã'), internal::GlyphFor(U'a'));
  EXPECT_NE(internal::GlyphFor(U'Ã'), internal::GlyphFor(U'A'));
  EXPECT_NE(internal::GlyphFor(U'ç'), internal::GlyphFor(U'c'));
  EXPECT_NE(internal::GlyphFor(U'ã'), internal::GlyphFor(U'á'));
  EXPECT_NE(internal::GlyphFor(U'ã'), internal::GlyphFor(0x4E00));
}

TEST(CodeTables, PortugueseLettersAndTheEuro) {
  using internal::DecodeByte;
  using internal::EncodeChar;
  // Every Portuguese letter exists in CP860, CP850/858 and WPC1252, at different places.
  for (char32_t c : std::u32string(U"áàâãéêíóôõúüçÁÀÂÃÉÊÍÓÔÕÚÜÇ")) {
    for (CodeTable t : {CodeTable::kCp860, CodeTable::kCp850, CodeTable::kCp858, CodeTable::kWpc1252}) {
      const int b = EncodeChar(t, c);
      ASSERT_GE(b, 0x80) << CodeTableName(t);
      EXPECT_EQ(DecodeByte(t, static_cast<std::uint8_t>(b)), c);
    }
  }
  EXPECT_EQ(EncodeChar(CodeTable::kCp860, U'ã'), 0x84);
  EXPECT_EQ(EncodeChar(CodeTable::kWpc1252, U'ã'), 0xE3);
  EXPECT_EQ(EncodeChar(CodeTable::kCp860, 0x20AC), -1);  // CP860 has no euro
  EXPECT_EQ(DecodeByte(CodeTable::kCp858, 0xD5), 0x20AC);
  EXPECT_EQ(DecodeByte(CodeTable::kCp850, 0xD5), 0x0131);
  EXPECT_EQ(DecodeByte(CodeTable::kWpc1252, 0x80), 0x20AC);
  EXPECT_EQ(DecodeByte(CodeTable::kWpc1252, 0x81), 0u);  // undefined in Windows-1252
}

// Every byte of every table against Python's codecs (tests/data/codepages.json): the tables
// derived from another (CP858 from CP850, CP860 from CP437) must come out whole.
TEST(CodeTables, EveryByteMatchesThePublicMapping) {
  const auto data =
      nlohmann::json::parse(testing::ReadFile(std::filesystem::path(BALCAO_TEST_DATA_DIR) / "codepages.json"));
  const std::pair<CodeTable, const char*> tables[] = {{CodeTable::kCp437, "cp437"},
                                                      {CodeTable::kCp850, "cp850"},
                                                      {CodeTable::kCp858, "cp858"},
                                                      {CodeTable::kCp860, "cp860"},
                                                      {CodeTable::kWpc1252, "cp1252"}};
  for (const auto& [table, name] : tables) {
    const auto& expected = data["tables"][name];
    ASSERT_EQ(expected.size(), 128u) << name;
    for (int byte = 0x80; byte <= 0xFF; ++byte)
      EXPECT_EQ(internal::DecodeByte(table, static_cast<std::uint8_t>(byte)), expected[byte - 0x80].get<char32_t>())
          << name << " byte 0x" << std::hex << byte;
  }
}

}  // namespace
}  // namespace balcao::printer
