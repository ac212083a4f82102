#include "printer/internal/canvas.h"

#include <png.h>

#include <algorithm>

#include "printer/internal/code128.h"
#include "printer/internal/font.h"

namespace balcao::printer::internal {

Canvas::Canvas(int width) : width_(width < 8 ? 8 : width), stride_((width_ + 7) / 8) {}

void Canvas::EnsureHeight(int h) {
  if (h <= height_) return;
  height_ = h;
  bits_.resize(static_cast<size_t>(height_) * stride_, 0);
}

void Canvas::Set(int x, int y) {
  if (x < 0 || y < 0 || x >= width_) return;
  EnsureHeight(y + 1);
  bits_[static_cast<size_t>(y) * stride_ + x / 8] |= static_cast<std::uint8_t>(0x80u >> (x % 8));
}

bool Canvas::Get(int x, int y) const {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return false;
  return bits_[static_cast<size_t>(y) * stride_ + x / 8] & (0x80u >> (x % 8));
}

void Canvas::Fill(int x, int y, int w, int h, bool black) {
  if (h <= 0 || w <= 0) return;
  EnsureHeight(y + h);
  const int x1 = std::min(x + w, width_);
  for (int yy = std::max(y, 0); yy < y + h; ++yy) {
    std::uint8_t* row = &bits_[static_cast<size_t>(yy) * stride_];
    int xx = std::max(x, 0);
    auto set = [&](int px) {
      const auto bit = static_cast<std::uint8_t>(0x80u >> (px % 8));
      row[px / 8] = black ? (row[px / 8] | bit) : (row[px / 8] & ~bit);
    };
    for (; xx < x1 && xx % 8 != 0; ++xx) set(xx);
    for (; xx + 8 <= x1; xx += 8) row[xx / 8] = black ? 0xFF : 0x00;  // whole bytes
    for (; xx < x1; ++xx) set(xx);
  }
}

void Canvas::Invert(int x, int y, int w, int h) {
  if (h <= 0 || w <= 0) return;
  EnsureHeight(y + h);
  for (int yy = std::max(y, 0); yy < y + h; ++yy) {
    for (int xx = std::max(x, 0); xx < std::min(x + w, width_); ++xx) {
      bits_[static_cast<size_t>(yy) * stride_ + xx / 8] ^= static_cast<std::uint8_t>(0x80u >> (xx % 8));
    }
  }
}

void Canvas::Blit(int x, int y, int width_bytes, int rows, const std::uint8_t* data) {
  if (rows <= 0 || width_bytes <= 0) return;
  EnsureHeight(y + rows);
  for (int r = 0; r < rows; ++r) {
    const std::uint8_t* row = data + static_cast<size_t>(r) * width_bytes;
    if (x % 8 == 0 && x >= 0) {
      // Byte-aligned fast path (the common case: centred images have even offsets of 8).
      const int first = x / 8;
      const int n = std::min(width_bytes, stride_ - first);
      std::uint8_t* dst = &bits_[static_cast<size_t>(y + r) * stride_ + first];
      for (int i = 0; i < n; ++i) dst[i] |= row[i];
      continue;
    }
    for (int b = 0; b < width_bytes * 8; ++b) {
      if (row[b / 8] & (0x80u >> (b % 8))) Set(x + b, y + r);
    }
  }
}

namespace {

void PngWrite(png_structp png, png_bytep data, png_size_t length) {
  auto* out = static_cast<std::string*>(png_get_io_ptr(png));
  out->append(reinterpret_cast<const char*>(data), length);
}
void PngFlush(png_structp) {}

}  // namespace

StatusOr<std::string> Canvas::EncodePng() const {
  std::string out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  if (!png) return InternalError("png: cannot create writer");
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return InternalError("png: encoding failed");
  }
  const int h = height_ < 1 ? 1 : height_;
  png_set_write_fn(png, &out, PngWrite, PngFlush);
  png_set_IHDR(png, info, static_cast<png_uint_32>(width_), static_cast<png_uint_32>(h), 1, PNG_COLOR_TYPE_GRAY,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 1);  // previews: speed over size
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
  png_write_info(png, info);
  png_set_invert_mono(png);  // canvas 1 = black; PNG gray 1-bit 0 = black
  std::vector<std::uint8_t> blank(static_cast<size_t>(stride_), 0);
  for (int y = 0; y < h; ++y) {
    const std::uint8_t* row = y < height_ ? &bits_[static_cast<size_t>(y) * stride_] : blank.data();
    png_write_row(png, const_cast<png_bytep>(row));
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return out;
}

void DrawChar(Canvas& canvas, int x, int y, char32_t cp, const TextStyle& style) {
  const int sx = 2 * style.width, sy = 2 * style.height;
  const int cell_w = kCellWidth * style.width, cell_h = kCellHeight * style.height;
  canvas.EnsureHeight(y + cell_h);
  const Glyph& g = GlyphFor(cp);
  const int ox = x + style.width;  // 1-dot (scaled) left bearing
  for (int r = 0; r < kGlyphRows; ++r) {
    if (!g[r]) continue;
    for (int c = 0; c < 5; ++c) {
      if (!(g[r] & (0x10u >> c))) continue;
      // Bold: one extra dot to the right, as an emphasised printer head does.
      canvas.Fill(ox + c * sx, y + r * sy, sx + (style.bold ? 1 : 0), sy, true);
    }
  }
  if (style.underline) canvas.Fill(x, y + cell_h - 2 * style.height, cell_w, style.height, true);
  if (style.invert) canvas.Invert(x, y, cell_w, cell_h);
}

int DrawQr(Canvas& canvas, int x, int y, const QrMatrix& qr, int module) {
  const int total = QrDots(qr.size, module);
  canvas.EnsureHeight(y + total);
  const int origin_x = x + kQrQuietModules * module, origin_y = y + kQrQuietModules * module;
  for (int my = 0; my < qr.size; ++my) {
    for (int mx = 0; mx < qr.size; ++mx) {
      if (qr.dark(mx, my)) canvas.Fill(origin_x + mx * module, origin_y + my * module, module, module, true);
    }
  }
  return total;
}

int BarcodeDots(const std::vector<std::uint8_t>& widths, int module) {
  int modules = 2 * kBarcodeQuietModules;
  for (std::uint8_t w : widths) modules += w;
  return modules * module;
}

int DrawBarcode(Canvas& canvas, int x, int y, const std::vector<std::uint8_t>& widths, int module, int height,
                const std::u32string& hri) {
  int cx = x + kBarcodeQuietModules * module;
  bool bar = true;
  for (std::uint8_t w : widths) {
    if (bar) canvas.Fill(cx, y, w * module, height, true);
    cx += w * module;
    bar = !bar;
  }
  const int text_w = static_cast<int>(hri.size()) * kCellWidth;
  int tx = x + (BarcodeDots(widths, module) - text_w) / 2;
  if (tx < 0) tx = 0;
  for (char32_t c : hri) {
    DrawChar(canvas, tx, y + height + 4, c, {});
    tx += kCellWidth;
  }
  canvas.EnsureHeight(y + BarcodeHeight(height));
  return BarcodeHeight(height);
}

int AlignedX(Align align, int w, int line) {
  if (w >= line) return 0;
  switch (align) {
    case Align::kLeft:
      return 0;
    case Align::kCenter:
      return (line - w) / 2;
    case Align::kRight:
      return line - w;
  }
  return 0;
}

}  // namespace balcao::printer::internal
