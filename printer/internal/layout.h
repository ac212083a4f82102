// The one layout engine: Document + profile -> lines of printable cells, shared by the
// ESC/POS, text and PNG renderers so preview and print agree. Text is reduced here to
// what the profile's code table and the preview font can both show (fallbacks: explicit
// replacements, accent stripping, '?'); control characters are dropped (no command
// injection through a merchant name); Luhn-valid 13-19 digit runs are masked to 6+4.
#pragma once

#include <string>
#include <vector>

#include "printer/profile.h"
#include "printer/receipt.h"

namespace balcao::printer::internal {

struct Cell {
  char32_t ch;
  TextStyle style;
};

struct LaidLine {
  enum class Kind { kText, kQr, kBarcode, kCut, kDrawerKick };
  Kind kind = Kind::kText;
  std::vector<Cell> cells;  // kText: characters from column 0, alignment padding included
  std::string data;         // kQr, kBarcode
  QrLevel level = QrLevel::kM;
  int barcode_height = 0;
};

std::vector<LaidLine> LayOut(const Document& doc, const PrinterProfile& profile);

// Dots a text line advances the paper: the line pitch, or more for tall characters.
int TextLinePitch(const LaidLine& line);
// The line as UTF-8 in the shared text convention: each character once, followed by
// (width - 1) spaces; trailing spaces trimmed. The interpreter produces the same.
std::string CellsToText(const std::vector<Cell>& cells);

// Replaces Luhn-valid runs of 13-19 digits (spaces, '-' and '.' allowed between digits)
// by their 6+4 mask.
std::u32string MaskCardNumbers(const std::u32string& text);

}  // namespace balcao::printer::internal
