// TLV splitting and the CRC of BR Code payloads (docs/formats.md, "TLV grammar" and "CRC").
#include <array>

#include "api/formats/brcode.h"
#include "api/formats/internal/digits.h"

namespace balcao::formats {
namespace {

constexpr std::array<std::uint16_t, 256> MakeCrcTable() {
  std::array<std::uint16_t, 256> table{};
  for (unsigned i = 0; i < 256; ++i) {
    std::uint16_t crc = static_cast<std::uint16_t>(i << 8);
    for (int bit = 0; bit < 8; ++bit) {
      crc = static_cast<std::uint16_t>((crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1);
    }
    table[i] = crc;
  }
  return table;
}
constexpr std::array<std::uint16_t, 256> kCrcTable = MakeCrcTable();

// Bytes taken by the UTF-8 sequence starting at text[pos], or 0 when it is not valid UTF-8.
std::size_t Utf8SequenceLength(std::string_view text, std::size_t pos) {
  unsigned char lead = static_cast<unsigned char>(text[pos]);
  std::size_t len = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || (len == 2 && lead < 0xC2) || pos + len > text.size()) return 0;
  for (std::size_t i = 1; i < len; ++i) {
    if ((static_cast<unsigned char>(text[pos + i]) & 0xC0) != 0x80) return 0;
  }
  return len;
}

}  // namespace

std::uint16_t Crc16CcittFalse(std::string_view bytes) {
  std::uint16_t crc = 0xFFFF;
  for (char c : bytes) {
    crc = static_cast<std::uint16_t>((crc << 8) ^ kCrcTable[((crc >> 8) ^ static_cast<unsigned char>(c)) & 0xFF]);
  }
  return crc;
}

std::string Crc16Hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::uint16_t crc = Crc16CcittFalse(bytes);
  std::string out(4, '0');
  for (int i = 3; i >= 0; --i, crc >>= 4) out[static_cast<std::size_t>(i)] = kHex[crc & 0xF];
  return out;
}

StatusOr<std::vector<TlvObject>> ParseTlv(std::string_view text) {
  std::vector<TlvObject> objects;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::string at = " at " + std::to_string(pos);
    if (text.size() - pos < 4) return InvalidArgumentError("TLV: truncated id/length" + at);
    std::string_view header = text.substr(pos, 4);
    if (!internal::AllDigits(header)) return InvalidArgumentError("TLV: non-numeric id/length" + at);
    std::string id(header.substr(0, 2));
    int length = static_cast<int>(internal::ParseDigits(header.substr(2)));
    if (length == 0) return InvalidArgumentError("TLV: id " + id + at + " has length 00");
    std::size_t start = pos + 4;
    std::size_t end = start;
    for (int chars = 0; chars < length; ++chars) {
      if (end >= text.size()) {
        return InvalidArgumentError("TLV: id " + id + at + " declares length " + std::to_string(length) + ", only " +
                                    std::to_string(chars) + " chars remain");
      }
      std::size_t n = Utf8SequenceLength(text, end);
      if (n == 0) return InvalidArgumentError("TLV: invalid UTF-8 at " + std::to_string(end));
      end += n;
    }
    objects.push_back({std::move(id), std::string(text.substr(start, end - start))});
    pos = end;
  }
  return objects;
}

}  // namespace balcao::formats
