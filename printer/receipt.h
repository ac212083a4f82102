// The receipt model: a Document is an ordered list of blocks (text lines, left/right
// column pairs, rules, feeds, QR codes, barcodes, cuts, drawer kicks). It holds text as
// UTF-8 and knows nothing of paper width or printer bytes: the renderers (render.h) lay it
// out for a PrinterProfile. Pure value type; build it with the chaining methods.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "common/qr.h"

namespace balcao::printer {

enum class Align : std::uint8_t { kLeft, kCenter, kRight };

struct TextStyle {
  bool bold = false;
  bool underline = false;
  bool invert = false;     // white on black
  std::uint8_t width = 1;  // character size multipliers, 1..8
  std::uint8_t height = 1;
  bool operator==(const TextStyle&) const = default;
};
inline constexpr TextStyle kBold{.bold = true};
inline constexpr TextStyle kLarge{.bold = true, .width = 2, .height = 2};
inline constexpr TextStyle kTall{.bold = true, .height = 2};

struct Span {
  std::string text;  // UTF-8
  TextStyle style;
};

// One paragraph; wrapped at word boundaries to the paper width.
struct TextBlock {
  std::vector<Span> spans;
  Align align = Align::kLeft;
  bool verbatim = false;  // break at the paper width exactly, keeping every character
};
// "Label ........ value": `left` wraps if needed, `right` is right-aligned on the last line.
struct ColumnsBlock {
  Span left;
  Span right;
};
struct RuleBlock {
  bool double_rule = false;  // '=' instead of '-'
};
struct FeedBlock {
  int lines = 1;
};
using QrLevel = ::balcao::QrLevel;  // common/qr.h
struct QrBlock {
  std::string data;  // bytes as given; keep ASCII (BR Code, URLs)
  QrLevel level = QrLevel::kM;
};
// CODE128 (code set B: printable ASCII), human-readable text below.
struct BarcodeBlock {
  std::string data;
  int height_dots = 80;
};
struct CutBlock {};
struct DrawerKickBlock {};

using Block =
    std::variant<TextBlock, ColumnsBlock, RuleBlock, FeedBlock, QrBlock, BarcodeBlock, CutBlock, DrawerKickBlock>;

class Document {
 public:
  Document& Text(std::string utf8, TextStyle style = {}, Align align = Align::kLeft);
  Document& Line(std::vector<Span> spans, Align align = Align::kLeft);
  // A code to be copied character by character (Pix "copia e cola"): no word wrapping,
  // spaces kept, broken exactly at the paper width.
  Document& Code(std::string text);
  Document& Columns(std::string left, std::string right, TextStyle style = {});
  Document& Columns(Span left, Span right);
  Document& Rule(bool double_rule = false);
  Document& Feed(int lines = 1);
  Document& Qr(std::string data, QrLevel level = QrLevel::kM);
  Document& Barcode(std::string data, int height_dots = 80);
  Document& Cut();
  Document& DrawerKick();
  // Appends every block of `other` (e.g. the second copy of a card receipt).
  Document& Append(const Document& other);

  const std::vector<Block>& blocks() const { return blocks_; }

 private:
  template <typename T>
  void Add(T block);
  std::vector<Block> blocks_;
};

}  // namespace balcao::printer
