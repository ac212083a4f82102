// Byte <-> code point for the single-byte printer code tables, plus the UTF-8 helpers the
// layout and the interpreter share. Pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "printer/profile.h"

namespace balcao::printer::internal {

// Code point printed for `byte` under `table`; 0 when the table leaves it undefined.
char32_t DecodeByte(CodeTable table, std::uint8_t byte);
// Byte for `cp` under `table`, or -1 when the table has no such character.
int EncodeChar(CodeTable table, char32_t cp);

// Lenient UTF-8 decoding: invalid sequences become U+FFFD, never an error.
std::u32string DecodeUtf8(std::string_view text);
void AppendUtf8(std::string& out, char32_t cp);

}  // namespace balcao::printer::internal
