// A 1-bit paper canvas (width fixed to the printable dots, height grows as lines are
// added) with the drawing primitives the PNG preview and the virtual printer share:
// Font A characters (12x24 cells, scaled by the size multipliers), QR symbols, CODE128
// bars, raster images; and PNG encoding through libpng.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "printer/internal/qr.h"
#include "printer/receipt.h"

namespace balcao::printer::internal {

inline constexpr int kCellWidth = 12;  // Font A
inline constexpr int kCellHeight = 24;
inline constexpr int kLinePitch = 30;  // ESC 3 30, set by the renderer's job header

class Canvas {
 public:
  explicit Canvas(int width);
  int width() const { return width_; }
  int height() const { return height_; }
  void EnsureHeight(int h);
  void Set(int x, int y);  // clipped at the right edge and above the top
  bool Get(int x, int y) const;
  void Fill(int x, int y, int w, int h, bool black);
  void Invert(int x, int y, int w, int h);
  // Copies a 1-bit MSB-first image (stride = width_bytes) at (x, y), clipped.
  void Blit(int x, int y, int width_bytes, int rows, const std::uint8_t* data);

  StatusOr<std::string> EncodePng() const;

 private:
  int width_;
  int stride_;
  int height_ = 0;
  std::vector<std::uint8_t> bits_;  // 1 = black, MSB first
};

// One Font A character at (x, y) = top-left of its cell, scaled by style.width/height.
void DrawChar(Canvas& canvas, int x, int y, char32_t cp, const TextStyle& style);
// The symbol with its quiet zone, top-left at (x, y); returns its height in dots.
int DrawQr(Canvas& canvas, int x, int y, const QrMatrix& qr, int module);
// CODE128 bars (module dots per module) with the human-readable text below; returns the
// height used. Quiet zone included in the drawn width.
int DrawBarcode(Canvas& canvas, int x, int y, const std::vector<std::uint8_t>& widths, int module, int height,
                const std::u32string& hri);
int BarcodeDots(const std::vector<std::uint8_t>& widths, int module);
// Height of a barcode drawn by DrawBarcode.
inline int BarcodeHeight(int bar_height) { return bar_height + kCellHeight + 4; }

// x for an item of `w` dots under an alignment on a line of `line` dots.
int AlignedX(Align align, int w, int line);

}  // namespace balcao::printer::internal
