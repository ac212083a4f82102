// UTF-8 <-> single-byte code tables for the printer: the upper halves (0x80-0xFF) of
// CP437, CP850, CP858, CP860 and Windows-1252 (lower half is ASCII in all of them).
// Charts written from the public mappings (Python codecs; every byte checked against them by
// tests/data/codepages.json).
#include "printer/internal/codepage.h"

#include <array>
#include <utility>

namespace balcao::printer::internal {
namespace {

using UpperHalf = std::array<char16_t, 128>;

// A code page's upper half written as its chart: 8 rows of 16 characters from byte 0x80 on,
// \0 where the code page leaves the byte undefined, \u escapes for the invisible ones.
constexpr UpperHalf Chart(const char16_t (&chart)[129]) {
  UpperHalf t{};
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = chart[i];
  return t;
}

// clang-format off
constexpr UpperHalf kCp437 = Chart(
    u"ÇüéâäàåçêëèïîìÄÅ"  // 0x80-0x8F
    u"ÉæÆôöòûùÿÖÜ¢£¥₧ƒ"  // 0x90-0x9F
    u"áíóúñÑªº¿⌐¬½¼¡«»"  // 0xA0-0xAF
    u"░▒▓│┤╡╢╖╕╣║╗╝╜╛┐"  // 0xB0-0xBF
    u"└┴┬├─┼╞╟╚╔╩╦╠═╬╧"  // 0xC0-0xCF
    u"╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀"  // 0xD0-0xDF
    u"αßΓπΣσµτΦΘΩδ∞φε∩"  // 0xE0-0xEF
    u"≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00A0"  // 0xF0-0xFF
);
constexpr UpperHalf kCp850 = Chart(
    u"ÇüéâäàåçêëèïîìÄÅ"  // 0x80-0x8F
    u"ÉæÆôöòûùÿÖÜø£Ø×ƒ"  // 0x90-0x9F
    u"áíóúñÑªº¿®¬½¼¡«»"  // 0xA0-0xAF
    u"░▒▓│┤ÁÂÀ©╣║╗╝¢¥┐"  // 0xB0-0xBF
    u"└┴┬├─┼ãÃ╚╔╩╦╠═╬¤"  // 0xC0-0xCF
    u"ðÐÊËÈıÍÎÏ┘┌█▄¦Ì▀"  // 0xD0-0xDF
    u"ÓßÔÒõÕµþÞÚÛÙýÝ¯´"  // 0xE0-0xEF
    u"\u00AD±‗¾¶§÷¸°¨·¹³²■\u00A0"  // 0xF0-0xFF
);
// clang-format on
// CP858 is CP850 with the euro sign in place of the dotless i (0xD5).
constexpr UpperHalf MakeCp858() {
  UpperHalf t = kCp850;
  t[0xD5 - 0x80] = 0x20AC;
  return t;
}
constexpr UpperHalf kCp858 = MakeCp858();
// CP860 (Portuguese) is CP437 with 16 of its letters in place of CP437's other-language ones.
constexpr UpperHalf MakeCp860() {
  constexpr std::pair<unsigned char, char16_t> kPortuguese[] = {
      {0x84, u'ã'}, {0x86, u'Á'}, {0x89, u'Ê'}, {0x8B, u'Í'}, {0x8C, u'Ô'}, {0x8E, u'Ã'}, {0x8F, u'Â'}, {0x91, u'À'},
      {0x92, u'È'}, {0x94, u'õ'}, {0x96, u'Ú'}, {0x98, u'Ì'}, {0x99, u'Õ'}, {0x9D, u'Ù'}, {0x9F, u'Ó'}, {0xA9, u'Ò'},
  };
  UpperHalf t = kCp437;
  for (const auto& [byte, code_point] : kPortuguese) t[byte - 0x80] = code_point;
  return t;
}
constexpr UpperHalf kCp860 = MakeCp860();
// clang-format off
constexpr UpperHalf kCp1252 = Chart(
    u"€\0‚ƒ„…†‡ˆ‰Š‹Œ\0Ž\0"  // 0x80-0x8F
    u"\0‘’“”•–—˜™š›œ\0žŸ"  // 0x90-0x9F
    u"\u00A0¡¢£¤¥¦§¨©ª«¬\u00AD®¯"  // 0xA0-0xAF
    u"°±²³´µ¶·¸¹º»¼½¾¿"  // 0xB0-0xBF
    u"ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏ"  // 0xC0-0xCF
    u"ÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞß"  // 0xD0-0xDF
    u"àáâãäåæçèéêëìíîï"  // 0xE0-0xEF
    u"ðñòóôõö÷øùúûüýþÿ"  // 0xF0-0xFF
);
// clang-format on

const UpperHalf& Table(CodeTable table) {
  switch (table) {
    case CodeTable::kCp437:
      return kCp437;
    case CodeTable::kCp850:
      return kCp850;
    case CodeTable::kCp858:
      return kCp858;
    case CodeTable::kCp860:
      return kCp860;
    case CodeTable::kWpc1252:
      return kCp1252;
  }
  return kCp437;
}

}  // namespace

char32_t DecodeByte(CodeTable table, std::uint8_t byte) {
  if (byte < 0x80) return byte;
  return Table(table)[byte - 0x80];
}

int EncodeChar(CodeTable table, char32_t cp) {
  if (cp < 0x80) return static_cast<int>(cp);
  const UpperHalf& t = Table(table);
  for (int i = 0; i < 128; ++i) {
    if (t[i] == cp) return 0x80 + i;
  }
  return -1;
}

}  // namespace balcao::printer::internal

namespace balcao::printer::internal {

std::u32string DecodeUtf8(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    int extra = b < 0x80 ? 0 : (b >> 5) == 6 ? 1 : (b >> 4) == 14 ? 2 : (b >> 3) == 30 ? 3 : -1;
    if (extra < 0 || i + static_cast<size_t>(extra) >= s.size()) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    char32_t cp = extra == 0 ? b : extra == 1 ? (b & 0x1F) : extra == 2 ? (b & 0x0F) : (b & 0x07);
    bool ok = true;
    for (int k = 1; k <= extra; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) {
        ok = false;
        break;
      }
      cp = (cp << 6) | (c & 0x3F);
    }
    if (!ok) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    out.push_back(cp);
    i += extra + 1;
  }
  return out;
}

void AppendUtf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace balcao::printer::internal
