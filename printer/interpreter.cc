#include "printer/interpreter.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "printer/internal/canvas.h"
#include "printer/internal/code128.h"
#include "printer/internal/codepage.h"
#include "printer/internal/qr.h"

namespace balcao::printer {
namespace {

using internal::Canvas;
using Byte = std::uint8_t;

constexpr size_t kNeedMore = 0;
constexpr size_t kMaxImageBytes = 4u << 20;  // one GS v 0 / GS 8 L command
constexpr int kDefaultSpacing = internal::kLinePitch;

std::string Hex(int b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", b & 0xFF);
  return buf;
}

struct PendingChar {
  char32_t ch;
  TextStyle style;
  int x;
};

}  // namespace

struct Interpreter::Impl {
  InterpreterOptions opt;
  std::string buf;  // unconsumed bytes (an incomplete command)
  std::string replies;
  std::vector<VirtualPage> done;
  VirtualPage page;
  std::vector<StatusQuery> trailing;  // see trailing_status_queries()
  int y = 0;

  // Printer modes.
  CodeTable table = CodeTable::kCp437;
  bool table_selected = false;
  TextStyle style;
  Align align = Align::kLeft;
  int spacing = kDefaultSpacing;
  std::vector<PendingChar> line;
  int x = 0;
  // QR symbol storage (GS ( k).
  std::string qr_data;
  int qr_module = 3;
  QrLevel qr_level = QrLevel::kL;
  // Barcode settings.
  int bar_height = 162, bar_module = 3, hri = 0;

  explicit Impl(InterpreterOptions o) : opt(std::move(o)) { NewPage(); }

  void NewPage() {
    page = VirtualPage{};
    if (opt.draw) page.canvas = std::make_shared<Canvas>(opt.dots);
    y = 0;
  }

  void Reset() {  // ESC @: buffer cleared, modes back to power-on defaults
    line.clear();
    x = 0;
    table = CodeTable::kCp437;
    table_selected = false;
    style = {};
    align = Align::kLeft;
    spacing = kDefaultSpacing;
    qr_data.clear();
  }

  void Note(std::string n) {
    if (page.notes.size() < 100) page.notes.push_back(std::move(n));
  }

  void Advance(int dots) {
    y += dots;
    if (page.canvas) page.canvas->EnsureHeight(y);
    if (y > opt.max_page_dots) {
      Note("page longer than " + std::to_string(opt.max_page_dots) + " dots: cut automatically");
      CompletePage(false);
    }
  }

  void CompletePage(bool by_cut) {
    page.cut = by_cut;
    done.push_back(std::move(page));
    NewPage();
  }

  // Prints the line buffer (LF semantics) and advances the paper.
  void PrintLine() {
    page.has_content_ = true;
    if (line.empty()) {
      page.lines.emplace_back();
      Advance(spacing);
      return;
    }
    int maxh = 1;
    for (const auto& c : line) maxh = std::max<int>(maxh, c.style.height);
    const int shift = internal::AlignedX(align, x, opt.dots);
    // Text: each character at its column, followed by (width-1) spaces.
    std::u32string grid;
    for (const auto& c : line) {
      const size_t col = static_cast<size_t>((c.x + shift) / internal::kCellWidth);
      if (grid.size() < col) grid.resize(col, U' ');
      grid.resize(col);
      grid.push_back(c.ch == 0 ? U'?' : c.ch);
      grid.append(static_cast<size_t>(c.style.width - 1), U' ');
    }
    std::string text;
    for (char32_t c : grid) internal::AppendUtf8(text, c);
    while (!text.empty() && text.back() == ' ') text.pop_back();
    page.lines.push_back(std::move(text));
    if (page.canvas) {
      for (const auto& c : line) {
        if (c.ch == U' ' && !c.style.invert && !c.style.underline) continue;
        const int top = y + (maxh - c.style.height) * internal::kCellHeight;
        internal::DrawChar(*page.canvas, c.x + shift, top, c.ch == 0 ? U'\uFFFD' : c.ch, c.style);
      }
    }
    line.clear();
    x = 0;
    Advance(std::max(spacing, internal::kCellHeight * maxh + std::max(0, spacing - internal::kCellHeight)));
  }

