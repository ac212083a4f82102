// The built-in bitmap font used by the PNG preview and the virtual printer: printable ASCII,
// Latin-1 (0xA0-0xFF) and the euro sign. Each glyph is 5 columns x 11 rows (3 rows above
// the capitals for accents, 1 below the baseline for descenders and the cedilla), drawn at
// 2x into the 12x24-dot cell of ESC/POS Font A. Accented letters are composed from the base
// letter and a mark, which is also how BaseLetter() strips accents for code tables that
// lack a letter.
#pragma once

#include <array>
#include <cstdint>

namespace balcao::printer::internal {

inline constexpr int kGlyphRows = 11;
using Glyph = std::array<std::uint8_t, kGlyphRows>;  // bit 4 = leftmost column

bool FontHas(char32_t cp);
// The glyph for cp; a hollow box for characters the font does not cover.
const Glyph& GlyphFor(char32_t cp);
// 'ã' -> 'a', 'Ç' -> 'C'; 0 when cp is not an accented Latin-1 letter.
char32_t BaseLetter(char32_t cp);

}  // namespace balcao::printer::internal
