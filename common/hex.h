// The value of one hexadecimal digit, the one decoder of hex text (percent-encoding in the
// sandbox's URLs, the key-encryption key file, JSON \u escapes).
#pragma once

namespace balcao {

// 0..15 for 0-9, a-f and A-F; -1 for anything else.
constexpr int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace balcao
