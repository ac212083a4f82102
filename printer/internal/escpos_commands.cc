// The ESC/POS command decoder of the interpreter: how many bytes each command takes and
// which printing action it triggers. Unknown commands are skipped with a note; a command
// whose declared size is absurd is rejected instead of allocated.
#include <algorithm>
#include <cstring>
#include <optional>

#include "printer/internal/interpreter_impl.h"

namespace balcao::printer {

using internal::Hex;
using internal::kDefaultSpacing;
using internal::kMaxImageBytes;
using internal::kNeedMore;

size_t Interpreter::Impl::Step(const Byte* p, size_t n) {
  const Byte b = p[0];
  switch (b) {
    case 0x0A:
      PrintLine();
      return 1;
    case 0x0C:
      PrintLine();
      return 1;
    case 0x09:
      PutChar(' ');
      return 1;
    case 0x10:
      return Dle(p, n);
    case 0x1B:
      return Esc(p, n);
    case 0x1C:
      return Fs(p, n);
    case 0x1D:
      return Gs(p, n);
    default:
      if (b < 0x20 || b == 0x7F) return 1;  // CR and other controls: ignored
      PutChar(b);
      return 1;
  }
}

size_t Interpreter::Impl::Dle(const Byte* p, size_t n) {
  if (n < 3) return kNeedMore;
  if (p[1] == 0x04) {
    Status("DLE EOT " + std::to_string(p[2]), DleEot(p[2]));
    return 3;
  }
  if (p[1] == 0x05) return 3;
  if (p[1] == 0x14) {
    const size_t len = p[2] == 1 || p[2] == 2 ? 5 : p[2] == 7 ? 4 : p[2] == 8 ? 10 : 3;
    if (n < len) return kNeedMore;
    if (p[2] == 1) ++page.drawer_kicks;
    return len;
  }
  return 1;
}

size_t Interpreter::Impl::Esc(const Byte* p, size_t n) {
  if (n < 2) return kNeedMore;
  if (const std::optional<size_t> used = EscStyle(p, n)) return *used;
  if (const std::optional<size_t> used = EscPaper(p, n)) return *used;
  return EscSkipped(p, n);
}

// ESC commands that change how the next characters look or where they go on the line.
std::optional<size_t> Interpreter::Impl::EscStyle(const Byte* p, size_t n) {
  switch (p[1]) {
    case '2':
      spacing = kDefaultSpacing;
      return 2;
    case '3':
      if (n < 3) return kNeedMore;
      spacing = p[2];
      return 3;
    case 't':
      if (n < 3) return kNeedMore;
      SelectTable(p[2]);
      return 3;
    case '!':
      if (n < 3) return kNeedMore;
      style.bold = p[2] & 0x08;
      style.height = p[2] & 0x10 ? 2 : 1;
      style.width = p[2] & 0x20 ? 2 : 1;
      style.underline = p[2] & 0x80;
      return 3;
    case 'E':
    case 'G':
      if (n < 3) return kNeedMore;
      style.bold = p[2] & 1;
      return 3;
    case '-':
      if (n < 3) return kNeedMore;
      style.underline = (p[2] & 3) != 0 && p[2] != '0';
      return 3;
    case 'a': {
      if (n < 3) return kNeedMore;
      const int a = p[2] >= '0' ? p[2] - '0' : p[2];
      align = a == 1 ? Align::kCenter : a == 2 ? Align::kRight : Align::kLeft;
      return 3;
    }
    case '$':
    case '\\': {
      if (n < 4) return kNeedMore;
      const int v = p[2] | (p[3] << 8);
      const int nx = p[1] == '$' ? v : x + static_cast<std::int16_t>(v);
      if (nx >= 0 && nx < opt.dots) x = nx;
      return 4;
    }
    default:
      return std::nullopt;
  }
}

// ESC commands that move the paper, cut it, reset the printer or kick the drawer.
std::optional<size_t> Interpreter::Impl::EscPaper(const Byte* p, size_t n) {
  switch (p[1]) {
    case '@':
      Reset();
      return 2;
    case 'i':
    case 'm':
      FlushIfPending();
      CompletePage(true);
      return 2;
    case 'd':
      if (n < 3) return kNeedMore;
      for (int i = 0; i < p[2]; ++i) PrintLine();
      return 3;
    case 'J':
      if (n < 3) return kNeedMore;
      if (!line.empty()) PrintLine();
      page.has_content_ = true;
      Advance(p[2]);
      return 3;
    case 'p':
      if (n < 5) return kNeedMore;
      ++page.drawer_kicks;
      page.has_content_ = true;
      return 5;
    default:
      return std::nullopt;
  }
}

// ESC commands that change nothing on paper (their size is known, so they are skipped),
// and unknown ones (skipped with a note).
size_t Interpreter::Impl::EscSkipped(const Byte* p, size_t n) {
  const Byte c = p[1];
  switch (c) {
    case 'c':
    case 'B':
      return n < 4 ? kNeedMore : 4;
    case 'W':
      return n < 10 ? kNeedMore : 10;
    case '*': {
      if (n < 5) return kNeedMore;
      const size_t cols = p[3] | (p[4] << 8);
      const size_t len = 5 + cols * (p[2] >= 32 ? 3 : 1);
      if (n < len) return kNeedMore;
      Note("ESC * bit image skipped");
      return len;
    }
    case 'L':
    case 'S':
    case 'F':
    case '<':
    case 0x0C:
      return 2;
    case 'R':
    case 'M':
    case 'V':
    case '{':
    case ' ':
    case 'T':
    case 'U':
    case 'r':
    case '=':
    case '%':
    case 'K':
    case 'e':
    case 'D':
      if (n < 3) return kNeedMore;
      if (c == 'R' && p[2] != 0) Note("ESC R " + std::to_string(p[2]) + ": international set other than USA");
      return 3;
    default:
      Note("unknown command ESC " + Hex(c));
      return 2;
  }
}

size_t Interpreter::Impl::Fs(const Byte* p, size_t n) {
  if (n < 2) return kNeedMore;
  switch (p[1]) {
    case '.':
    case '&':
      return 2;
    case 'C':
    case '!':
    case '-':
      if (n < 3) return kNeedMore;
      return 3;
    case 'p':
      if (n < 4) return kNeedMore;
      return 4;
    default:
      Note("unknown command FS " + Hex(p[1]));
      return 2;
  }
}

size_t Interpreter::Impl::Gs(const Byte* p, size_t n) {
  if (n < 2) return kNeedMore;
  if (const std::optional<size_t> used = GsStyle(p, n)) return *used;
  if (const std::optional<size_t> used = GsGraphics(p, n)) return *used;
  return GsOther(p, n);
}

// GS commands that set character and barcode styles.
std::optional<size_t> Interpreter::Impl::GsStyle(const Byte* p, size_t n) {
  switch (p[1]) {
    case '!':
      if (n < 3) return kNeedMore;
      style.width = static_cast<std::uint8_t>(((p[2] >> 4) & 7) + 1);
      style.height = static_cast<std::uint8_t>((p[2] & 7) + 1);
      return 3;
    case 'B':
      if (n < 3) return kNeedMore;
      style.invert = p[2] & 1;
      return 3;
    case 'h':
      if (n < 3) return kNeedMore;
      bar_height = std::max<int>(1, p[2]);
      return 3;
    case 'w':
      if (n < 3) return kNeedMore;
      bar_module = std::clamp<int>(p[2], 1, 6);
      return 3;
    case 'H':
      if (n < 3) return kNeedMore;
      hri = p[2] >= '0' ? p[2] - '0' : p[2];
      return 3;
    default:
      return std::nullopt;
  }
}

// GS commands that put something on paper or cut it: the cut, raster images, the QR
// functions (GS ( k) and barcodes (GS k).
std::optional<size_t> Interpreter::Impl::GsGraphics(const Byte* p, size_t n) {
  switch (p[1]) {
    case 'V': {
      if (n < 3) return kNeedMore;
      const Byte m = p[2];
      const bool with_feed = m == 65 || m == 66 || m == 97 || m == 98 || m == 103 || m == 104;
      if (with_feed && n < 4) return kNeedMore;
      FlushIfPending();
      CompletePage(true);
      return with_feed ? 4 : 3;
    }
    case 'v':
      return GsRasterImage(p, n);
    case '(': {
      if (n < 5) return kNeedMore;
      const size_t len = p[3] | (p[4] << 8);
      if (n < 5 + len) return kNeedMore;
      if (p[2] == 'k') QrFunction(p + 5, len);
      return 5 + len;
    }
    case 'k':
      return GsBarcode(p, n);
    default:
      return std::nullopt;
  }
}

// GS v 0: a raster image, refused (and skipped) when absurdly large.
size_t Interpreter::Impl::GsRasterImage(const Byte* p, size_t n) {
  if (n < 3) return kNeedMore;
  if (p[2] != '0') return 3;
  if (n < 8) return kNeedMore;
  const size_t wb = p[4] | (p[5] << 8), rows = p[6] | (p[7] << 8);
  if (wb * rows > kMaxImageBytes || wb == 0 || rows == 0) {
    Note("GS v 0 image of " + std::to_string(wb) + "x" + std::to_string(rows) + " bytes rejected");
    return 8;
  }
  if (n < 8 + wb * rows) return kNeedMore;
  Image(static_cast<int>(wb), static_cast<int>(rows), p + 8);
  return 8 + wb * rows;
}

// GS k: a barcode, function A (NUL-terminated data) or B (length byte first).
size_t Interpreter::Impl::GsBarcode(const Byte* p, size_t n) {
  if (n < 3) return kNeedMore;
  const Byte m = p[2];
  if (m <= 6) {
    const Byte* end = static_cast<const Byte*>(std::memchr(p + 3, 0, std::min<size_t>(n - 3, 256)));
    if (!end && n - 3 < 256) return kNeedMore;
    if (!end) {
      Note("GS k data without terminator");
      return 3;
    }
    Barcode(m, std::string(reinterpret_cast<const char*>(p + 3), end - (p + 3)));
    return static_cast<size_t>(end - p) + 1;
  }
  if (m >= 65) {
    if (n < 4) return kNeedMore;
    const size_t len = p[3];
    if (n < 4 + len) return kNeedMore;
    Barcode(m, std::string(reinterpret_cast<const char*>(p + 4), len));
    return 4 + len;
  }
  return 3;
}

// GS commands that answer a status request, or change nothing on paper (skipped by their
// known size), and unknown ones (skipped with a note).
size_t Interpreter::Impl::GsOther(const Byte* p, size_t n) {
  const Byte c = p[1];
  switch (c) {
    case 'r':
      if (n < 3) return kNeedMore;
      Status("GS r " + std::to_string(p[2]),
             (p[2] == 1 || p[2] == '1') ? (opt.state.paper_near_end ? 0x03 : 0) | (opt.state.paper_out ? 0x0C : 0)
                                        : (opt.state.drawer_open ? 0x01 : 0));
      return 3;
    case 'I':
      if (n < 3) return kNeedMore;
      Status("GS I " + std::to_string(p[2]), 0x01);
      return 3;
    case 'f':
    case 'a':
    case '/':
    case 'b':
    case 'E':
    case 'T':
    case 'D':
      return n < 3 ? kNeedMore : 3;
    case 'L':
    case 'W':
    case 'P':
    case '$':
    case '\\':
      return n < 4 ? kNeedMore : 4;
    case '*': {
      if (n < 4) return kNeedMore;
      const size_t len = 4 + static_cast<size_t>(p[2]) * p[3] * 8;
      return n < len ? kNeedMore : len;
    }
    case '8': {
      if (n < 7) return kNeedMore;
      const size_t len = static_cast<size_t>(p[3]) | (static_cast<size_t>(p[4]) << 8) |
                         (static_cast<size_t>(p[5]) << 16) | (static_cast<size_t>(p[6]) << 24);
      if (len > kMaxImageBytes) {
        Note("GS 8 of " + std::to_string(len) + " bytes rejected");
        return 7;
      }
      if (n < 7 + len) return kNeedMore;
      Note("GS 8 L graphics skipped");
      return 7 + len;
    }
    default:
      Note("unknown command GS " + Hex(c));
      return 2;
  }
}

}  // namespace balcao::printer
