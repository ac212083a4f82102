// RenderEscPos: the layout as ESC/POS commands. Text alignment and columns are padded in
// software (works on every model); images, QR and barcodes are centred with ESC a 1.
#include <algorithm>

#include "printer/internal/canvas.h"
#include "printer/internal/code128.h"
#include "printer/internal/codepage.h"
#include "printer/internal/layout.h"
#include "printer/internal/qr.h"
#include "printer/render.h"

namespace balcao::printer {
namespace {

using internal::LaidLine;

class EscPosWriter {
 public:
  explicit EscPosWriter(const PrinterProfile& p) : p_(p) { out_.reserve(4096); }

  void Header() {
    Put({0x1B, 0x40});                                                   // ESC @ initialise
    if (p_.cancel_kanji) Put({0x1C, 0x2E});                              // FS . cancel Kanji mode
    Put({0x1B, 0x74, static_cast<std::uint8_t>(p_.code_table_number)});  // ESC t n
    Put({0x1B, 0x52, 0x00});                                             // ESC R 0: USA set, keeps '$'
    Put({0x1B, 0x33, internal::kLinePitch});                             // ESC 3 n line spacing
    style_ = {};
  }

  void Text(const std::vector<internal::Cell>& cells) {
    for (const internal::Cell& c : cells) {
      SetStyle(c.style);
      out_.push_back(static_cast<char>(internal::EncodeChar(p_.code_table, c.ch)));
    }
    out_.push_back('\n');
  }

  Status Qr(const std::string& data, QrLevel level) {
    BALCAO_ASSIGN_OR_RETURN(QrMatrix m, EncodeQr(data, level));
    const int module = internal::QrModuleSize(m.size, p_.dots, p_.qr_module_max);
    SetStyle({});
    Put({0x1B, 0x61, 0x01});  // ESC a 1 centre
    if (p_.native_qr && static_cast<int>(data.size()) <= p_.native_qr_max_bytes) {
      NativeQr(data, level, module);
    } else {
      RasterQr(m, module);
    }
    Put({0x1B, 0x61, 0x00});
    return OkStatus();
  }

  Status Barcode(const std::string& data, int height) {
    BALCAO_ASSIGN_OR_RETURN(std::vector<std::uint8_t> widths, internal::Code128Widths(data));
    int modules = 2 * internal::kBarcodeQuietModules;
    for (auto w : widths) modules += w;
    const int module = std::clamp(p_.dots / modules, 1, 3);
    SetStyle({});
    Put({0x1B, 0x61, 0x01});
    Put({0x1D, 0x48, 0x02});  // GS H 2: human-readable text below
    Put({0x1D, 0x66, 0x00});  // GS f 0: Font A
    Put({0x1D, 0x68, static_cast<std::uint8_t>(height)});
    Put({0x1D, 0x77, static_cast<std::uint8_t>(module)});
    Put({0x1D, 0x6B, 0x49, static_cast<std::uint8_t>(data.size() + 2), '{', 'B'});  // GS k 73: CODE128
    out_ += data;
    Put({0x1B, 0x61, 0x00});
    return OkStatus();
  }

  void Cut() { Put({0x1D, 0x56, static_cast<std::uint8_t>(p_.partial_cut ? 0x01 : 0x00)}); }
  // ESC p 0 25 250: pin 2, 50 ms on, 500 ms off (on-duty cycle under 20%).
  void DrawerKick() { Put({0x1B, 0x70, 0x00, 0x19, 0xFA}); }

  std::string Take() { return std::move(out_); }

 private:
  void Put(std::initializer_list<std::uint8_t> bytes) {
    for (std::uint8_t b : bytes) out_.push_back(static_cast<char>(b));
  }
  void Put16(int v) { Put({static_cast<std::uint8_t>(v & 0xFF), static_cast<std::uint8_t>((v >> 8) & 0xFF)}); }

  void SetStyle(const TextStyle& s) {
    if (s.bold != style_.bold) Put({0x1B, 0x45, s.bold});
    if (s.underline != style_.underline) Put({0x1B, 0x2D, s.underline});
    if (s.invert != style_.invert) Put({0x1D, 0x42, s.invert});
    if (s.width != style_.width || s.height != style_.height) {
      Put({0x1D, 0x21, static_cast<std::uint8_t>(((s.width - 1) << 4) | (s.height - 1))});
    }
    style_ = s;
  }

  void NativeQr(const std::string& data, QrLevel level, int module) {
    Put({0x1D, 0x28, 0x6B, 0x04, 0x00, 0x31, 0x41, 0x32, 0x00});                         // fn 165: model 2
    Put({0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x43, static_cast<std::uint8_t>(module)});  // fn 167: module
    Put({0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x45, static_cast<std::uint8_t>(0x30 + static_cast<int>(level))});
    Put({0x1D, 0x28, 0x6B});  // fn 180: store data
    Put16(static_cast<int>(data.size()) + 3);
    Put({0x31, 0x50, 0x30});
    out_ += data;
    Put({0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x51, 0x30});  // fn 181: print
  }

  void RasterQr(const QrMatrix& m, int module) {
    const int dots = internal::QrDots(m.size, module);
    const int width_bytes = (dots + 7) / 8;
    const int origin = kQrQuietModules * module;
    std::vector<std::uint8_t> row(static_cast<size_t>(width_bytes));
    for (int band = 0; band < dots; band += p_.raster_band_rows) {
      const int rows = std::min(p_.raster_band_rows, dots - band);
      Put({0x1D, 0x76, 0x30, 0x00});  // GS v 0, normal density
      Put16(width_bytes);
      Put16(rows);
      for (int y = band; y < band + rows; ++y) {
        std::fill(row.begin(), row.end(), 0);
        const int my = (y - origin) / module;
        if (y >= origin && my < m.size) {
          for (int mx = 0; mx < m.size; ++mx) {
            if (!m.dark(mx, my)) continue;
            for (int x = origin + mx * module; x < origin + (mx + 1) * module; ++x) {
              row[x / 8] |= static_cast<std::uint8_t>(0x80u >> (x % 8));
            }
          }
        }
        out_.append(reinterpret_cast<const char*>(row.data()), row.size());
      }
    }
  }

  const PrinterProfile& p_;
  std::string out_;
  TextStyle style_;
};

}  // namespace

StatusOr<std::string> RenderEscPos(const Document& doc, const PrinterProfile& profile) {
  const std::vector<LaidLine> lines = internal::LayOut(doc, profile);
  EscPosWriter w(profile);
  w.Header();
  for (size_t i = 0; i < lines.size(); ++i) {
    const LaidLine& l = lines[i];
    switch (l.kind) {
      case LaidLine::Kind::kText:
        w.Text(l.cells);
        break;
      case LaidLine::Kind::kQr:
        BALCAO_RETURN_IF_ERROR(w.Qr(l.data, l.level));
        break;
      case LaidLine::Kind::kBarcode:
        BALCAO_RETURN_IF_ERROR(w.Barcode(l.data, l.barcode_height));
        break;
      case LaidLine::Kind::kDrawerKick:
        w.DrawerKick();
        break;
      case LaidLine::Kind::kCut:
        w.Cut();
        // The next copy starts from a known state, whatever the previous one left.
        if (i + 1 < lines.size()) w.Header();
        break;
    }
  }
  return w.Take();
}

bool OpensDrawer(const Document& doc, const PrinterProfile& profile) {
  return profile.drawer && std::any_of(doc.blocks().begin(), doc.blocks().end(), [](const Block& block) {
           return std::holds_alternative<DrawerKickBlock>(block);
         });
}

}  // namespace balcao::printer
