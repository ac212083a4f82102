// RenderText and RenderPng: the same layout as the ESC/POS renderer, for screens.
#include <algorithm>

#include "printer/internal/canvas.h"
#include "printer/internal/code128.h"
#include "printer/internal/codepage.h"
#include "printer/internal/layout.h"
#include "printer/render.h"

namespace balcao::printer {

using internal::LaidLine;

std::string RenderText(const Document& doc, const PrinterProfile& profile, const TextOptions& options) {
  std::string out;
  for (const LaidLine& l : internal::LayOut(doc, profile)) {
    switch (l.kind) {
      case LaidLine::Kind::kText:
        out += internal::CellsToText(l.cells);
        out += '\n';
        break;
      case LaidLine::Kind::kQr:
        if (options.placeholders) out += "[QR] " + l.data + "\n";
        break;
      case LaidLine::Kind::kBarcode:
        if (options.placeholders) out += "[CODE128] " + l.data + "\n";
        break;
      case LaidLine::Kind::kCut:
        if (options.placeholders) out += std::string(static_cast<size_t>(profile.columns), '~') + "\n";
        break;
      case LaidLine::Kind::kDrawerKick:
        if (options.placeholders) out += "[drawer]\n";
        break;
    }
  }
  return out;
}

StatusOr<std::string> RenderPng(const Document& doc, const PrinterProfile& profile) {
  internal::Canvas canvas(profile.dots);
  int y = 0;
  for (const LaidLine& l : internal::LayOut(doc, profile)) {
    switch (l.kind) {
      case LaidLine::Kind::kText: {
        const int pitch = internal::TextLinePitch(l);
        int maxh = 1;
        for (const auto& c : l.cells) maxh = std::max<int>(maxh, c.style.height);
        int x = 0;
        for (const internal::Cell& c : l.cells) {
          // Characters sit on a common baseline, as on the printer.
          const int top = y + (maxh - c.style.height) * internal::kCellHeight;
          if (c.ch != U' ' || c.style.invert || c.style.underline) internal::DrawChar(canvas, x, top, c.ch, c.style);
          x += internal::kCellWidth * c.style.width;
        }
        y += pitch;
        canvas.EnsureHeight(y);
        break;
      }
      case LaidLine::Kind::kQr: {
        BALCAO_ASSIGN_OR_RETURN(QrMatrix m, EncodeQr(l.data, l.level));
        const int module = internal::QrModuleSize(m.size, profile.dots, profile.qr_module_max);
        const int dots = internal::QrDots(m.size, module);
        // A raster QR travels as whole bytes; centre it as the printer centres that image.
        const bool native = profile.native_qr && static_cast<int>(l.data.size()) <= profile.native_qr_max_bytes;
        const int width = native ? dots : (dots + 7) / 8 * 8;
        y += internal::DrawQr(canvas, internal::AlignedX(Align::kCenter, width, profile.dots), y, m, module);
        break;
      }
      case LaidLine::Kind::kBarcode: {
        BALCAO_ASSIGN_OR_RETURN(std::vector<std::uint8_t> widths, internal::Code128Widths(l.data));
        const int module = std::clamp(profile.dots / internal::BarcodeDots(widths, 1), 1, 3);
        const int w = internal::BarcodeDots(widths, module);
        y += internal::DrawBarcode(canvas, internal::AlignedX(Align::kCenter, w, profile.dots), y, widths, module,
                                   l.barcode_height, internal::DecodeUtf8(l.data));
        break;
      }
      case LaidLine::Kind::kCut:
        canvas.EnsureHeight(y + 8);
        for (int x = 0; x < profile.dots; x += 8) canvas.Fill(x, y + 3, 4, 1, true);
        y += 8;
        break;
      case LaidLine::Kind::kDrawerKick:
        break;
    }
  }
  return canvas.EncodePng();
}

}  // namespace balcao::printer