  void FlushIfPending() {
    if (!line.empty()) PrintLine();
  }

  void PutChar(Byte b) {
    const char32_t cp = internal::DecodeByte(table, b);
    if (b >= 0x80 && !table_selected) ++page.high_bytes_before_code_table;
    const int w = internal::kCellWidth * style.width;
    if (x + w > opt.dots) PrintLine();  // automatic line feed at the right margin
    line.push_back({cp, style, x});
    x += w;
  }

  void SelectTable(int n) {
    for (const CodeTableNumber& t : opt.code_tables) {
      if (t.number == n) {
        table = t.table;
        table_selected = true;
        page.code_tables.push_back(CodeTableName(t.table));
        return;
      }
    }
    Note("ESC t " + std::to_string(n) + ": code table not known to this printer; keeping " + CodeTableName(table));
  }

  void Status(const std::string& command, int reply) {
    replies.push_back(static_cast<char>(reply));
    page.status_queries.push_back({command, reply});
  }

  int DleEot(int n) {
    const PrinterState& s = opt.state;
    const bool stopped = s.offline || s.cover_open || s.paper_out;
    switch (n) {
      case 1:
        return 0x12 | (s.drawer_open ? 0x04 : 0) | (stopped ? 0x08 : 0);
      case 2:
        return 0x12 | (s.cover_open ? 0x04 : 0) | (s.paper_out ? 0x20 : 0) | (s.offline ? 0x40 : 0);
      case 3:
        return 0x12;
      case 4:
        return 0x12 | (s.paper_near_end ? 0x0C : 0) | (s.paper_out ? 0x60 : 0);
      default:
        return 0x12;
    }
  }

  void Image(int width_bytes, int rows, const Byte* data) {
    FlushIfPending();
    page.has_content_ = true;
    const int w = width_bytes * 8;
    const int ix = internal::AlignedX(align, w, opt.dots);
    if (page.canvas) page.canvas->Blit(ix, y, width_bytes, rows, data);
    // Bands of one image arrive as consecutive commands: report them as one image.
    if (!page.images.empty()) {
      RasterImage& last = page.images.back();
      if (last.x == ix && last.width == w && last.y + last.height == y) {
        last.height += rows;
        Advance(rows);
        return;
      }
    }
    page.images.push_back({ix, y, w, rows});
    Advance(rows);
  }

  void PrintQr() {
    FlushIfPending();
    if (qr_data.empty()) {
      Note("GS ( k fn 181 with no stored QR data");
      return;
    }
    page.has_content_ = true;
    page.qr_payloads.push_back(qr_data);
    StatusOr<internal::QrMatrix> m = internal::EncodeQr(qr_data, qr_level);
    if (!m.ok()) {
      Note("QR not printable: " + m.status().message());
      return;
    }
    const int dots = internal::QrDots(m->size, qr_module);
    if (page.canvas) internal::DrawQr(*page.canvas, internal::AlignedX(align, dots, opt.dots), y, *m, qr_module);
    Advance(dots);
  }

  void Barcode(int m, std::string data) {
    FlushIfPending();
    page.has_content_ = true;
    if (m == 73 && data.size() >= 2 && data[0] == '{' && data[1] == 'B') {
      data.erase(0, 2);
      page.barcodes.push_back(data);
      StatusOr<std::vector<std::uint8_t>> widths = internal::Code128Widths(data);
      if (widths.ok()) {
        const int w = internal::BarcodeDots(*widths, bar_module);
        if (page.canvas) {
          std::u32string hri_text = hri & 2 ? internal::DecodeUtf8(data) : std::u32string();
          internal::DrawBarcode(*page.canvas, internal::AlignedX(align, w, opt.dots), y, *widths, bar_module,
                                bar_height, hri_text);
        }
        Advance(internal::BarcodeHeight(bar_height));
        return;
      }
    } else {
      page.barcodes.push_back(data);
    }
    Note("barcode type " + std::to_string(m) + " recorded but not drawn");
    Advance(bar_height);
  }

