#include "printer/interpreter.h"

#include <algorithm>
#include <cstdio>

#include "printer/internal/canvas.h"
#include "printer/internal/code128.h"
#include "printer/internal/codepage.h"
#include "printer/internal/interpreter_impl.h"
#include "printer/internal/qr.h"

namespace balcao::printer {

using internal::Byte;
using internal::Canvas;
using internal::Hex;
using internal::kDefaultSpacing;
using internal::kNeedMore;

std::string internal::Hex(int b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", b & 0xFF);
  return buf;
}

void Interpreter::Impl::NewPage() {
  page = VirtualPage{};
  if (opt.draw) page.canvas = std::make_shared<Canvas>(opt.dots);
  y = 0;
}

// ESC @: buffer cleared, modes back to power-on defaults
void Interpreter::Impl::Reset() {
  line.clear();
  x = 0;
  table = CodeTable::kCp437;
  table_selected = false;
  style = {};
  align = Align::kLeft;
  spacing = kDefaultSpacing;
  qr_data.clear();
}

void Interpreter::Impl::Note(std::string n) {
  if (page.notes.size() < 100) page.notes.push_back(std::move(n));
}

void Interpreter::Impl::Advance(int dots) {
  y += dots;
  if (page.canvas) page.canvas->EnsureHeight(y);
  if (y > opt.max_page_dots) {
    Note("page longer than " + std::to_string(opt.max_page_dots) + " dots: cut automatically");
    CompletePage(false);
  }
}

void Interpreter::Impl::CompletePage(bool by_cut) {
  page.cut = by_cut;
  done.push_back(std::move(page));
  NewPage();
}

void Interpreter::Impl::PrintLine() {
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

void Interpreter::Impl::FlushIfPending() {
  if (!line.empty()) PrintLine();
}

void Interpreter::Impl::PutChar(Byte b) {
  const char32_t cp = internal::DecodeByte(table, b);
  if (b >= 0x80 && !table_selected) ++page.high_bytes_before_code_table;
  const int w = internal::kCellWidth * style.width;
  if (x + w > opt.dots) PrintLine();  // automatic line feed at the right margin
  line.push_back({cp, style, x});
  x += w;
}

void Interpreter::Impl::SelectTable(int n) {
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

void Interpreter::Impl::Status(const std::string& command, int reply) {
  replies.push_back(static_cast<char>(reply));
  page.status_queries.push_back({command, reply});
}

int Interpreter::Impl::DleEot(int n) {
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

void Interpreter::Impl::Image(int width_bytes, int rows, const Byte* data) {
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

void Interpreter::Impl::PrintQr() {
  FlushIfPending();
  if (qr_data.empty()) {
    Note("GS ( k fn 181 with no stored QR data");
    return;
  }
  page.has_content_ = true;
  page.qr_payloads.push_back(qr_data);
  StatusOr<QrMatrix> m = EncodeQr(qr_data, qr_level);
  if (!m.ok()) {
    Note("QR not printable: " + m.status().message());
    return;
  }
  const int dots = internal::QrDots(m->size, qr_module);
  if (page.canvas) internal::DrawQr(*page.canvas, internal::AlignedX(align, dots, opt.dots), y, *m, qr_module);
  Advance(dots);
}

void Interpreter::Impl::Barcode(int m, std::string data) {
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
        internal::DrawBarcode(*page.canvas, internal::AlignedX(align, w, opt.dots), y, *widths, bar_module, bar_height,
                              hri_text);
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

void Interpreter::Impl::QrFunction(const Byte* p, size_t len) {
  // p points at cn; len counts cn fn and parameters.
  if (len < 2 || p[0] != 0x31) return;  // other 2D symbologies: skipped
  const Byte fn = p[1];
  if (fn == 0x43 && len >= 3) qr_module = std::clamp<int>(p[2], 1, 16);
  if (fn == 0x45 && len >= 3 && p[2] >= 0x30 && p[2] <= 0x33) qr_level = static_cast<QrLevel>(p[2] - 0x30);
  if (fn == 0x50 && len >= 3) qr_data.assign(reinterpret_cast<const char*>(p + 3), len - 3);
  if (fn == 0x51) PrintQr();
}

void Interpreter::Impl::Run() {
  size_t pos = 0;
  const Byte* data = reinterpret_cast<const Byte*>(buf.data());
  while (pos < buf.size()) {
    const size_t used = Step(data + pos, buf.size() - pos);
    if (used == kNeedMore) break;
    pos += used;
  }
  buf.erase(0, pos);
}

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