  void QrFunction(const Byte* p, size_t len) {
    // p points at cn; len counts cn fn and parameters.
    if (len < 2 || p[0] != 0x31) return;  // other 2D symbologies: skipped
    const Byte fn = p[1];
    if (fn == 0x43 && len >= 3) qr_module = std::clamp<int>(p[2], 1, 16);
    if (fn == 0x45 && len >= 3 && p[2] >= 0x30 && p[2] <= 0x33) qr_level = static_cast<QrLevel>(p[2] - 0x30);
    if (fn == 0x50 && len >= 3) qr_data.assign(reinterpret_cast<const char*>(p + 3), len - 3);
    if (fn == 0x51) PrintQr();
  }

  // Executes the command at p (n bytes available); returns bytes consumed, or kNeedMore.
  size_t Step(const Byte* p, size_t n) {
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

  size_t Dle(const Byte* p, size_t n) {
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

  size_t Esc(const Byte* p, size_t n) {
    if (n < 2) return kNeedMore;
    const Byte c = p[1];
    auto need = [&](size_t k) { return n >= k; };
    switch (c) {
      case '@':
        Reset();
        return 2;
      case '2':
        spacing = kDefaultSpacing;
        return 2;
      case 'i':
      case 'm':
        FlushIfPending();
        CompletePage(true);
        return 2;
      case 't':
        if (!need(3)) return kNeedMore;
        SelectTable(p[2]);
        return 3;
      case '!':
        if (!need(3)) return kNeedMore;
        style.bold = p[2] & 0x08;
        style.height = p[2] & 0x10 ? 2 : 1;
        style.width = p[2] & 0x20 ? 2 : 1;
        style.underline = p[2] & 0x80;
        return 3;
      case 'E':
      case 'G':
        if (!need(3)) return kNeedMore;
        style.bold = p[2] & 1;
        return 3;
      case '-':
        if (!need(3)) return kNeedMore;
        style.underline = (p[2] & 3) != 0 && p[2] != '0';
        return 3;
      case 'a': {
        if (!need(3)) return kNeedMore;
        const int a = p[2] >= '0' ? p[2] - '0' : p[2];
        align = a == 1 ? Align::kCenter : a == 2 ? Align::kRight : Align::kLeft;
        return 3;
      }
      case 'd': {
        if (!need(3)) return kNeedMore;
        for (int i = 0; i < p[2]; ++i) PrintLine();
        return 3;
      }
      case 'J':
        if (!need(3)) return kNeedMore;
        if (!line.empty()) PrintLine();
        page.has_content_ = true;
        Advance(p[2]);
        return 3;
      case '3':
        if (!need(3)) return kNeedMore;
        spacing = p[2];
        return 3;
      case 'p':
        if (!need(5)) return kNeedMore;
        ++page.drawer_kicks;
        page.has_content_ = true;
        return 5;
      case '$':
      case '\\':
        if (!need(4)) return kNeedMore;
        {
          const int v = p[2] | (p[3] << 8);
          const int nx = c == '$' ? v : x + static_cast<std::int16_t>(v);
          if (nx >= 0 && nx < opt.dots) x = nx;
        }
        return 4;
      case 'c':
        if (!need(4)) return kNeedMore;
        return 4;
      case 'B':
        if (!need(4)) return kNeedMore;
        return 4;
      case 'W':
        if (!need(10)) return kNeedMore;
        return 10;
      case '*': {
        if (!need(5)) return kNeedMore;
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
        if (!need(3)) return kNeedMore;
        if (c == 'R' && p[2] != 0) Note("ESC R " + std::to_string(p[2]) + ": international set other than USA");
        return 3;
      default:
        Note("unknown command ESC " + Hex(c));
        return 2;
    }
  }

  size_t Fs(const Byte* p, size_t n) {
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

  size_t Gs(const Byte* p, size_t n) {
    if (n < 2) return kNeedMore;
    const Byte c = p[1];
    switch (c) {
      case '!':
        if (n < 3) return kNeedMore;
        style.width = static_cast<std::uint8_t>(((p[2] >> 4) & 7) + 1);
        style.height = static_cast<std::uint8_t>((p[2] & 7) + 1);
        return 3;
      case 'B':
        if (n < 3) return kNeedMore;
        style.invert = p[2] & 1;
        return 3;
      case 'V': {
        if (n < 3) return kNeedMore;
        const Byte m = p[2];
        const bool with_feed = m == 65 || m == 66 || m == 97 || m == 98 || m == 103 || m == 104;
        if (with_feed && n < 4) return kNeedMore;
        FlushIfPending();
        CompletePage(true);
        return with_feed ? 4 : 3;
      }
      case 'v': {
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
      case '(': {
        if (n < 5) return kNeedMore;
        const size_t len = p[3] | (p[4] << 8);
        if (n < 5 + len) return kNeedMore;
        if (p[2] == 'k') QrFunction(p + 5, len);
        return 5 + len;
      }
      case 'k': {
        if (n < 3) return kNeedMore;
        const Byte m = p[2];
        if (m <= 6) {  // function A: NUL-terminated
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
        if (n < 3) return kNeedMore;
        return 3;
      case 'L':
      case 'W':
      case 'P':
      case '$':
      case '\\':
        if (n < 4) return kNeedMore;
        return 4;
      case '*': {
        if (n < 4) return kNeedMore;
        const size_t len = 4 + static_cast<size_t>(p[2]) * p[3] * 8;
        if (n < len) return kNeedMore;
        return len;
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

  void Run() {
    size_t pos = 0;
    const Byte* data = reinterpret_cast<const Byte*>(buf.data());
    while (pos < buf.size()) {
      const size_t used = Step(data + pos, buf.size() - pos);
      if (used == kNeedMore) break;
      pos += used;
    }
    buf.erase(0, pos);
  }
};

InterpreterOptions InterpreterOptions::ForProfile(const PrinterProfile& profile) {
  InterpreterOptions o;
  o.dots = profile.dots;
  o.code_tables.insert(o.code_tables.begin(), {profile.code_table_number, profile.code_table});
  return o;
}

Interpreter::Interpreter(InterpreterOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
Interpreter::~Interpreter() = default;

std::string Interpreter::Feed(std::string_view bytes) {
  impl_->buf.append(bytes);
  impl_->Run();
  return std::exchange(impl_->replies, {});
}

void Interpreter::Finish() {
  Impl& s = *impl_;
  if (!s.buf.empty()) {
    s.Note("stream ended inside a command: " + std::to_string(s.buf.size()) + " bytes dropped, starting " +
           Hex(static_cast<Byte>(s.buf[0])));
    s.buf.clear();
  }
  s.FlushIfPending();
  if (s.page.has_content_) {
    s.CompletePage(false);
  } else if (!s.done.empty()) {
    auto& last = s.done.back().status_queries;
    last.insert(last.end(), s.page.status_queries.begin(), s.page.status_queries.end());
  } else {
    s.trailing = std::move(s.page.status_queries);
  }
}

const std::vector<StatusQuery>& Interpreter::trailing_status_queries() const { return impl_->trailing; }

std::vector<VirtualPage> Interpreter::TakePages() { return std::exchange(impl_->done, {}); }

void Interpreter::set_state(const PrinterState& state) { impl_->opt.state = state; }

std::vector<VirtualPage> Interpret(std::string_view bytes, const InterpreterOptions& options) {
  Interpreter in(options);
  in.Feed(bytes);
  in.Finish();
  return in.TakePages();
}

std::string VirtualPage::Text() const {
  std::string out;
  for (const std::string& l : lines) {
    out += l;
    out += '\n';
  }
  return out;
}

StatusOr<std::string> VirtualPage::Png() const {
  if (!canvas) return FailedPreconditionError("page was interpreted without drawing (options.draw = false)");
  return canvas->EncodePng();
}

}  // namespace balcao::printer
